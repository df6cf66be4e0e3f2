"""What the notebook shows, computed in workers: UI-free, no Textual here.

Every rule comes from :mod:`notebook_app.core`: the session and its diff, the
memory tool for writes, ``parse_request`` and ``plan_edit`` (the two halves
of ``preview``) and ``Composition.with_text`` for the dry run. This module
only reads the live files for their panes and turns souls and files into
documents of lines with marks that the views draw.
"""

from __future__ import annotations

import codecs
import hashlib
import threading
from concurrent.futures import Future
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from ..core import (
    BOOTSTRAP_ORDER,
    MAX_FILE_BYTES,
    Composition,
    Edit,
    Rejection,
    Session,
    Snapshot,
    SoulDiff,
    ToolResult,
    diff_compositions,
    memory_tool,
    parse_request,
    plan_edit,
)
from ..core.files import FileRead, FileStatus, read_file
from ..core.hidden import has_hidden, with_markers
from .session_counter import SessionCounter

Side = Literal["current", "next"]


@dataclass(frozen=True)
class Document:
    """Lines to show, how some are marked, and banner rows after some lines."""

    lines: Sequence[str] = field(repr=False)
    marks: Mapping[int, str] = field(default_factory=dict, repr=False)
    """Line index -> one of heading, added, removed, notice."""
    banners: Mapping[int, str] = field(default_factory=dict)
    source: Sequence[str] | None = field(default=None, repr=False)
    """The text's own lines, when hidden characters drawn as markers made ``lines`` differ."""

    def text_of(self, index: int) -> str:
        return (self.source if self.source is not None else self.lines)[index]


EMPTY = Document(())


def lines_of(document: Document) -> tuple[Sequence[str], Sequence[str] | None]:
    """A document's lines and source, to build another document of the same text without splitting it again."""
    return document.lines, document.source


READ_LIMIT = MAX_FILE_BYTES + 256 * 1024
"""Bytes of a file the notebook reads to show it: the cap and a margin, never a 200 MB file."""


@dataclass(frozen=True)
class LiveFile:
    """A bootstrap file as it is on disk now, for its pane: whatever it is, never absent."""

    read: FileRead = field(repr=False)
    digest: str
    """Of its status, size and the bytes read: how the watcher tells our own writes apart."""
    text: str = field(repr=False)
    """What was read, decoded (bad bytes as U+FFFD); empty when the file does not load."""
    document: Document = field(repr=False)
    cut_line: int | None
    """The line holding the last byte a session loads, when the file is over the cap."""

    @property
    def name(self) -> str:
        return self.read.name

    @property
    def status(self) -> FileStatus:
        return self.read.status

    @property
    def size(self) -> int:
        return self.read.size

    @property
    def loads(self) -> bool:
        return self.read.status.loads

    @property
    def dropped_bytes(self) -> int:
        return max(0, self.size - MAX_FILE_BYTES)

    @property
    def unshown_bytes(self) -> int:
        """Bytes past what the notebook read (files larger than :data:`READ_LIMIT`)."""
        return max(0, self.size - len(self.read.data))

    @property
    def share(self) -> float:
        """Size as a fraction of the bootstrap cap."""
        return self.size / MAX_FILE_BYTES


@dataclass(frozen=True)
class HomeState:
    """One consistent picture of the home: files, both sessions and their gap."""

    seq: int
    files: Mapping[str, LiveFile]
    current: Snapshot
    preview: Snapshot
    diff: SoulDiff
    current_doc: Document
    next_doc: Document


@dataclass(frozen=True)
class DryRun:
    """A pending action's effect, before it is applied."""

    args: Mapping[str, object]
    seq: int
    """The :class:`HomeState` it was computed against."""
    outcome: Edit | Rejection
    diff: SoulDiff | None = None
    current_doc: Document | None = None
    next_doc: Document | None = None
    edit_line: int | None = None
    """The target file's line where the edit starts."""


def fingerprint(read: FileRead) -> str:
    """One string that changes when what the notebook shows of a file changes."""
    digest = hashlib.sha256(read.data).hexdigest() if read.status.loads else ""
    return f"{read.status.name}:{read.size}:{read.link_target}:{digest}"


def split_for_display(text: str) -> tuple[list[str], list[str] | None]:
    """Lines to draw (hidden characters as markers) and, when they differ, the text's own lines."""
    shown = with_markers(text)
    return shown.split("\n"), (text.split("\n") if shown is not text else None)


def file_document(text: str, banners: Mapping[int, str] | None = None) -> Document:
    """A live file's lines, headings marked, banners after some lines."""
    lines, source = split_for_display(text)
    if len(lines) > 1 and not lines[-1]:
        lines.pop()  # the final newline ends the last line; it is not a line of its own
        if source is not None:
            source.pop()
    marks = {index: "heading" for index, line in enumerate(lines) if line.startswith("#")}
    return Document(lines, marks, dict(banners or {}), source)


def read_live_file(path: Path, previous: LiveFile | None = None) -> LiveFile | None:
    """The file as it is now, read through the core's one read path; None when absent.

    At most :data:`READ_LIMIT` bytes are read; a FIFO, a device or a link loop
    is named, never opened for reading. Unchanged files reuse ``previous``.
    """
    read = read_file(path, limit=READ_LIMIT)
    if read.status is FileStatus.ABSENT:
        return None
    digest = fingerprint(read)
    if previous is not None and previous.digest == digest:
        return previous
    if not read.status.loads:
        return LiveFile(read, digest, "", EMPTY, None)
    data = read.data
    text = codecs.getincrementaldecoder("utf-8")("replace").decode(data, final=read.complete)
    banners: dict[int, str] = {}
    cut_line = None
    if read.size > MAX_FILE_BYTES:
        cut_line = data.count(b"\n", 0, MAX_FILE_BYTES - 1)
        where = "inside this line" if data[MAX_FILE_BYTES - 1] != ord("\n") else "after this line"
        dropped = read.size - MAX_FILE_BYTES
        banners[cut_line] = f"✂ 2 MiB cap: the next session stops {where}; it does not see the {dropped:,} bytes below"
    if not read.complete:
        last = text.count("\n") - (1 if text.endswith("\n") else 0)
        unshown = read.size - len(data)
        banners[last] = f"⋯ {unshown:,} more bytes not shown: the notebook reads the first {len(data):,}"
    return LiveFile(read, digest, text, file_document(text, banners), cut_line)


def soul_document(
    composition: Composition, diff: SoulDiff, side: Side, lines: tuple[Sequence[str], Sequence[str] | None] | None = None
) -> Document:
    """A soul's lines with each file's heading marked and, on ``side``, its diff.

    Pass ``lines`` (the lines and source of an earlier document of the same
    soul) to share them: a view then only re-marks its rows instead of
    wrapping them again.
    """
    soul = composition.soul
    if lines is not None:
        lines, source = lines
    elif soul:
        lines, source = split_for_display(soul)
    else:
        lines, source = [], None
    marks: dict[int, str] = {}
    offset = 0
    for bootstrap in composition.files:
        marks[offset] = "heading"
        body_lines = bootstrap.body.count("\n") + 1
        if bootstrap.truncated:
            marks[offset + 1 + body_lines] = "notice"
        file_diff = diff.file(bootstrap.name)
        if file_diff is not None:
            kind = "removed" if side == "current" else "added"
            changed = file_diff.removed if side == "current" else file_diff.added
            if file_diff.status == ("removed" if side == "current" else "added"):
                marks[offset] = kind
            for index, _ in changed:
                marks[offset + 2 + index] = kind
        offset += 2 + body_lines + 1
    return Document(lines, marks, source=source)


class Notebook:
    """The app's hold on one home: its session, the tool, the last state read.

    Every method does file I/O and runs in a worker thread; a lock keeps the
    session and the state sequence consistent between workers.
    """

    def __init__(self, home: Path, counter: SessionCounter | None = None) -> None:
        self.home = home
        self.counter = counter if counter is not None else SessionCounter(home)
        self.tool = memory_tool(home)
        self._lock = threading.Lock()
        self._session: Session | None = None
        self._seq = 0
        self._last: HomeState | None = None
        self._digests: dict[str, str | None] = {}
        self._first: Future[HomeState] | None = None

    def start_reading(self) -> None:
        """Read the home in a thread now, before the UI exists, so loading Textual overlaps it.

        The next :meth:`refresh` (or :meth:`take_first_state`) hands over that
        state instead of reading again.
        """
        first: Future[HomeState] = Future()
        self._first = first

        def read() -> None:
            try:
                first.set_result(self._locked_read())
            except BaseException as error:  # handed to whoever takes the state
                first.set_exception(error)

        threading.Thread(target=read, name="notebook-first-read", daemon=True).start()

    def take_first_state(self) -> HomeState | None:
        """The state :meth:`start_reading` read, when it is ready; never waits."""
        first = self._first
        if first is None or not first.done() or first.exception() is not None:
            return None
        self._first = None
        return first.result()

    def known_digest(self, name: str) -> str | None:
        """The digest of ``name`` as last read or written by this notebook (None: absent)."""
        return self._digests.get(name)

    def refresh(self) -> HomeState:
        """Read the home now; the first call starts session 1."""
        first, self._first = self._first, None
        if first is not None:
            return first.result()
        return self._locked_read()

    def _locked_read(self) -> HomeState:
        with self._lock:
            return self._read_state()

    def advance(self) -> HomeState:
        """Start the next session: what is on disk now becomes the frozen snapshot."""
        with self._lock:
            if self._session is None:
                return self._read_state()
            number = self.counter.claim(at_least=self._session.current.number)
            self._session.advance(replace(self._session.preview(), number=number))
            return self._read_state()

    def write(self, args: Mapping[str, object]) -> tuple[ToolResult, HomeState]:
        """Apply one action through the memory tool, then read the home again."""
        with self._lock:
            result = self.tool.call(dict(args))
            return result, self._read_state()  # records the written file's digest as ours

    def _read_state(self) -> HomeState:
        if self._session is None:
            self._session = Session(self.home, number=self.counter.claim())
        session = self._session
        live = {}
        for name in BOOTSTRAP_ORDER:
            found = read_live_file(self.home / name, self._last.files.get(name) if self._last else None)
            if found is not None:
                live[name] = found
        self._digests = {name: (live[name].digest if name in live else None) for name in BOOTSTRAP_ORDER}
        next_snapshot = session.preview()
        diff = session.diff(next_snapshot)
        last = self._last
        same_current = last is not None and last.current is session.current and last.diff == diff
        same_next = same_current and last is not None and last.preview.soul == next_snapshot.soul
        self._seq += 1
        state = HomeState(
            seq=self._seq,
            files=live,
            current=session.current,
            preview=next_snapshot,
            diff=diff,
            current_doc=last.current_doc if same_current and last else self._current_doc(session.current, diff),
            next_doc=last.next_doc if same_next and last else soul_document(next_snapshot.composition, diff, "next"),
        )
        self._last = state
        return state

    def _current_doc(self, current: Snapshot, diff: SoulDiff) -> Document:
        last = self._last
        lines = lines_of(last.current_doc) if last is not None and last.current is current else None
        return soul_document(current.composition, diff, "current", lines)


def dry_run(state: HomeState, args: Mapping[str, object]) -> DryRun:
    """What ``args`` would do, shown as the next session it would lead to."""
    request = parse_request(dict(args))
    if isinstance(request, Rejection):
        return DryRun(args, state.seq, request)
    live = state.files.get(request.filename)
    current_text = live.text if live is not None else None
    outcome = plan_edit(request, current_text)
    if isinstance(outcome, Rejection):
        return DryRun(args, state.seq, outcome)
    before = current_text or ""
    composition = state.preview.composition.with_text(outcome.request.filename, outcome.apply(before))
    diff = diff_compositions(state.current.composition, composition)
    edit_line = before.count("\n", 0, outcome.start)
    return DryRun(
        args,
        state.seq,
        outcome,
        diff=diff,
        current_doc=soul_document(state.current.composition, diff, "current", lines_of(state.current_doc)),
        next_doc=soul_document(composition, diff, "next", edited_soul_lines(state, composition, outcome.request.filename, edit_line)),
        edit_line=edit_line,
    )


def edited_soul_lines(
    state: HomeState, composition: Composition, filename: str, edit_line: int
) -> tuple[list[str], None] | None:
    """The lines of ``composition``'s soul, split anew only from the edited line on.

    A keystroke in the form must not re-scan and re-split a 2 MiB soul: the
    lines before the edit are the preview's. Which line that is comes from
    the soul's layout (as in :func:`soul_document`); the shared prefix is then
    checked character for character, and None (split it all) is returned
    when it does not hold, or when hidden characters need the source kept.
    """
    if state.next_doc.source is not None:
        return None
    old_lines, old_soul, new_soul = state.next_doc.lines, state.preview.soul, composition.soul
    offset = 0
    for bootstrap in state.preview.composition.files:
        if bootstrap.name == filename:
            break
        offset += 2 + bootstrap.body.count("\n") + 1
    else:
        return None
    keep = min(offset + 2 + edit_line, len(old_lines) - 1)
    if keep <= 0:
        return None
    chars = sum(map(len, old_lines[:keep])) + keep
    if old_soul[:chars] != new_soul[:chars]:
        return None
    rest = new_soul[chars:]
    if has_hidden(rest):
        return None
    return [*old_lines[:keep], *rest.split("\n")], None
