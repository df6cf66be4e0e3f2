"""The guarded splice: the one write a person makes to a home, and entry edits on top of it.

Every human write (entry delete and edit now; hand edits, undo, restore and
approvals later) names the bytes it expects where it writes, so a write that
another writer beat to the place is refused and nothing changes. It holds the
home's lock like the memory tool, is crash-safe like it (temp file, fsync and
rename; or, for an append at the end of MEMORY.md or USER.md, the journalled
append), refuses the files the tool refuses in the same words, and names its
actor for the history. Like the tool it never raises: every outcome is a
:class:`SpliceResult`. The agent's memory tool is untouched by all of this.

Entry edits are planned by :mod:`.entry_plan`, which is pure: the app's dry
run uses it without loading this write path.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from notebook_app.core.memory.edits.entry_plan import EntryPlan, _entry_problem, _new_text_problem, _quote, plan_entry
from notebook_app.core.fs.home_pin import moved
from notebook_app.core.home.files import FileStatus
from notebook_app.core.home.layout import FLAT, Dialect, FileMap
from notebook_app.core.home.names import base_name, is_home_path
from notebook_app.core.home.reading import ENTRY_FILES
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.home.soul import BOOTSTRAP_ORDER, home_path
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.log.event_action import EventAction
from notebook_app.core.record.log.events import Payload, SecretSpan
from notebook_app.core.record.log.redaction import mask, mask_text
from notebook_app.core.memory.dialect import dialect_for
from notebook_app.core.memory.plan import load_outcome
from notebook_app.core.memory.results import SpliceResult
from notebook_app.core.record.places import read_only_refusal
from notebook_app.core.record.storage import Change, LockedHome, StorageError, locked_home

__all__ = ["ENTRY_FILES", "EntryPlan", "Splice", "SpliceResult", "delete_entry", "edit_entry", "plan_entry", "splice"]


@dataclass(frozen=True)
class Splice:
    """One byte-exact change of a bootstrap file: at ``start``, ``removed`` went and ``inserted`` came."""

    name: str
    start: int
    removed: bytes
    inserted: bytes
    by: Actor


def splice(
    home: str | os.PathLike[str],
    name: str,
    start: int,
    expected: bytes,
    new: bytes,
    *,
    by: Actor,
    label: str | None = None,
    durable: bool = True,
    action: str = EventAction.HAND_EDIT,
    secrets: Sequence[SecretSpan] = (),
    files: FileMap = FLAT,
) -> SpliceResult:
    """Put ``new`` in place of the bytes ``expected`` at byte ``start`` of bootstrap file ``name``.

    Refused, with nothing changed, when those bytes are not exactly
    ``expected`` now. An absent file is created by a splice at 0 that expects
    nothing. The splice is byte-exact and does not judge UTF-8 (undo must be
    able to put back any bytes); entry edits do. ``label`` names the change in
    the output (``ok (<label> → <name>); loads next session``); ``action`` names
    it in the history (a write the core's closed set of actions knows).
    ``secrets``: where in ``expected`` (bytes) secrets are that this splice
    removes; the record keeps only where they were (spec §7). ``files``: the
    home's host, whose own lock the splice takes too (Hermes's, on a store).
    """
    problem = _splice_problem(name, start, expected, new)
    if problem:
        return SpliceResult(problem, is_error=True)
    label = label or f"splice bytes {start}–{start + len(expected)}"
    hidden = _in_file(secrets, start)
    kept = mask(bytes(expected), [(s.start, s.length) for s in secrets])
    args = {"start": start, "expected": Payload.of(kept).to_json(), "new": Payload.of(bytes(new)).to_json()}
    change = Change(action, args, secrets=hidden)
    return _locked(
        home,
        name,
        by,
        lambda locked: _splice_locked(locked, name, start, bytes(expected), bytes(new), label, False, change),
        durable,
        files,
    )


def delete_entry(
    home: str | os.PathLike[str],
    name: str,
    line: int,
    expect: str,
    *,
    by: Actor,
    durable: bool = True,
    files: FileMap = FLAT,
) -> SpliceResult:
    """Delete line ``line`` (1-based) of MEMORY.md or USER.md, its line ending included.

    ``expect`` is the line's exact text without its line ending; if the line
    is not that now, nothing changes and the output says what is there. In a
    Hermes ``§`` store (``files``, or the file's content when no host is
    known) ``line`` is the entry's number as Hermes parses the file and
    ``expect`` its whole text.
    """
    problem = read_only_refusal(files, name) or _entry_problem(name, line, expect, lines=files.dialect is Dialect.LINES)
    if problem:
        return SpliceResult(problem, is_error=True)
    path = files.relative(name)
    return _locked(
        home, path, by, lambda locked: _entry_locked(locked, path, line, expect, None, files=files), durable, files
    )


def edit_entry(
    home: str | os.PathLike[str],
    name: str,
    line: int,
    expect: str,
    new_text: str,
    *,
    by: Actor,
    durable: bool = True,
    secrets: Sequence[SecretSpan] = (),
    files: FileMap = FLAT,
) -> SpliceResult:
    """Replace the text of line ``line`` of MEMORY.md or USER.md in place, keeping its line ending.

    Guarded like :func:`delete_entry`. ``new_text`` is one line: a line break
    in it is refused, and so is an empty text (deleting is :func:`delete_entry`).
    ``secrets``: where in ``expect`` (bytes of its UTF-8) secrets are that the
    edit removes; its record keeps only where they were, never their text,
    and it cannot be undone (spec §7).
    """
    lines = files.dialect is Dialect.LINES
    problem = (
        read_only_refusal(files, name)
        or _entry_problem(name, line, expect, lines=lines)
        or _new_text_problem(new_text, name, line, lines=lines)
    )
    if problem:
        return SpliceResult(problem, is_error=True)
    path = files.relative(name)
    return _locked(
        home,
        path,
        by,
        lambda locked: _entry_locked(locked, path, line, expect, new_text, tuple(secrets), files=files),
        durable,
        files,
    )


def _locked(
    home: str | os.PathLike[str],
    name: str,
    by: Actor,
    write: Callable[[LockedHome], SpliceResult],
    durable: bool,
    files: FileMap = FLAT,
) -> SpliceResult:
    """Run ``write`` under the home's lock as ``by``; every failure becomes a result."""
    root = home_path(home)
    if not root.is_dir():
        return SpliceResult(moved(root) or f"no such home: {root}; nothing was changed", is_error=True)
    try:
        with locked_home(root, create=False, durable=durable, by=by, files=files) as locked, locked.host_lock(name):
            result = write(locked)
            return replace(result, unrecorded=locked.unrecorded) if result.applied else result
    except StorageError as error:
        return SpliceResult(str(error), is_error=True)
    except OSError as error:
        where = f": {error.filename}" if error.filename else ""
        return SpliceResult(
            f"could not write {name} ({error.strerror or error}{where}); nothing was changed", is_error=True
        )


def _splice_locked(
    locked: LockedHome, name: str, start: int, expected: bytes, new: bytes, label: str, text: bool, change: Change
) -> SpliceResult:
    """The splice itself, the lock held; ``text``: the result is known to be UTF-8."""
    by = locked.recorder.by
    if base_name(name) in ENTRY_FILES and not expected and new:
        end = locked.probe(name)
        if end.status is FileStatus.REGULAR and start == end.size:  # an append: constant time, journalled
            output = _done_output(name, start, new, end.size + len(new), label)
            locked.append(name, new, validated=text, change=replace(change, output=output))
            return SpliceResult(output, applied=Splice(name, start, b"", new, by))
    read = locked.read_whole(name)
    data = read.data
    now = data[start : start + len(expected)]
    if read.status is FileStatus.ABSENT and (start or expected):
        return SpliceResult(
            f"{said_name(name)} changed since you selected it: it is absent now; nothing was changed", is_error=True
        )
    if start > len(data) or now != expected:
        what = (
            f"the file is {len(data):,} bytes now"
            if start + len(expected) > len(data)
            else f"they read {_quote(now.decode('utf-8', 'replace'))} now"
        )
        return SpliceResult(
            f"{said_name(name)} changed since you selected it: bytes {start}–{start + len(expected)} are not what "
            f"you expected ({what}); nothing was changed",
            is_error=True,
        )
    if not expected and not new:
        return SpliceResult(f"ok ({label} → {said_name(name)}); nothing to change")
    after = data[:start] + new + data[start + len(expected) :]
    output = _done_output(name, start, new, len(after), label, removed=len(expected))
    locked.rewrite(name, after, validated=text, change=replace(change, output=output), edit=(start, expected, new))
    return SpliceResult(output, applied=Splice(name, start, expected, new, by))


def said_name(name: str) -> str:
    """The name our words give a file: MEMORY.md and USER.md by their own names wherever the host keeps them
    (a Hermes home's ``memories/MEMORY.md`` is ``MEMORY.md``, as the doctor and the notebook's panes say it)."""
    base = base_name(name)
    return base if base in ENTRY_FILES else name


def _done_output(name: str, start: int, new: bytes, size: int, label: str, *, removed: int = 0) -> str:
    outcome = load_outcome(name, start=start, inserted=len(new), size=size, removed=removed)
    return f"ok ({label} → {said_name(name)}); {outcome}"


def _entry_locked(
    locked: LockedHome,
    name: str,
    line: int,
    expect: str,
    new_text: str | None,
    secrets: tuple[SecretSpan, ...] = (),
    *,
    files: FileMap = FLAT,
) -> SpliceResult:
    """Plan the entry change on the text under the lock, in the file's dialect, then splice its bytes."""
    text = locked.read_text(name)  # refuses what the tool refuses, not-UTF-8 included
    dialect = dialect_for(name, files.dialect, text)
    if isinstance(dialect, Rejection):
        return SpliceResult(dialect.message, is_error=True)
    limit = files.limits.get(base_name(name))
    plan = plan_entry(text, name, line, expect, new_text, dialect=dialect, limit=limit)
    if isinstance(plan, Rejection):
        return SpliceResult(plan.message, is_error=True)
    if not plan.changes:
        return SpliceResult(f"ok ({plan.label} → {said_name(name)}); it already reads so, nothing was written")
    assert text is not None
    start = len(text[: plan.start].encode("utf-8"))
    removed = text[plan.start : plan.end].encode("utf-8")
    shown = mask_text(expect, [(s.start, s.length) for s in secrets]) if secrets else expect
    key = "entry" if dialect is Dialect.SECTIONS else "line"  # a '§' entry is named by its number, not a line
    args: dict[str, object] = {key: line, "expect": shown}
    if new_text is not None:
        args["to"] = new_text
    at = start if plan.origin is None else len(text[: plan.origin].encode("utf-8"))
    action = EventAction.ENTRY_DELETE if new_text is None else EventAction.ENTRY_EDIT
    change = Change(action, args, secrets=_in_file(secrets, at))
    return _splice_locked(locked, name, start, removed, plan.inserted.encode("utf-8"), plan.label, True, change)


def _in_file(secrets: Sequence[SecretSpan], start: int) -> tuple[SecretSpan, ...]:
    """``secrets`` placed in the file: their offsets counted from its first byte, not the line's."""
    return tuple(replace(span, start=start + span.start, field=None) for span in secrets)


def _splice_problem(name: object, start: object, expected: object, new: object) -> str | None:
    if not is_home_path(name):
        return f"not a bootstrap file: {name!r} (a splice writes one of {', '.join(BOOTSTRAP_ORDER)})"
    if not isinstance(start, int) or isinstance(start, bool) or start < 0:
        return f"start must be a byte offset (a whole number from 0), got {start!r}"
    if not isinstance(expected, bytes | bytearray) or not isinstance(new, bytes | bytearray):
        return "expected and new must be bytes"
    return None
