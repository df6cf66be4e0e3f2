"""The notebook's ways into its other views and overlays: doctor, history, review, blame, hosts.

A part of :class:`~.main.MainScreen` kept in its own module (the screen is
long enough without it): each opens a view or lays an overlay over the Home
column, reading in workers as every screen does.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..keymap import shown_key
from ..keys import NOTEBOOK_KEYS
from ..model import HomeState
from ..widgets.common.status_line import StatusLine
from ..widgets.home.home_pane import HomePane
from ..widgets.session.session_pane import SessionPane
from ..workers import run_once

if TYPE_CHECKING:
    from ...core.doctor import DoctorReport
    from .main import MainScreen

DOCTOR_KEY = next(key for key in NOTEBOOK_KEYS if key.id == "doctor")
REVIEW_KEY = next(key for key in NOTEBOOK_KEYS if key.id == "review")


def blame_label(line, clock: Callable[[datetime], str]) -> str:
    """``cli 12:03:04``: who last wrote a line and when, or where it comes from when no record did."""
    from ...core.history import who

    if line.record is None:
        return line.origin.value
    return f"{who(line.record.by).split(' ')[0]} {clock(line.record.when)}"


def blame_labels(home: Path, names: tuple[str, ...], clock: Callable[[datetime], str]) -> dict[str, dict[int, str]]:
    """The gutter's labels of each file in ``names`` (file ->
    line from 1 -> label): plain data in and out, for a worker."""
    from ...core.history import blame  # loaded on first use

    return {name: {line.number: blame_label(line, clock) for line in blame(home, name).lines()} for name in names}


class NotebookTools:
    """Mixed into MainScreen: the doctor's verdict, the views it
    opens (agent sessions, doctor, history, review), blame, hosts."""

    def _checked(self: MainScreen, health: tuple[DoctorReport, int]) -> None:
        """The doctor's verdict and the review queue: the health line, the flagged lines, a notice of new proposals."""
        report, pending = health
        if pending > self._pending:
            key = shown_key(REVIEW_KEY, self.keymap)
            self.notify(f"{pending} proposal{'s' if pending != 1 else ''} to review — {key}", title="review", markup=False)
        self._pending = pending
        worst = max((f.severity for f in report.problems), key=lambda s: s.rank, default=None)
        self.query_one(StatusLine).show_health(report.headline(3), worst=worst.value if worst else None, key=shown_key(DOCTOR_KEY, self.keymap), pending=pending)
        names = {f.file for f in report.findings if f.file is not None}
        self.query_one(HomePane).show_findings({name: {line: sev.value for line, sev in report.lines_with_findings(name).items()} for name in names})

    def _check_failed(self: MainScreen, words: str) -> None:
        self.query_one(StatusLine).show_health(f"the doctor could not finish: {words}", worst="warning")

    def action_blame(self: MainScreen) -> None:
        """b: who last wrote each line of the three files in view, in a gutter (again: off)."""
        if self._blaming:
            self._blaming = False
            self.query_one(HomePane).show_blame(None)
            return
        self._blaming = True
        self._request_blame()

    def _request_blame(self: MainScreen) -> None:
        """Blame the files in view: which they are is read here, on the event loop; the worker gets only names."""
        names = tuple(dict.fromkeys((self.query_one(HomePane).document, "USER.md", "MEMORY.md")))
        self._blames.request(self.notebook.home, names, self.clock)

    def _blamed(self: MainScreen, labels: dict[str, dict[int, str]]) -> None:
        if self._blaming:
            self.query_one(HomePane).show_blame(labels)

    def _blame_failed(self: MainScreen, words: str) -> None:
        """Said in the banner, and the gutter goes off: each read
        would fail it again. The next read that succeeds clears it."""
        self._blaming = False
        self.query_one(HomePane).show_blame(None)
        self._show_banner(f"⚠ Could not show who wrote each line: {words}. b tries again.")

    def action_agent_sessions(self: MainScreen) -> None:
        from .agent_sessions import AgentSessionsScreen  # loaded on first use, not at start-up

        self.app.push_screen(AgentSessionsScreen(self.notebook.home, watch=self.watch_home, home_label=self.home_label, clock=self.clock))

    def action_history(self: MainScreen) -> None:
        from .history import HistoryScreen  # loaded on first use, not at start-up

        self.app.push_screen(HistoryScreen(self.notebook.home, self.clock, watch=self.watch_home), lambda _: self._reads.request())

    def action_review(self: MainScreen) -> None:
        from .review import ReviewScreen  # loaded on first use, not at start-up

        # back from a view that may have written: a read follows, and the doctor's check (the proposal count) after it
        self.app.push_screen(ReviewScreen(self.notebook.home, self.clock, watch=self.watch_home), lambda _: self._reads.request())

    def action_set_review(self: MainScreen, on: bool) -> None:
        """The palette's review setting for the home: a recorded write, through the core, as the notebook."""
        from ...core.log import NOTEBOOK
        from ...core.modes import set_review

        def said(output: str, is_error: bool) -> None:
            self.notify(output, title="review setting", severity="error" if is_error else "information", markup=False)

        job = lambda: set_review(self.notebook.home, on, by=NOTEBOOK)  # noqa: E731
        run_once(self, "review-setting", job, done=lambda r: said(r.output, r.is_error), failed=lambda words: said(words, True))

    def action_doctor(self: MainScreen) -> None:
        from .doctor import DoctorScreen  # loaded on first use, not at start-up

        self.app.push_screen(DoctorScreen(self.notebook.home, self.notebook.check), self._jump)

    def _jump(self: MainScreen, place: tuple[str, int] | None) -> None:
        """Back from the doctor: show the finding's line, and look again (a fix may have landed)."""
        self._reads.request()
        if place is not None:
            self.activate("home")
            self.query_one(HomePane).pick(*place)

    def action_use_host(self: MainScreen, name: str) -> None:
        """Show Current and Next as host ``name`` loads them (the palette's host commands)."""
        from ...core.hosts import resolve_host  # the host profiles load on first use

        choice = resolve_host(name)
        if choice.profile is None:
            self.notify(choice.error or f"no host {name!r}", title="host", severity="error", markup=False)
            return
        profile = choice.profile
        run_once(self, "home", lambda: self.notebook.use_host(profile), done=self._host_used, failed=self._read_failed)

    def _host_used(self: MainScreen, state: HomeState) -> None:
        host = state.preview.composition
        title = host.profile.title if host.profile else host.host
        # "Current session · as Claude Code loads it" was cut at 100 columns, where a pane is 32 wide
        self.query_one("#current", SessionPane).border_title = "Current session" if host.host == "toolnexus" else f"Current · {title}"
        self.query_one("#next", SessionPane).border_title = "Next session" if host.host == "toolnexus" else f"Next · {title}"
        self._apply(state)
