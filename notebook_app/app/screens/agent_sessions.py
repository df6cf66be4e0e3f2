"""Agent sessions: what each recorded agent runs with, what it would load next, what it wrote.

The list comes from the records the MCP server writes in ``.notebook/sessions``;
choosing one shows its frozen snapshot as Current session against the home's
Next-session preview (the same comparison and presentation as the notebook's
own session), and its journal below. Records and bootstrap files are watched,
so new sessions, growing journals and the agent's writes show live. Every
read runs in a worker (:mod:`..workers`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Header, Static

from notebook_app.app.keys import AGENT_KEYS, bindings
from notebook_app.app.screens.panes import PaneScreen
from notebook_app.app.view_model.agents import AgentView, compare_session
from notebook_app.app.watchers.home_and_log import LiveHome
from notebook_app.app.widgets.agents import session_list
from notebook_app.app.widgets.agents.journal_table import JournalPane
from notebook_app.app.widgets.agents.session_list import SessionList, count_words, plural
from notebook_app.app.widgets.common import line_view, pane_tabs
from notebook_app.app.widgets.common.key_footer import KeyFooter
from notebook_app.app.widgets.common.pane_tabs import Tab
from notebook_app.app.widgets.session import session_pane
from notebook_app.app.widgets.session.session_pane import SessionPane, present
from notebook_app.app.workers import LatestWins
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.memory.review.decisions import ProposalStatus
from notebook_app.core.sessions.agents import CallCounts, SessionListing, scan_sessions

PRESENCE_SECONDS = 2.0
"""How often the list is read again for sessions that ended (a probe of a lock per record, no write)."""

NO_SESSIONS = (
    "No agent session recorded yet.\n\n"
    "One is recorded each time an MCP client (an agent host) connects to\n\n"
    "  persona-notebook mcp HOME\n\n"
    "and each of its memory writes is journalled. This view updates as they come."
)


class AgentSessionsScreen(PaneScreen):
    """The recorded agent sessions; the chosen one against Next; its journal."""

    CSS_PATH = [
        line_view.TCSS,
        pane_tabs.TCSS,
        session_pane.TCSS,
        Path(session_list.__file__).with_name("agents.tcss"),
        Path(__file__).with_name("agent_sessions.tcss"),
    ]
    KEYS = AGENT_KEYS
    BINDINGS = bindings(KEYS)
    TABS = (
        Tab("home", "Sessions", "f2", widget="agent-left"),
        Tab("current", "Current", "f3", widget="agent-current"),
        Tab("next", "Next", "f4", widget="agent-next"),
    )

    def __init__(
        self,
        home: Path,
        *,
        watch: bool,
        home_label: str,
        clock: Callable[[datetime], str],
        files: FileMap = FLAT,
        host: str | None = None,
    ) -> None:
        super().__init__()
        self.home = home
        self.files = files
        self.host = host
        """The host an agent on this home is served as (a Hermes home's ``hermes``; None, the contract): Next is
        composed as it loads the home, like the agent's Current."""
        self.watch_home = watch
        self.home_label = home_label
        self.clock = clock
        self.view: AgentView | None = None
        self.listed = False
        """Whether the first list of sessions has been read."""
        self._lists = LatestWins(self, "agent-list", scan_sessions, done=self._listed, failed=self._list_failed)
        self._compares = LatestWins(
            self, "agent-compare", self._compare, done=self._compared, failed=self._compare_failed
        )

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        yield Static("", id="agent-problem", markup=False)
        yield Static("", id="agent-records-problem", markup=False)
        yield self.pane_tabs()
        with Horizontal(id="agent-panes"):
            with Vertical(id="agent-left", classes="-active"):
                yield SessionList(self.clock, id="agent-list")
                yield Static(NO_SESSIONS, id="agent-empty", markup=False)
            yield SessionPane("Current · the agent's", id="agent-current")  # whole in a pane at 100 columns
            yield SessionPane("Next session", id="agent-next")
        yield JournalPane(self.clock, id="agent-journal")
        yield KeyFooter(compact=True)
        yield LiveHome(self.home, watch=self.watch_home, group="agent-watch")

    @on(events.Mount)
    def _mounted(self) -> None:
        self.sub_title = f"{self.home_label} · agent sessions"
        listing = self.query_one(SessionList)
        listing.border_title = "Agent sessions"
        self.query_one("#agent-empty").border_title = "Agent sessions"
        listing.focus()
        self.query_one(JournalPane).border_title = "Journal"
        self._lists.request(self.home)
        # A server that ends changes no file: look again now and then, so "connected" turns to "ended".
        self.set_interval(PRESENCE_SECONDS, lambda: self._lists.request(self.home))

    def focus_pane(self, pane: str) -> None:
        if pane == "home":
            self.query_one(SessionList).focus()
        else:
            self.query_one(f"#agent-{pane}", SessionPane).focus_view()

    # --- reads: off the event loop, the latest request wins --------------------

    def _compare_chosen(self) -> None:
        chosen = self.query_one(SessionList).chosen
        if chosen is not None:
            self._compares.request(chosen, self.view)

    def _compare(self, session_id: str, previous: AgentView | None) -> tuple[str, AgentView]:
        return session_id, compare_session(self.home, session_id, previous, files=self.files, host=self.host)

    def _listed(self, listing: SessionListing) -> None:
        self.listed = True
        records = self.query_one("#agent-records-problem", Static)
        unreadable = listing.unreadable
        records.set_class(bool(unreadable), "-shown")
        if unreadable:
            count = plural(len(unreadable), "session record")
            records.update(
                f"⚠ {count} cannot be read and {'is' if len(unreadable) == 1 else 'are'} not listed: "
                + "; ".join(r.message for r in unreadable)
            )
        self._show_list(list(listing.sessions))

    def _list_failed(self, words: str) -> None:
        self.listed = True
        self.notify(f"Cannot list agent sessions: {words}", title="agent sessions", severity="error", markup=False)
        self._show_list([])

    def _show_list(self, summaries: list) -> None:
        listing = self.query_one(SessionList)
        listing.show_sessions(summaries)
        count = len(summaries)
        listing.border_subtitle = plural(count, "session") if count else ""
        self.query_one("#agent-left").set_class(not count, "-empty")
        if count and self.focused is None:
            listing.focus()  # it could not hold focus while hidden
        if not count:
            self.view = None
            self._show_nothing("no agent session to show")

    @on(SessionList.Chosen)
    def _chosen(self) -> None:
        self._compare_chosen()

    def _compared(self, result: tuple[str, AgentView]) -> None:
        session_id, view = result
        if session_id != self.query_one(SessionList).chosen:
            return  # the person moved on; the read for their choice is due
        self.query_one("#agent-problem", Static).remove_class("-shown")
        another = self.view is None or self.view.session.id != session_id
        self.view = view
        session = view.session
        current, upcoming = self.query_one("#agent-current", SessionPane), self.query_one("#agent-next", SessionPane)
        present(
            current,
            upcoming,
            view.comparison,
            current_meta=f"began {self.clock(session.started_at)}",
            next_meta="if the agent began now",
        )
        journal = self.query_one(JournalPane)
        entries = view.calls
        journal.show_journal(entries)
        tally = session.pruned + CallCounts.of(entries)  # the list's rule: proposals are not writes
        counts = [words for words, _ in count_words(tally)]
        waiting = sum(1 for p in view.proposals.values() if p.status == ProposalStatus.PENDING)
        if waiting and tally.proposals:
            counts[-1] += f" ({waiting} pending)"  # proposals come last
        if session.pruned.calls:  # counted, no longer listed: the rows below are fewer than the counts
            counts.append(f"{plural(session.pruned.calls, 'call')} pruned from the history")
        journal.border_title = f"Journal · {session.client_label}"
        journal.border_subtitle = " · ".join(counts)
        if another:
            self.call_after_refresh(self._reveal_first_changes)

    def _compare_failed(self, words: str) -> None:
        problem = self.query_one("#agent-problem", Static)
        problem.update(f"⚠ {words}")
        problem.add_class("-shown")
        self.view = None
        self._show_nothing("This session's record cannot be read.")

    def _reveal_first_changes(self) -> None:
        """A pane's first layout can come after its first document: scroll to the change again."""
        for pane in self.query(SessionPane):
            pane.reveal_first_change()

    def _show_nothing(self, why: str) -> None:
        for pane in self.query(SessionPane):
            pane.show_nothing(why)
        journal = self.query_one(JournalPane)
        journal.show_journal(())
        journal.border_title, journal.border_subtitle = "Journal", ""

    # --- the watchers ----------------------------------------------------------

    @on(LiveHome.Changed)
    def _home_changed(self, event: LiveHome.Changed) -> None:
        if event.log:  # a session began, ended or made a call
            self._lists.request(self.home)
        self._compare_chosen()

    # --- actions -----------------------------------------------------------------

    def action_back(self) -> None:
        self.dismiss()
