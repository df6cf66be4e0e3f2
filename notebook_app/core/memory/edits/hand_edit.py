"""A person's edit of a whole bootstrap file, guarded by the text the editor started from.

An editor (the notebook's own, or ``$EDITOR`` on a copy) opens a file, and
the agent may write it meanwhile: whoever saves last must not win silently.
The save names its base (the text it started from, with that text's digest,
so a mixed-up base is caught), and under the home's lock the file now is
compared with it: unchanged, the edit is written as ONE splice of the changed
region (history and blame show what the person changed, not a whole-file
rewrite); changed, the three are merged line by line (:mod:`...text.merge`) and a
clean merge is written, a conflict writes nothing and is returned. The lock,
the crash safety, the refusals and the record are the splice's own: this
module only decides what to splice.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from notebook_app.core.home.files import FileStatus, read_file
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.names import BOOTSTRAP_ORDER, TOPIC_NAME_MAX, base_name, is_home_path
from notebook_app.core.home.refusals import Rejection, file_refusal, utf8_refusal
from notebook_app.core.hostbase.registry import host
from notebook_app.core.memory.edits.guarded_splice import (
    ENTRY_FILES,
    Splice,
    SpliceResult,
    _locked,
    _splice_locked,
    said_name,
)
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.log.event_action import EventAction
from notebook_app.core.record.log.events import Payload
from notebook_app.core.record.places import read_only_refusal
from notebook_app.core.record.recording import Change
from notebook_app.core.record.storage import LockedHome
from notebook_app.core.text.merge import Conflict, MergeResult, merge3, split_lines


def text_digest(text: str) -> str:
    """The digest a hand edit names its base by: sha256 of the text's UTF-8 bytes, in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class TooLarge(Rejection):
    """A file over the editor's cap: another editor (``$EDITOR``) can still open it."""


def read_for_edit(
    home: str | os.PathLike[str], name: str, *, max_bytes: int | None = None, files: FileMap = FLAT
) -> str | Rejection:
    """The text an editor starts from ("" when the file is absent), or why it cannot be edited, in the tool's words.

    Read through the one read path: links, FIFOs, devices and non-UTF-8
    bytes are refused as the tool refuses them. ``max_bytes``: a file larger
    than that is refused before its bytes are read (the built-in editor's cap).
    A file the home's host keeps read-only (``files``: Claude Code's CLAUDE.md chain) is refused before an editor
    opens on it, in the words its save would be refused with.
    """
    refused = read_only_refusal(files, name) or hand_edit_refusal(files, name, opening=True)
    if refused is not None:  # its save would be refused: no editor opens on it
        return Rejection(refused)
    path = Path(home) / name
    read = read_file(path, limit=0)
    if read.status is FileStatus.ABSENT:
        if not path.parent.is_dir():
            return Rejection(f"no such home: {path.parent}; nothing was opened")
        return Rejection(_no_topic(name, "nothing was opened")) if not is_home_path(name) else ""
    rejection = file_refusal(read)
    if rejection is not None:
        return rejection
    if max_bytes is not None and read.size > max_bytes:
        return TooLarge(f"{name} is {read.size:,} bytes, over the {max_bytes:,} this editor opens; nothing was opened")
    read = read_file(path, limit=read.size + 1)
    rejection = file_refusal(read)
    if rejection is not None:
        return rejection
    if not read.complete:
        return Rejection(f"{name} kept growing while it was read; nothing was written")
    if max_bytes is not None and read.size > max_bytes:
        return TooLarge(f"{name} is {read.size:,} bytes, over the {max_bytes:,} this editor opens; nothing was opened")
    rejection = utf8_refusal(name, read.data)
    if rejection is not None:
        return rejection
    return read.data.decode("utf-8")


def hand_edit_refusal(files: FileMap, name: object, *, opening: bool) -> str | None:
    """Why a hand edit may not write ``name`` in a home opened as ``files``; None when it may.

    One of the seven where the home keeps it; or, in a Claude Code memory folder, a topic file there
    (:meth:`...home.layout.FileMap.edits_whole`). Every other name is refused in words, before an editor opens
    (``opening``: "nothing was opened") and again at the save ("nothing was written"): OpenClaw's daily notes too.
    """
    if is_home_path(name) or files.edits_whole(name):
        return None
    nothing = "nothing was opened" if opening else "nothing was written"
    if isinstance(name, str) and files.reads_on_demand(name):
        if host(files.host).edits_topics:
            return (
                f"{name}: the notebook edits a topic file whose name starts with an ASCII letter or digit and holds "
                f"only those, '.', '-' and '_' (at most {TOPIC_NAME_MAX}); edit it in your own editor; {nothing}"
            )
        return (
            f"{name} is a note {files.host or 'its host'}'s agent reads on demand: the notebook edits the files its "
            f"host injects and Claude Code's topic files, not these notes; edit it in your own editor; {nothing}"
        )
    if opening and isinstance(name, str):
        return (
            f"{name} is not one of the files the notebook writes ({', '.join(BOOTSTRAP_ORDER)}): edit it in your "
            f"own editor; {nothing}"
        )
    return f"not a bootstrap file: {name!r} (a hand edit writes one of {', '.join(BOOTSTRAP_ORDER)})"


def _no_topic(name: str, nothing: str) -> str:
    """A topic file that is not there: the notebook edits Claude Code's topic files, it never makes one."""
    return (
        f"{name} is not there: the notebook edits the topic files Claude Code wrote and never makes one "
        f"(a adds a line to MEMORY.md); {nothing}"
    )


@dataclass(frozen=True)
class HandEditResult:
    """What a hand edit did, worded like the tool's results; never raised."""

    output: str
    is_error: bool = False
    conflicts: tuple[Conflict, ...] = ()
    """Where the edit and the other writer's text disagree; nothing was written when any."""
    text: str | None = None
    """The file's text after the edit (the edit, or the merge): what an editor shows next. None when refused."""
    current: str | None = None
    """The file's text as found under the lock (the other writer's version when it changed)."""
    merge: MergeResult | None = None
    """The merge when the file had changed since the base: its ``chunks`` drive a conflict view."""
    applied: Splice | None = None
    """The splice written; None when nothing was written."""
    unrecorded: str | None = None
    """Why the write is not in the home's history (``.notebook`` unusable); None when it is."""


def write_file(
    home: str | os.PathLike[str],
    name: str,
    new_text: str,
    *,
    base_text: str,
    base_digest: str,
    by: Actor,
    durable: bool = True,
    files: FileMap = FLAT,
) -> HandEditResult:
    """Write ``new_text`` as bootstrap file ``name``, an edit of ``base_text``; merged if the file changed since.

    ``base_text`` is what the editor started from ("" for a file that was
    absent) and ``base_digest`` its :func:`text_digest`. Only the seven
    bootstrap files directly in the home; links, non-regular files and
    non-UTF-8 files are refused in the tool's words; so is a file the home's host keeps read-only (``files``).
    """
    problem = read_only_refusal(files, name) or _problem(files, name, new_text, base_text, base_digest)
    if problem:
        return HandEditResult(problem, is_error=True)
    found = _Found()
    result = _locked(home, name, by, lambda locked: _write_locked(locked, name, new_text, base_text, found), durable)
    return HandEditResult(
        result.output,
        is_error=result.is_error,
        conflicts=found.merge.conflicts if found.merge is not None else (),
        text=None if result.is_error else found.text,
        current=found.current,
        merge=found.merge,
        applied=result.applied,
        unrecorded=result.unrecorded,
    )


def keep_typing(name: str, *, sent: str, written: str, now: str) -> str | None:
    """The editor's text after a save: ``written`` (what the save put in the file), with what was typed meanwhile kept.

    ``sent`` is the text the save took, ``now`` the buffer when the save came
    back; what was typed in between is ``now`` against ``sent``, and it is
    merged into ``written`` as a save merges (:func:`...text.merge.merge3`, the same
    end-of-file rule). None when that typing touches a place the merge changed:
    the buffer then stays as typed, still an edit of its old base, and the
    next save merges it (a conflict shows both sides). Pure: nothing written.
    """
    if now == sent:
        return written
    if written == sent:
        return now
    return merge3(sent, written, now, end_inserts_both=base_name(name) in ENTRY_FILES).text


@dataclass
class _Found:
    """What the write saw under the lock, for the result: the splice's own result carries only its output."""

    current: str | None = None
    merge: MergeResult | None = None
    text: str | None = None


def _write_locked(locked: LockedHome, name: str, new_text: str, base_text: str, found: _Found) -> SpliceResult:
    """Under the lock: compare the file with the base, merge if needed, splice the difference."""
    found_text = locked.read_text(name)  # refuses links, non-regular and non-UTF-8 files as the tool does
    if found_text is None and not is_home_path(name):  # a topic file removed since it was opened: never made again
        return SpliceResult(_no_topic(name, "it was removed since you opened it; nothing was written"), is_error=True)
    now = found_text or ""
    found.current = now
    target, action, label = new_text, EventAction.HAND_EDIT, "hand edit"
    if now != base_text:
        merge = merge3(base_text, now, new_text, end_inserts_both=base_name(name) in ENTRY_FILES)
        found.merge = merge
        if merge.text is None:
            return SpliceResult(_conflict_output(name, merge), is_error=True)
        target, action = merge.text, EventAction.MERGE
        count = merge.theirs_lines
        label = f"hand edit, merged with {count} line{'s' if count != 1 else ''} written since"
    found.text = target
    if target == now:
        return SpliceResult(f"ok ({label} → {said_name(name)}); nothing to write")
    start, removed, inserted = _changed_region(now, target)
    args = {"start": start, "expected": Payload.of(removed).to_json(), "new": Payload.of(inserted).to_json()}
    return _splice_locked(locked, name, start, removed, inserted, label, True, Change(action, args))


def _changed_region(old: str, new: str) -> tuple[int, bytes, bytes]:
    """The whole lines where ``old`` and ``new`` differ: (byte start, bytes removed, bytes inserted).

    Whole lines, not the shortest byte difference: "- from the agent" becoming
    "- from the person" plus the agent's line must not credit the person with
    half of the agent's line in blame. An insertion after the last line ending
    stays an append (the constant-time, journalled write).
    """
    old_lines, new_lines = split_lines(old), split_lines(new)
    limit = min(len(old_lines), len(new_lines))
    prefix = 0
    while prefix < limit and old_lines[prefix] == new_lines[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old_lines[-1 - suffix] == new_lines[-1 - suffix]:
        suffix += 1
    start = len("".join(old_lines[:prefix]).encode("utf-8"))
    removed = "".join(old_lines[prefix : len(old_lines) - suffix]).encode("utf-8")
    inserted = "".join(new_lines[prefix : len(new_lines) - suffix]).encode("utf-8")
    return start, removed, inserted


def _conflict_output(name: str, merge: MergeResult) -> str:
    conflicts = merge.conflicts
    where = ", ".join(_lines(conflict) for conflict in conflicts)
    places = "1 place" if len(conflicts) == 1 else f"{len(conflicts)} places"
    return (
        f"{name} changed since you opened it and your edit conflicts with it in {places} ({where}); nothing was written"
    )


def _lines(conflict: Conflict) -> str:
    count = len(conflict.theirs)
    if count <= 1:
        return f"line {conflict.line}"
    return f"lines {conflict.line}–{conflict.line + count - 1}"


def _problem(files: FileMap, name: object, new_text: object, base_text: object, base_digest: object) -> str | None:
    refused = hand_edit_refusal(files, name, opening=False)
    if refused is not None:
        return refused
    if not isinstance(new_text, str) or not isinstance(base_text, str):
        return "the new text and the base text must be strings"
    if not isinstance(base_digest, str) or text_digest(base_text) != base_digest:
        return (
            f"the base text of this edit of {name} does not match its digest: pass the text the editor "
            "started from and text_digest() of it; nothing was written"
        )
    return None
