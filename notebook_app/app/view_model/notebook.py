"""The notebook's hold on one home: its session, its writes, the state it last read. No Textual.

Every method does file I/O and runs in a worker thread. The pure pieces it
builds on are elsewhere: documents (:mod:`.documents`), live files
(:mod:`.live_files`), the dry run (:mod:`.dry_run`).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.app.view_model.comparison import Comparison, compare
from notebook_app.app.view_model.live_files import LiveFile, read_live_file
from notebook_app.app.view_model.session_counter import SessionCounter
from notebook_app.core.fs.home_pin import moved, pin_home, write_refusal
from notebook_app.core.home.layout import FLAT, Dialect, FileMap, on_demand_files
from notebook_app.core.home.reading import ENTRY_FILES
from notebook_app.core.home.remembered import remember_host
from notebook_app.core.home.soul import BOOTSTRAP_ORDER, MAX_FILE_BYTES, Composition
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.memory.dialect import dialect_for
from notebook_app.core.record.log.actor import NOTEBOOK
from notebook_app.core.sessions.snapshot import Session, Snapshot
from notebook_app.core.tidy.model import archive_for

if TYPE_CHECKING:
    from notebook_app.core.doctor.check import Doctor, DoctorReport
    from notebook_app.core.hosts.opening.previews import Previews
    from notebook_app.core.hosts.profile import HostProfile
    from notebook_app.core.hosts.standing import Standing
    from notebook_app.core.memory.edits.hand_edit import HandEditResult
    from notebook_app.core.memory.results import SpliceResult, ToolResult
    from notebook_app.core.memory.tool import MemoryTool
    from notebook_app.core.tidy.model import Proposal

ENTRY_ACTIONS = ("edit-entry", "delete-entry")
"""The form's two human-only actions: guarded entry edits, never the agent's tool."""


@dataclass(frozen=True)
class HomeState:
    """One consistent picture of the home: files, both sessions and their gap."""

    seq: int
    files: Mapping[str, LiveFile]
    current: Snapshot
    preview: Snapshot
    """What a session starting now would load, as the chosen host loads it."""
    comparison: Comparison
    """The frozen snapshot against the preview: what the session panes show."""
    refusal: str | None = None
    """What every write would be refused with now (a read-only or moved home), in the core's words: the dry run says it.
    """
    layout: FileMap = FLAT
    """Where the home's host keeps its files, and their entry dialect."""
    sections: frozenset[str] = frozenset()
    """The entry files whose entries are Hermes's ``§`` entries (by the host, or by their content)."""
    on_demand: tuple[str, ...] = ()
    """The files the host's agent reads on demand that are there, newest first (:func:`...core.home.on_demand_files`);
    each is in :attr:`files` too."""
    archive: str | None = None
    """Tidy's archive when it is there and not already a file the host reads on demand: a file the host does
    not load (:func:`...core.tidy.archive_for`)."""
    on_demand_total: int = 0
    """How many there are, :attr:`on_demand` being at most the first 50."""


NOTICE_TITLE = 48
"""The longest head of the opening's reason the notice takes as its title; a longer one stays in the body."""


def opening_notice(words: tuple[str, ...]) -> tuple[str, str]:
    """The notice said once at start: ``opened as Hermes`` as the title, the reason's rest and the notes below it.

    The reason's head before its first ``: `` becomes the title, so the notice is a line shorter and its first
    words say the host; a head too long for a title (a Hermes home found from its ``memories/``) stays whole.
    """
    reason, *notes = words
    head, colon, rest = reason.partition(": ")
    if colon and len(head) <= NOTICE_TITLE:
        return head, "\n".join((rest, *notes))
    return "opened", "\n".join(words)


class Notebook:
    """The app's hold on one home: its session, the tool, the last state read.

    Every method does file I/O and runs in a worker thread; a lock keeps the
    session and the state sequence consistent between workers.
    """

    def __init__(
        self,
        home: Path,
        counter: SessionCounter | None = None,
        files: FileMap = FLAT,
        *,
        opened_as: str | None = None,
        opening_words: tuple[str, ...] = (),
        host_root: Path | None = None,
    ) -> None:
        self.home = home
        self.host_root = host_root if host_root is not None else home
        """The folder its host works in (:attr:`...core.hosts.Opening.root`): a Claude Code project's root, whose
        CLAUDE.md chain ``L`` loads, where :attr:`home` is its auto-memory folder; the home itself for every other."""
        self.files = files
        """Where the host keeps the home's files (a Hermes home's entry files are in ``memories/``)."""
        self.opened_as = opened_as or (
            files.host if files.host is not None and not registered(files.host).fallback else None
        )
        """The host the home opened as (``NAME[@VERSION]``), Current and Next shown as it loads them; None: the
        contract's home."""
        self.standing: Standing | None = None
        """Where the host it opened as stands on this machine, once found (its installed release, the rules shown for
        it); the doctor says an installed release no golden proves. None: not found yet, or not installed."""
        self.opening_words = opening_words
        """Why it opened as that host and what was read on the way, in words: said once when the app opens."""
        pin_home(home)  # opened: a write after the home was moved or removed is refused, never made again here
        self.counter = counter if counter is not None else SessionCounter(home)
        self._tool: MemoryTool | None = None
        self._lock = threading.Lock()
        self._session: Session | None = None
        self._seq = 0
        self._last: HomeState | None = None
        self._digests: dict[str, str | None] = {}
        self._first: Future[HomeState] | None = None
        self.host: HostProfile | None = None
        """The host whose loading Current and Next show; None: the contract."""
        self._current_as: tuple[Snapshot, HostProfile | None, Composition] | None = None
        self._doctor: Doctor | None = None
        self._previews: Previews | None = None

    @property
    def tool(self) -> MemoryTool:
        """The agent's memory tool on this home, as the notebook; made (and the
        write path loaded) by the first write.
        """
        if self._tool is None:
            from notebook_app.core.memory.tool import memory_tool  # lazy: the write path

            self._tool = memory_tool(self.home, by=NOTEBOOK, files=self.files)
        return self._tool

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

    def use_host(self, host: HostProfile | None) -> HomeState:
        """Show Current and Next as ``host`` loads them (None: the contract); read again."""
        with self._lock:
            self.host = None if host is None or host.is_contract else host
            return self._read_state()

    @property
    def previews(self) -> Previews:
        """The hosts this home may be previewed as (the palette's ``Load as: …``), read once: a toolnexus home's
        without looking at its layout, a host's from the layout of its folder (a few stats and its config)."""
        if self._previews is None:
            from notebook_app.core.hosts.opening.previews import previews_of  # lazy: a host's loader

            self._previews = previews_of(self.home, self.files.host)
        return self._previews

    def remember_host(self, spec: str) -> str | None:
        """Keep ``NAME[@VERSION]`` as the host this folder opens as, in the user's state (never in the home);
        None, or why it could not be kept."""

        name, _, version = spec.partition("@")
        return remember_host(self.host_root, name, version or None)  # keyed as open_home reads it: the project root

    def check(self) -> DoctorReport:
        """The doctor on the home as it is now, for the host in view; cached per file digest.

        Its files are read where the home keeps them and in their own dialect
        (:attr:`files`, the host the home was opened as), whichever host is in view.
        """
        if self._doctor is None:
            from notebook_app.core.doctor.check import Doctor  # lazy: the doctor

            self._doctor = Doctor(remember=True)
        return self._doctor.check(
            self.home, host=self.host, files=self.files, folder=self.host_root, standing=self.standing
        )

    def tidy(self) -> Proposal:
        """Tidy's proposal for the entry files as the host in view loads them (reads them all: run it in a worker)."""
        from notebook_app.core.tidy.propose import tidy  # lazy: tidy

        return tidy(self.home, self.files, self.host)

    def apply_tidy(self, ids: tuple[str, ...]):
        """Apply the accepted hunks of these ids as one recorded write (recomputed under the lock: a stale id
        is refused by name and nothing is written)."""
        from notebook_app.core.tidy.apply import apply_tidy  # lazy: tidy

        with self._lock:
            return apply_tidy(self.home, ids, files=self.files, profile=self.host, by=NOTEBOOK)

    def tidy_preview(self, proposal: Proposal, ids: frozenset[str]) -> Comparison | str:
        """The next session now against the one after the hunks ``ids`` (the apply's own cut, read without the
        lock); or why it cannot be shown, in words. Reads the home: run it in a worker."""
        from notebook_app.core.tidy.apply import tidied_texts  # lazy: tidy

        texts = tidied_texts(self.home, proposal, ids, files=self.files)
        if isinstance(texts, str):
            return texts
        upcoming = (self._session or Session(self.home, files=self.files)).preview(self.host).composition
        after = upcoming
        for name, data in texts.items():
            try:
                after = after.with_text(name, data.decode("utf-8"), path=self.files.relative(name))
            except UnicodeDecodeError:
                return f"{name} is not valid UTF-8: its preview cannot be shown (the apply reads its bytes as they are)"
        return compare(upcoming, after)

    def health(self) -> tuple[DoctorReport, int]:
        """The doctor's report and how many agent proposals wait for review: the health line's two facts."""
        from notebook_app.core.memory.review.decisions import pending_count  # lazy: the write path

        return self.check(), pending_count(self.home)

    def _current_composition(self, current: Snapshot) -> Composition:
        """The frozen snapshot as the host in view would have loaded it (computed once per snapshot and host)."""
        if self.host is None:
            return current.composition
        cached = self._current_as
        if cached is None or cached[0] is not current or cached[1] is not self.host:
            from notebook_app.core.hosts.loader import as_host  # lazy: a host's loader

            cached = (current, self.host, as_host(current.composition, self.host, home=self.home))
            self._current_as = cached
        return cached[2]

    def write(self, args: Mapping[str, object]) -> tuple[ToolResult | SpliceResult, HomeState]:
        """Apply one action (the memory tool's, or an entry edit as the notebook), then read the home again."""
        with self._lock:
            if args.get("action") in ENTRY_ACTIONS:
                result: ToolResult | SpliceResult = write_entry(self.home, args, self.files)
            else:
                result = self.tool.call(dict(args))
            return result, self._read_state()  # records the written file's digest as ours

    def hand_edit(self, name: str, text: str, base: str) -> tuple[HandEditResult, HomeState]:
        """Write ``text`` as ``name``, an edit of ``base``, through the guarded hand edit; then read the home again."""
        from notebook_app.core.memory.edits.hand_edit import text_digest, write_file  # lazy: the write path

        with self._lock:
            result = write_file(
                self.home,
                self.files.relative(name),
                text,
                base_text=base,
                base_digest=text_digest(base),
                by=NOTEBOOK,
                files=self.files,
            )
            return result, self._read_state()  # records the written file's digest as ours

    def _read_state(self) -> HomeState:
        gone = moved(self.home) if self._last is not None else None
        if (
            self._last is not None and gone is not None
        ):  # what is at the path is not the home opened: keep showing that one
            if self._last.refusal != gone:  # once: the dry run says every write is refused
                self._seq += 1
                self._last = replace(self._last, seq=self._seq, refusal=gone)
            return self._last
        if self._session is None:
            self._session = Session(self.home, number=self.counter.claim(), files=self.files)
        session = self._session
        live = {}
        demand, demand_total = on_demand_files(self.home, self.files) if self.files.on_demand else ((), 0)
        archive = archive_for(self.files.host)  # tidy's: listed, never loaded (spec §9)
        names = (*self.files.host_files, *dict.fromkeys((*self.files.order, *BOOTSTRAP_ORDER, *demand, archive)))
        cap = MAX_FILE_BYTES if self.files.contract_cap else None
        for name in names:
            before = self._last.files.get(name) if self._last else None
            found = read_live_file(self.files.path(self.home, name), before, cap)
            if found is not None:
                live[name] = found
        self._digests = {name: (live[name].digest if name in live else None) for name in names}
        next_snapshot = session.preview(self.host)
        previous = (
            self._last.comparison
            if self._last is not None and self._last.preview.composition.host == next_snapshot.composition.host
            else None
        )
        self._seq += 1
        state = HomeState(
            seq=self._seq,
            files=live,
            current=session.current,
            preview=next_snapshot,
            comparison=compare(self._current_composition(session.current), next_snapshot.composition, previous),
            refusal=write_refusal(self.home),
            layout=self.files,
            sections=frozenset(
                name for name in ENTRY_FILES if name in live and in_sections(name, self.files, live[name])
            ),
            on_demand=tuple(name for name in demand if name in live),
            archive=archive if archive in live and archive not in demand else None,
            on_demand_total=demand_total,
        )
        self._last = state
        return state


def in_sections(name: str, files: FileMap, live: LiveFile) -> bool:
    """Whether ``name``'s entries are ``§`` entries: its host says so, or (no host known) its content shows it."""
    if files.dialect is not None:
        return files.dialect is Dialect.SECTIONS
    if "§" not in live.text:  # one memchr-fast scan: most files have none, and a 2 MiB one is read often
        return False

    return dialect_for(name, None, live.text) is Dialect.SECTIONS


def write_entry(home: Path, args: Mapping[str, object], files: FileMap = FLAT) -> SpliceResult:
    """The form's entry edit, made through the core's guarded splice, as the notebook."""
    from notebook_app.core.memory.edits.guarded_splice import delete_entry, edit_entry  # lazy: the write path

    name, line, expect = str(args["file"]), int(str(args["line"])), str(args["expect"])
    if args["action"] == "delete-entry":
        return delete_entry(home, name, line, expect, by=NOTEBOOK, files=files)
    return edit_entry(home, name, line, expect, str(args.get("to", "")), by=NOTEBOOK, files=files)
