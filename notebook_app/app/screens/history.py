"""History: who wrote what, when; each record's diff; undo and restore with their dry run first.

The records come from the home's one event log (the same as ``persona-notebook
history``), read in a worker, and again whenever the home or its log changes
(another writer, the CLI's undo, this view's own): the list is live, and the
selection stays on its record. ``f`` and ``w`` cycle the file and who filters.
``u`` shows what undoing the selected record would do and ``R`` what
restoring its file to just after it would do; ``y`` then applies that, through
the core, as the notebook. Nothing is written before ``y``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from textual import events, on
from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from notebook_app.app.keys import HISTORY_KEYS, bindings
from notebook_app.app.screens.keyed import KeyedScreen
from notebook_app.app.watchers.home_and_log import LiveHome
from notebook_app.app.widgets.common.key_footer import KeyFooter
from notebook_app.app.workers import LatestWins, run_once
from notebook_app.core.fs.state_dir import state_problem
from notebook_app.core.record.git.write_commits import commits_of_writes
from notebook_app.core.history.query import history, record_diff, undoable
from notebook_app.core.history.undo_group import undo
from notebook_app.core.history.undo_restore import HistoryResult, restore, who
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.names import BOOTSTRAP_ORDER
from notebook_app.core.record.log.actor import NOTEBOOK
from notebook_app.core.record.log.events import Event
from notebook_app.core.memory.results import for_people

WHO = (None, "notebook", "cli", "mcp", "library", "outside")
LIMIT = 500


@dataclass(frozen=True)
class Pending:
    """An undo or restore shown as a dry run, waiting for ``y``."""

    kind: str
    record: str
    file: str


def record_prompt(event: Event, clock: Callable[[datetime], str], commit: str | None = None) -> Content:
    """One record's line; ``commit``: its git commit's short id, when git is on and it was committed."""
    applied = "" if event.applied else "  (not applied)"
    return Content.assemble(
        (f"{clock(event.time)} ", "$foreground-muted"),
        (f"{who(event.by):<15.15}", "$text-accent"),
        (f"{event.action:<13} ", "bold"),  # entry-delete and session-start fill 12 and 13: a space always follows
        (f"{event.file or '':<13}", "$text-primary"),
        (event.id[:12], "$foreground-muted"),
        (f" {commit}" if commit else "", "$text-success"),
        (applied, "$text-warning"),
    )


class HistoryScreen(KeyedScreen[None]):
    CSS_PATH = Path(__file__).with_name("history.tcss")
    KEYS = HISTORY_KEYS
    BINDINGS = bindings(KEYS)

    def __init__(
        self, home: Path, clock: Callable[[datetime], str], *, watch: bool = False, files: FileMap = FLAT
    ) -> None:
        super().__init__()
        self.home = home
        self.files = files
        """Where the home's host keeps its files, and whose locks an undo or restore takes too."""
        self.clock = clock
        self.watch_home = watch
        self.file: str | None = None
        self.by: str | None = None
        self.records: list[Event] = []
        self.commits: dict[str, str] = {}
        """Each write's event id → its git commit (short id); empty when git is off (read in the worker)."""
        self.others: tuple[str, ...] = ()
        """Files beyond the seven the unfiltered records name (Claude Code's topic files): ``f`` cycles them too."""
        self.pending: Pending | None = None
        self._shown: str | None = None  # the record whose detail is shown or being read
        self._turn = 0  # each request for the detail pane; a worker's answer lands only if it is the latest
        self._reads = LatestWins(self, "history", self._read, done=self._listed, failed=self._failed)

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        yield Static("", id="history-filters", markup=False)
        yield OptionList(id="history-records")
        yield Static("", id="history-detail", markup=False)
        yield KeyFooter(compact=True)
        yield LiveHome(self.home, watch=self.watch_home, group="history-watch")

    @on(events.Mount)
    def _mounted(self) -> None:
        self.sub_title = "history"
        self.query_one("#history-records").border_title = "Records, newest first"
        self.query_one("#history-detail").border_title = "Record"
        self._list()

    @on(LiveHome.Changed)
    def _home_changed(self) -> None:
        self._reads.request(self.file, self.by)

    def _list(self) -> None:
        file, by = self.file, self.by
        self.query_one("#history-filters", Static).update(f"file: {file or 'all'} (f)  ·  who: {by or 'all'} (w)")
        self._reads.request(file, by)

    def _read(self, file: str | None, by: str | None) -> tuple[str | None, str | None, list[Event], dict[str, str]]:
        return (
            file,
            by,
            history(self.home, file=file, by=by, limit=LIMIT, files=self.files),
            commits_of_writes(self.home),
        )

    def _next_turn(self) -> int:
        self._turn += 1
        return self._turn

    def _failed(self, words: str) -> None:
        self.query_one("#history-detail", Static).update(f"⚠ {words}")

    def _listed(self, read: tuple[str | None, str | None, list[Event], dict[str, str]]) -> None:
        """The records read; the selection stays on its record. The same records again change nothing (a dry run shown
        stays).
        """
        file, by, records, commits = read
        if (file, by) != (self.file, self.by):
            return  # read for filters changed since: the read for these is due
        same = [event.id for event in records] == [event.id for event in self.records]
        if same and records and commits == self.commits:
            return
        was = self.selected
        self.records, self.commits = records, commits
        if file is None:
            named = {self.files.relative(name) for name in BOOTSTRAP_ORDER}  # f names them as the list does
            self.others = tuple(sorted({e.file for e in records if e.file and e.file not in named}))
        listing = self.query_one(OptionList)
        listing.clear_options()
        listing.add_options(
            Option(record_prompt(event, self.clock, commits.get(event.id)), id=event.id) for event in records
        )
        if records:
            ids = [event.id for event in records]
            listing.highlighted = ids.index(was.id) if was is not None and was.id in ids else 0
            listing.focus()
        else:
            unkept = state_problem(
                self.home
            )  # one lstat: a .notebook link keeps no history, say so rather than "not yet"
            self.query_one("#history-detail", Static).update(
                f"No history: {unkept}."
                if unkept
                else "No record yet: the history begins with the first write through the core."
            )

    @property
    def selected(self) -> Event | None:
        listing = self.query_one(OptionList)
        index = listing.highlighted
        return self.records[index] if index is not None and index < len(self.records) else None

    @on(OptionList.OptionHighlighted)
    def _show(self) -> None:
        """The selected record's diff; the list re-listed with the selection on the same record changes nothing (a
        dry run asked for meanwhile stays)."""
        event = self.selected
        if event is None or event.id == self._shown:
            return
        self.pending = None
        self._shown = event.id
        turn = self._next_turn()
        run_once(
            self,
            "history-diff",
            lambda: record_diff(self.home, event.id),
            done=lambda diff: self._diffed(diff, turn),
            failed=self._failed,
        )

    def _diffed(self, diff, turn: int) -> None:
        event = diff.event
        if turn != self._turn or self.selected is None or self.selected.id != event.id:
            return  # a later request (another record, a dry run) owns the pane
        why = undoable(event)
        # Not "approved by … approved by", read twice.
        head = f"{event.id} · {event.action} · {who(event.by)} · {self.clock(event.time)}"
        if event.id in self.commits:
            head += f" · git commit {self.commits[event.id]}"
        if event.output:
            head += f"\n{event.output}"
        note = f"\n(cannot be undone: {why})" if why else ""
        self.query_one("#history-detail", Static).update(f"{head}{note}\n\n{diff.text or '(no change to show)'}")

    def _dry_run(self, kind: str) -> None:
        event = self.selected
        if event is None or event.file is None:
            return
        record, name = event.id, event.file
        if kind == "undo":
            job = lambda: undo(self.home, record, by=NOTEBOOK, dry_run=True, files=self.files)  # noqa: E731
        else:
            job = lambda: restore(self.home, name, record, by=NOTEBOOK, dry_run=True, files=self.files)  # noqa: E731
        self.pending = None
        turn = self._next_turn()

        def shown(result: HistoryResult) -> None:
            if turn != self._turn:
                return
            detail = self.query_one("#history-detail", Static)
            if result.is_error:
                detail.update(result.output)
                return
            self.pending = Pending(kind, record, name)
            detail.update(f"{result.output}\n\ny applies it; moving on cancels.\n\n{result.diff}")

        run_once(self, "history-dry-run", job, done=shown, failed=self._failed)

    def action_undo(self) -> None:
        self._dry_run("undo")

    def action_restore(self) -> None:
        self._dry_run("restore")

    def action_apply(self) -> None:
        pending = self.pending
        if pending is None:
            self.notify("Nothing to apply: u or R shows a dry run first.", title="history", markup=False)
            return
        self.pending = None
        if pending.kind == "undo":
            job = lambda: undo(self.home, pending.record, by=NOTEBOOK, files=self.files)  # noqa: E731
        else:
            job = lambda: restore(self.home, pending.file, pending.record, by=NOTEBOOK, files=self.files)  # noqa: E731
        run_once(self, "history-apply", job, done=self._applied, failed=self._failed)

    def _applied(self, result: HistoryResult) -> None:
        severity = "error" if result.is_error else "warning" if result.unrecorded else "information"
        self.notify(for_people(result.output, result.unrecorded), title="history", severity=severity, markup=False)
        self._shown = None  # the dry run is spent: the selected record's diff again
        self._show()
        self._list()

    def action_cycle_file(self) -> None:
        names = (None, *BOOTSTRAP_ORDER, *self.others)
        self.file = names[(names.index(self.file) + 1) % len(names)]
        self._list()

    def action_cycle_who(self) -> None:
        self.by = WHO[(WHO.index(self.by) + 1) % len(WHO)]
        self._list()

    def action_back(self) -> None:
        self.dismiss(None)
