"""Agent sessions: what each recorded agent runs with, what it would load next, what it wrote.

The list comes from the records the MCP server writes in ``.notebook/sessions``;
choosing one shows its frozen snapshot as Current session against the home's
Next-session preview, and its journal below. Records and bootstrap files are
watched, so new sessions, growing journals and the agent's writes show live.
Every read runs in a worker thread and comes back as a message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Footer, Header, Static
from textual.worker import Worker

from ...core.agent_sessions import AgentSessionError, SessionSummary, UnreadableRecord, scan_sessions
from ..agents import AgentView, compare
from ..failures import worker_failure
from .keyed import KeyedScreen
from ..keys import AGENT_KEYS, bindings
from ..documents import EMPTY
from ..sessions_watcher import SessionsWatcher
from ..watcher import HomeWatcher
from ..widgets.agents import session_list
from ..widgets.agents.journal_table import JournalPane
from ..widgets.agents.session_list import SessionList, plural
from ..widgets.common import line_view
from ..widgets.common.line_view import LineView
from ..widgets.session import session_pane
from ..widgets.session.session_pane import CHANGE_MARKS, SessionPane, change_badge

NO_SESSIONS = (
    "No agent session recorded yet.\n\n"
    "One is recorded each time an MCP client (an agent host) connects to\n\n"
    "  persona-notebook mcp HOME\n\n"
    "and each of its memory writes is journalled. This view updates as they come."
)


class AgentSessionsScreen(KeyedScreen):
    """The recorded agent sessions; the chosen one against Next; its journal."""

    CSS_PATH = [
        line_view.TCSS,
        session_pane.TCSS,
        Path(session_list.__file__).with_name("agents.tcss"),
        Path(__file__).with_name("agent_sessions.tcss"),
    ]
    KEYS = AGENT_KEYS
    BINDINGS = bindings(KEYS)

    @dataclass
    class Listed(Message, bubble=False):
        summaries: list[SessionSummary]
        problem: str = ""
        unreadable: tuple[UnreadableRecord, ...] = ()

    @dataclass
    class Compared(Message, bubble=False):
        session_id: str
        view: AgentView | None
        problem: str

    def __init__(self, home: Path, *, watch: bool, home_label: str, clock: Callable[[datetime], str]) -> None:
        super().__init__()
        self.home = home
        self.watch_home = watch
        self.home_label = home_label
        self.clock = clock
        self.view: AgentView | None = None
        self.listed = False
        """Whether the first list of sessions has been read."""
        self._reading: set[str] = set()
        self._reads_due: set[str] = set()
        self._watchers: list[HomeWatcher | SessionsWatcher] = []

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        yield Static("", id="agent-problem", markup=False)
        yield Static("", id="agent-records-problem", classes="agent-banner", markup=False)
        with Horizontal(id="agent-panes"):
            with Vertical(id="agent-left"):
                yield SessionList(self.clock, id="agent-list")
                yield Static(NO_SESSIONS, id="agent-empty", markup=False)
            yield SessionPane("Current session · the agent's", id="agent-current")
            yield SessionPane("Next session", id="agent-next")
        yield JournalPane(self.clock, id="agent-journal")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"{self.home_label} · agent sessions"
        listing = self.query_one(SessionList)
        listing.border_title = "Agent sessions"
        self.query_one("#agent-empty").border_title = "Agent sessions"
        listing.focus()
        self.query_one(JournalPane).border_title = "Journal"
        self._read("list")
        if self.watch_home:
            # No digest is "ours" here: this view writes nothing, so every change counts.
            self._watchers = [HomeWatcher(self.home, self, lambda name: ""), SessionsWatcher(self.home, self)]
            for watcher in self._watchers:
                self.run_worker(watcher.run(), group="agent-watch", exit_on_error=False)

    def on_unmount(self) -> None:
        for watcher in self._watchers:
            watcher.stop()

    # --- workers: reads happen here, off the event loop ----------------------
    # Coalesced as on the main screen: while a read runs, requests only mark
    # one more as due, so an agent writing in a burst never queues threads.

    def _read(self, kind: str) -> None:
        """Read the sessions ("list") or compare the chosen one with Next ("compare")."""
        if kind in self._reading:
            self._reads_due.add(kind)
            return
        chosen = self.query_one(SessionList).chosen
        if kind == "compare" and chosen is None:
            return
        self._reading.add(kind)
        if kind == "list":
            self._list()
        else:
            self._compare(chosen, self.view)

    def _read_done(self, kind: str) -> None:
        self._reading.discard(kind)
        if kind in self._reads_due:
            self._reads_due.discard(kind)
            self._read(kind)

    @work(thread=True, group="agent-list", description="list agent sessions", exit_on_error=False)
    def _list(self) -> None:
        try:
            listing = scan_sessions(self.home)
        except OSError as error:  # an unreadable sessions folder, say
            self.post_message(self.Listed([], f"Cannot list agent sessions: {error}"))
        else:
            self.post_message(self.Listed(list(listing.sessions), unreadable=listing.unreadable))

    @work(thread=True, group="agent-compare", description="compare an agent session with Next", exit_on_error=False)
    def _compare(self, session_id: str, previous: AgentView | None) -> None:
        try:
            view = compare(self.home, session_id, previous)
        except (AgentSessionError, OSError) as error:
            self.post_message(self.Compared(session_id, None, str(error)))
        else:
            self.post_message(self.Compared(session_id, view, ""))

    # --- results -------------------------------------------------------------

    @on(Listed)
    def _listed(self, message: Listed) -> None:
        self._read_done("list")
        self.listed = True
        if message.problem:
            self.notify(message.problem, title="agent sessions", severity="error", markup=False)
        records = self.query_one("#agent-records-problem", Static)
        records.set_class(bool(message.unreadable), "-shown")
        if message.unreadable:
            count = plural(len(message.unreadable), "session record")
            records.update(f"⚠ {count} cannot be read and {'is' if len(message.unreadable) == 1 else 'are'} not listed: " + "; ".join(r.message for r in message.unreadable))
        listing = self.query_one(SessionList)
        listing.show_sessions(message.summaries)
        count = len(message.summaries)
        listing.border_subtitle = plural(count, "session") if count else ""
        self.query_one("#agent-left").set_class(not count, "-empty")
        if count and self.focused is None:
            listing.focus()  # it could not hold focus while hidden
        if not count:
            self.view = None
            self._show_nothing("no agent session to show")

    @on(SessionList.Chosen)
    def _chosen(self) -> None:
        self._read("compare")

    @on(Compared)
    def _compared(self, message: Compared) -> None:
        self._read_done("compare")
        if message.session_id != self.query_one(SessionList).chosen:
            return  # the person moved on; the read for their choice is due
        problem = self.query_one("#agent-problem", Static)
        problem.set_class(bool(message.problem), "-shown")
        if message.view is None:
            problem.update(f"⚠ {message.problem}")
            self.view = None
            self._show_nothing("This session's record cannot be read.")
            return
        another = self.view is None or self.view.session.id != message.session_id
        self.view = view = message.view
        session = view.session
        self.query_one("#agent-current", SessionPane).show(f"began {self.clock(session.started_at)}", "frozen", "frozen", view.current_doc)
        diff = view.diff
        self.query_one("#agent-next", SessionPane).show(
            "if the agent began now", change_badge(view.current_doc, view.next_doc), "sync" if diff.in_sync else "pending", view.next_doc
        )
        journal = self.query_one(JournalPane)
        journal.show_journal(session.journal)
        errors = sum(1 for entry in session.journal if entry.is_error)
        counts = [plural(len(session.journal) - errors, "write")] + ([plural(errors, "error")] if errors else [])
        journal.border_title = f"Journal · {session.client_label}"
        journal.border_subtitle = " · ".join(counts)
        if another:
            self.call_after_refresh(self._reveal_first_changes)

    def _reveal_first_changes(self) -> None:
        """A pane's first layout can come after its first document: scroll to the change again."""
        for pane in self.query(SessionPane):
            first = min((line for line, mark in pane.document.marks.items() if mark in CHANGE_MARKS), default=None)
            if first is not None:
                pane.query_one(LineView).reveal_line(first)

    def _show_nothing(self, why: str) -> None:
        for pane in self.query(SessionPane):
            pane.show("", "", "", EMPTY)
            pane.query_one(LineView).set_placeholder(why)
        journal = self.query_one(JournalPane)
        journal.show_journal(())
        journal.border_title, journal.border_subtitle = "Journal", ""

    # --- the watchers ----------------------------------------------------------

    @on(SessionsWatcher.Changed)
    def _sessions_changed(self) -> None:
        self._read("list")
        self._read("compare")

    @on(HomeWatcher.Changed)
    @on(HomeWatcher.HomeBack)
    def _files_changed(self) -> None:
        self._read("compare")

    @on(HomeWatcher.HomeMissing)
    def _home_missing(self, event: HomeWatcher.HomeMissing) -> None:
        event.stop()  # the notebook's own screen reports it

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        """Any failed worker becomes a visible state; the view goes on."""
        failure = worker_failure(event)
        if failure is None:
            return
        if failure.group == "agent-watch":
            self.notify(f"Stopped watching agent sessions: {failure.words}", title="watcher", severity="error", markup=False)
            return
        kind = "list" if failure.group == "agent-list" else "compare"
        self._read_done(kind)
        problem = self.query_one("#agent-problem", Static)
        problem.update(f"⚠ Could not {'list the agent sessions' if kind == 'list' else 'read this session'}: {failure.words}")
        problem.add_class("-shown")

    # --- actions -----------------------------------------------------------------

    def action_back(self) -> None:
        self.dismiss()
