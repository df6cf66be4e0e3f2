"""What the notebook lays over its panes from the history and the doctor: the health line and the blame gutter.

Two controllers the main screen holds, each owning its worker and its
state: :class:`HealthLine`, the doctor's verdict and the review queue on the
health line (and the flagged lines in the Home column); :class:`BlameGutter`,
who last wrote each line. The views they lead to (doctor, history, review)
are the app's actions (:class:`~...app.NotebookApp`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from textual.screen import Screen

from notebook_app.app.keymap import shown_key
from notebook_app.app.keys import NOTEBOOK_KEYS
from notebook_app.app.view_model.notebook import Notebook
from notebook_app.app.widgets.common.status_line import StatusLine
from notebook_app.app.widgets.home.home_pane import HomePane
from notebook_app.app.workers import LatestWins

if TYPE_CHECKING:
    from notebook_app.core.doctor.check import DoctorReport
    from notebook_app.core.home.layout import FileMap

DOCTOR_KEY = next(key for key in NOTEBOOK_KEYS if key.id == "doctor")
REVIEW_KEY = next(key for key in NOTEBOOK_KEYS if key.id == "review")
CHECK_DELAY = (
    0.3  # seconds of quiet before the doctor looks again: a write and its log entry are one check, after their frames
)


def blame_label(line, clock: Callable[[datetime], str]) -> str:
    """``cli 12:03:04 +01:00``: who last wrote a line and when, or where it comes from when no record did."""
    from notebook_app.core.history.undo_restore import who

    if line.record is None:
        return line.origin.value
    return f"{who(line.record.by).split(' ')[0]} {clock(line.record.when)}"


def blame_labels(
    home: Path, names: tuple[str, ...], clock: Callable[[datetime], str], files: FileMap
) -> dict[str, dict[int, str]]:
    """The gutter's labels of each file in ``names``, as the list names it (file -> line from 1 -> label): plain
    data in and out, for a worker. ``files``: where the home's host keeps each (a Hermes store in ``memories/``).
    """
    from notebook_app.core.history.origins import blame

    return {
        name: {line.number: blame_label(line, clock) for line in blame(home, name, files=files).lines()}
        for name in names
    }


class HealthLine:
    """The doctor's verdict on ``notebook``'s home and its review queue, on ``screen``'s health line, a notice of new
    proposals.
    """

    def __init__(self, screen: Screen, notebook: Notebook, keymap: dict[str, str]) -> None:
        self._screen = screen
        self.keymap = keymap
        self._checks = LatestWins(screen, "doctor", notebook.health, done=self._checked, failed=self._failed)
        self._checked_once = False
        self.pending = 0
        """Proposals waiting for review at the last check."""

    def after_read(self) -> None:
        """A new state was shown: look again once quiet; the first look waits until the first frame is out (it must not
        slow the start).
        """
        if self._checked_once:
            self.look_again()
        else:
            self._checked_once = True
            self._screen.call_after_refresh(self._checks.request_when_quiet, CHECK_DELAY)

    def look_again(self) -> None:
        """Check once no request has come for :data:`CHECK_DELAY` seconds."""
        self._checks.request_when_quiet(CHECK_DELAY)

    def _checked(self, health: tuple[DoctorReport, int]) -> None:
        """The doctor's verdict and the review queue: the health line, the flagged lines, a notice of new proposals."""
        report, pending = health
        if pending > self.pending:
            key = shown_key(REVIEW_KEY, self.keymap)
            self._screen.notify(
                f"{pending} proposal{'s' if pending != 1 else ''} to review — {key}", title="review", markup=False
            )
        self.pending = pending
        worst = max((f.severity for f in report.problems), key=lambda s: s.rank, default=None)
        self._screen.query_one(StatusLine).show_health(
            report.headline(3),
            worst=worst.value if worst else None,
            key=shown_key(DOCTOR_KEY, self.keymap),
            pending=pending,
        )
        names = {f.file for f in report.findings if f.file is not None}
        self._screen.query_one(HomePane).show_findings(
            {name: {line: sev.value for line, sev in report.lines_with_findings(name).items()} for name in names}
        )

    def _failed(self, words: str) -> None:
        self._screen.query_one(StatusLine).show_health(f"the doctor could not finish: {words}", worst="warning")


class BlameGutter:
    """``b``: who last wrote each line of the three files in view, in a gutter of ``screen``'s Home column (again: off).

    ``say`` puts a failure in the banner.
    """

    def __init__(
        self, screen: Screen, notebook: Notebook, clock: Callable[[datetime], str], *, say: Callable[[str], None]
    ) -> None:
        self._screen = screen
        self.home = notebook.home
        self.files = notebook.files
        """Where the home's host keeps each file: a Hermes store is blamed in ``memories/``."""
        self.clock = clock
        self.say = say
        self.shown = False
        self._blames = LatestWins(screen, "blame", blame_labels, done=self._blamed, failed=self._failed)

    def toggle(self) -> None:
        if self.shown:
            self.shown = False
            self._screen.query_one(HomePane).show_blame(None)
            return
        self.shown = True
        self._request()

    def refresh(self) -> None:
        """A new state was read: blame it again while the gutter shows."""
        if self.shown:
            self._request()

    def _request(self) -> None:
        """Blame the files in view: which they are is read here, on the event loop; the worker gets only names."""
        names = tuple(dict.fromkeys((self._screen.query_one(HomePane).document, "USER.md", "MEMORY.md")))
        self._blames.request(self.home, names, self.clock, self.files)

    def _blamed(self, labels: dict[str, dict[int, str]]) -> None:
        if self.shown:
            self._screen.query_one(HomePane).show_blame(labels)

    def _failed(self, words: str) -> None:
        """Said in the banner, and the gutter goes off: each read would fail it again. The next read that succeeds
        clears it.
        """
        self.shown = False
        self._screen.query_one(HomePane).show_blame(None)
        self.say(f"⚠ Could not show who wrote each line: {words}. b tries again.")
