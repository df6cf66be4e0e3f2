"""The guarded splice: the one write a person makes to a home, and entry edits on top of it.

Every human write (entry delete and edit now; hand edits, undo, restore and
approvals later) names the bytes it expects where it writes, so a write that
another writer beat to the place is refused and nothing changes. It holds the
home's lock like the memory tool, is crash-safe like it (temp file, fsync and
rename; or, for an append at the end of MEMORY.md or USER.md, the journalled
append), refuses the files the tool refuses in the same words, and names its
actor for the history. Like the tool it never raises: every outcome is a
:class:`SpliceResult`. The agent's memory tool is untouched by all of this.

The planning half (:func:`plan_entry`, the app's dry run) is pure: the write
path (:mod:`.storage`, the event log) loads with the first write, not with it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .actions import load_outcome
from .actor import Actor
from .files import FileStatus
from .hidden import hidden_kind
from .home import BOOTSTRAP_ORDER, home_path
from .reading import ENTRY_FILES
from .refusals import Rejection

if TYPE_CHECKING:
    from .recording import Change
    from .storage import LockedHome


@dataclass(frozen=True)
class Splice:
    """One byte-exact change of a bootstrap file: at ``start``, ``removed`` went and ``inserted`` came."""

    name: str
    start: int
    removed: bytes
    inserted: bytes
    by: Actor


@dataclass(frozen=True)
class SpliceResult:
    """What a human write did, worded like the tool's ``ToolResult``."""

    output: str
    is_error: bool = False
    applied: Splice | None = None
    """The change as written; None when nothing was written."""
    unrecorded: str | None = field(default=None, compare=False)
    """Why the write is not in the home's history (``.notebook`` unusable); None when it is."""


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
    action: str = "hand-edit",
) -> SpliceResult:
    """Put ``new`` in place of the bytes ``expected`` at byte ``start`` of bootstrap file ``name``.

    Refused, with nothing changed, when those bytes are not exactly
    ``expected`` now. An absent file is created by a splice at 0 that expects
    nothing. The splice is byte-exact and does not judge UTF-8 (undo must be
    able to put back any bytes); entry edits do. ``label`` names the change in
    the output (``ok (<label> → <name>); loads next session``); ``action`` names
    it in the history (a write the core's closed set of actions knows).
    """
    problem = _splice_problem(name, start, expected, new)
    if problem:
        return SpliceResult(problem, is_error=True)
    from .events import Payload
    from .recording import Change

    label = label or f"splice bytes {start}–{start + len(expected)}"
    args = {"start": start, "expected": Payload.of(bytes(expected)).to_json(), "new": Payload.of(bytes(new)).to_json()}
    change = Change(action, args)
    return _locked(home, name, by, lambda locked: _splice_locked(locked, name, start, bytes(expected), bytes(new), label, False, change), durable)


def delete_entry(
    home: str | os.PathLike[str], name: str, line: int, expect: str, *, by: Actor, durable: bool = True
) -> SpliceResult:
    """Delete line ``line`` (1-based) of MEMORY.md or USER.md, its line ending included.

    ``expect`` is the line's exact text without its line ending; if the line
    is not that now, nothing changes and the output says what is there.
    """
    problem = _entry_problem(name, line, expect)
    if problem:
        return SpliceResult(problem, is_error=True)
    return _locked(home, name, by, lambda locked: _entry_locked(locked, name, line, expect, None), durable)


def edit_entry(
    home: str | os.PathLike[str], name: str, line: int, expect: str, new_text: str, *, by: Actor, durable: bool = True
) -> SpliceResult:
    """Replace the text of line ``line`` of MEMORY.md or USER.md in place, keeping its line ending.

    Guarded like :func:`delete_entry`. ``new_text`` is one line: a line break
    in it is refused, and so is an empty text (deleting is :func:`delete_entry`).
    """
    problem = _entry_problem(name, line, expect) or _new_text_problem(new_text, line)
    if problem:
        return SpliceResult(problem, is_error=True)
    return _locked(home, name, by, lambda locked: _entry_locked(locked, name, line, expect, new_text), durable)


def _locked(
    home: str | os.PathLike[str], name: str, by: Actor, write: Callable[[LockedHome], SpliceResult], durable: bool
) -> SpliceResult:
    """Run ``write`` under the home's lock as ``by``; every failure becomes a result."""
    from .storage import StorageError, locked_home

    root = home_path(home)
    if not root.is_dir():
        return SpliceResult(f"no such home: {root}; nothing was changed", is_error=True)
    try:
        with locked_home(root, create=False, durable=durable, by=by) as locked:
            result = write(locked)
            return replace(result, unrecorded=locked.unrecorded) if result.applied else result
    except StorageError as error:
        return SpliceResult(str(error), is_error=True)
    except OSError as error:
        where = f": {error.filename}" if error.filename else ""
        return SpliceResult(f"could not write {name} ({error.strerror or error}{where}); nothing was changed", is_error=True)


def _splice_locked(
    locked: LockedHome, name: str, start: int, expected: bytes, new: bytes, label: str, text: bool, change: Change
) -> SpliceResult:
    """The splice itself, the lock held; ``text``: the result is known to be UTF-8."""
    by = locked.recorder.by
    if name in ENTRY_FILES and not expected and new:
        end = locked.probe(name)
        if end.status is FileStatus.REGULAR and start == end.size:  # an append: constant time, journalled
            output = _done_output(name, start, new, end.size + len(new), label)
            locked.append(name, new, validated=text, change=replace(change, output=output))
            return SpliceResult(output, applied=Splice(name, start, b"", new, by))
    read = locked.read_whole(name)
    data = read.data
    now = data[start : start + len(expected)]
    if read.status is FileStatus.ABSENT and (start or expected):
        return SpliceResult(f"{name} changed since you selected it: it is absent now; nothing was changed", is_error=True)
    if start > len(data) or now != expected:
        what = (
            f"the file is {len(data):,} bytes now" if start + len(expected) > len(data) else f"they read {_quote(now.decode('utf-8', 'replace'))} now"
        )
        return SpliceResult(
            f"{name} changed since you selected it: bytes {start}–{start + len(expected)} are not what you expected "
            f"({what}); nothing was changed",
            is_error=True,
        )
    if not expected and not new:
        return SpliceResult(f"ok ({label} → {name}); nothing to change")
    after = data[:start] + new + data[start + len(expected) :]
    output = _done_output(name, start, new, len(after), label)
    locked.rewrite(name, after, validated=text, change=replace(change, output=output), edit=(start, expected, new))
    return SpliceResult(output, applied=Splice(name, start, expected, new, by))


def _done_output(name: str, start: int, new: bytes, size: int, label: str) -> str:
    outcome = load_outcome(name, start=start, inserted=len(new), size=size)
    return f"ok ({label} → {name}); {outcome}"


@dataclass(frozen=True)
class EntryPlan:
    """What an entry delete or edit does to a file's text, in characters: the dry run and the write share it."""

    name: str
    line: int
    start: int
    end: int
    """``text[start:end]`` goes: the line with its ending (delete) or its text (edit)."""
    inserted: str
    label: str
    """``delete line 3`` / ``edit line 3``."""

    @property
    def changes(self) -> bool:
        return self.end > self.start or bool(self.inserted)

    def apply(self, text: str) -> str:
        return text[: self.start] + self.inserted + text[self.end :]


def plan_entry(text: str | None, name: str, line: int, expect: str, new_text: str | None) -> EntryPlan | Rejection:
    """Where line ``line`` of ``text`` is and what replaces it; refused unless it reads ``expect``.

    ``new_text`` None deletes the line and its ending; otherwise its text is
    replaced and its ending kept. Pure: the app's dry run calls it on the text
    it shows, :func:`delete_entry` and :func:`edit_entry` on the text under the lock.
    """
    problem = _entry_problem(name, line, expect) or (None if new_text is None else _new_text_problem(new_text, line))
    if problem:
        return Rejection(problem)
    if text is None:
        return Rejection(f"line {line} of {name} changed since you selected it: {name} is absent now; nothing was changed")
    span = _line_span(text, line)
    if span is None:
        count = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
        return Rejection(
            f"line {line} of {name} changed since you selected it: it was {_quote(expect)}, and {name} has "
            f"{count} line{'s' if count != 1 else ''} now; nothing was changed"
        )
    start, text_end, line_end = span
    now = text[start:text_end]
    if now != expect:
        return Rejection(
            f"line {line} of {name} changed since you selected it: it was {_quote(expect)}, it reads {_quote(now)} now; "
            "nothing was changed"
        )
    if new_text is None:
        return EntryPlan(name, line, start, line_end, "", f"delete line {line}")
    if new_text == now:
        return EntryPlan(name, line, start, start, "", f"edit line {line}")
    return EntryPlan(name, line, start, text_end, new_text, f"edit line {line}")


def _entry_locked(locked: LockedHome, name: str, line: int, expect: str, new_text: str | None) -> SpliceResult:
    """Plan the entry change on the text under the lock, then splice its bytes."""
    from .recording import Change

    text = locked.read_text(name)  # refuses what the tool refuses, not-UTF-8 included
    plan = plan_entry(text, name, line, expect, new_text)
    if isinstance(plan, Rejection):
        return SpliceResult(plan.message, is_error=True)
    if not plan.changes:
        return SpliceResult(f"ok ({plan.label} → {name}); it already reads so, nothing was written")
    assert text is not None
    start = len(text[: plan.start].encode("utf-8"))
    removed = text[plan.start : plan.end].encode("utf-8")
    args = {"line": line, "expect": expect} if new_text is None else {"line": line, "expect": expect, "to": new_text}
    change = Change("entry-delete" if new_text is None else "entry-edit", args)
    return _splice_locked(locked, name, start, removed, plan.inserted.encode("utf-8"), plan.label, True, change)


def _line_span(text: str, line: int) -> tuple[int, int, int] | None:
    """Where line ``line`` starts, where its text ends and where its line ending ends; None if no such line.

    Lines end at ``\n`` only (a ``\r`` before it belongs to the ending), as
    the notebook numbers them; never ``str.splitlines``, which splits on more.
    """
    start = 0
    for _ in range(line - 1):
        newline = text.find("\n", start)
        if newline < 0:
            return None
        start = newline + 1
    if start >= len(text):
        return None  # past the last line (a final newline starts no line)
    newline = text.find("\n", start)
    if newline < 0:
        return start, len(text), len(text)
    text_end = newline - 1 if newline > start and text[newline - 1] == "\r" else newline
    return start, text_end, newline + 1


def _splice_problem(name: object, start: object, expected: object, new: object) -> str | None:
    if name not in BOOTSTRAP_ORDER:
        return f"not a bootstrap file: {name!r} (a splice writes one of {', '.join(BOOTSTRAP_ORDER)})"
    if not isinstance(start, int) or isinstance(start, bool) or start < 0:
        return f"start must be a byte offset (a whole number from 0), got {start!r}"
    if not isinstance(expected, bytes | bytearray) or not isinstance(new, bytes | bytearray):
        return "expected and new must be bytes"
    return None


def _entry_problem(name: object, line: object, expect: object) -> str | None:
    if name not in ENTRY_FILES:
        return f"no entries in {name!r}: entry edits work on {' and '.join(ENTRY_FILES)}"
    if not isinstance(line, int) or isinstance(line, bool) or line < 1:
        return f"line must be a line number from 1, got {line!r}"
    if not isinstance(expect, str):
        return "expect must be the line's text"
    if "\n" in expect:
        return "expect is one line's text, without its line ending; it holds a line break"
    return None


def _new_text_problem(new_text: object, line: int) -> str | None:
    if not isinstance(new_text, str):
        return "the new text must be a string"
    if "\n" in new_text or "\r" in new_text:
        return f"the new text holds a line break; line {line} stays one line, nothing was changed"
    if not new_text.strip():
        return f"the new text is empty or only whitespace; to remove line {line}, delete the entry instead (nothing was changed)"
    return None


def _quote(text: str, limit: int = 80) -> str:
    """``text`` in double quotes for a message: cut when long, hidden characters escaped."""
    shown = text if len(text) <= limit else text[:limit] + "…"
    return '"' + "".join(_escaped(char) for char in shown) + '"'


def _escaped(char: str) -> str:
    if hidden_kind(char) is None:
        return char
    return {"\t": "\\t", "\r": "\\r"}.get(char) or (f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}")
