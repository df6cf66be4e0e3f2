"""What the notebook lays over its panes from the history and the doctor: the health line and the blame gutter.

Two controllers the main screen holds, each owning its worker and its
state: :class:`HealthLine`, the doctor's verdict and the review queue (the
screen shows them on the health line and flags the lines in the Home
column); :class:`BlameGutter`, who last wrote each line. Neither touches a
widget: each posts what its worker found to the node it runs on, and the
screen paints it. The views they lead to (doctor, history, review) are the
app's actions (:class:`~...app.NotebookApp`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message
from textual.widget import Widget

from notebook_app.app.view_model.notebook import Notebook
from notebook_app.app.workers import LatestWins

if TYPE_CHECKING:
    from notebook_app.core.doctor.check import DoctorReport
    from notebook_app.core.home.layout import FileMap

CHECK_DELAY = (
    0.3  # seconds of quiet before the doctor looks again: a write and its log entry are one check, after their frames
)


def blame_label(line, clock: Callable[[datetime], str]) -> str:
    """``cli 12:03:04 +01:00``: who last wrote a line and when, or where it comes from when no record did."""
    from notebook_app.core.history.undo_restore import who  # lazy: the write path

    if line.record is None:
        return line.origin.value
    return f"{who(line.record.by).split(' ')[0]} {clock(line.record.when)}"


def blame_labels(
    home: Path, names: tuple[str, ...], clock: Callable[[datetime], str], files: FileMap
) -> dict[str, dict[int, str]]:
    """The gutter's labels of each file in ``names``, as the list names it (file -> line from 1 -> label): plain
    data in and out, for a worker. ``files``: where the home's host keeps each (a Hermes store in ``memories/``).
    """
    from notebook_app.core.history.origins import blame  # lazy: the write path

    return {
        name: {line.number: blame_label(line, clock) for line in blame(home, name, files=files).lines()}
        for name in names
    }


class HealthLine:
    """The doctor's verdict on ``notebook``'s home and its review queue, posted to ``node`` after each look."""

    @dataclass
    class Checked(Message):
        """The doctor's verdict and the review queue; ``more``: more proposals wait than at the last check."""

        report: DoctorReport
        pending: int
        more: bool

    @dataclass
    class Failed(Message):
        """The doctor could not finish, in words."""

        words: str

    def __init__(self, node: Widget, notebook: Notebook) -> None:
        self._node = node
        self._checks = LatestWins(
            node,
            "doctor",
            notebook.health,
            done=self._checked,
            failed=lambda words: node.post_message(self.Failed(words)),
        )
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
            self._node.call_after_refresh(self._checks.request_when_quiet, CHECK_DELAY)

    def look_again(self) -> None:
        """Check once no request has come for :data:`CHECK_DELAY` seconds."""
        self._checks.request_when_quiet(CHECK_DELAY)

    def _checked(self, health: tuple[DoctorReport, int]) -> None:
        report, pending = health
        more, self.pending = pending > self.pending, pending
        self._node.post_message(self.Checked(report, pending, more))


class BlameGutter:
    """``b``: who last wrote each line of the three files in view, for a gutter of the Home column (again: off).

    The labels are posted to ``node`` (:class:`BlameGutter.Blamed`), and so is a failure, which turns it off.
    """

    @dataclass
    class Blamed(Message):
        """Each file's labels (file -> line from 1 -> label), while the gutter shows."""

        labels: dict[str, dict[int, str]]

    @dataclass
    class Failed(Message):
        """Blame could not finish, in words: the gutter is off."""

        words: str

    def __init__(self, node: Widget, notebook: Notebook, clock: Callable[[datetime], str]) -> None:
        self._node = node
        self.home = notebook.home
        self.files = notebook.files
        """Where the home's host keeps each file: a Hermes store is blamed in ``memories/``."""
        self.clock = clock
        self.shown = False
        self._blames = LatestWins(node, "blame", blame_labels, done=self._blamed, failed=self._failed)

    def toggle(self, document: str) -> bool:
        """On (blaming ``document``, the file in view, with the two entry files) or off; whether it now shows."""
        self.shown = not self.shown
        if self.shown:
            self._request(document)
        return self.shown

    def refresh(self, document: str) -> None:
        """A new state was read: blame it again while the gutter shows."""
        if self.shown:
            self._request(document)

    def _request(self, document: str) -> None:
        """Blame the files in view: which they are is read on the event loop; the worker gets only names."""
        names = tuple(dict.fromkeys((document, "USER.md", "MEMORY.md")))
        self._blames.request(self.home, names, self.clock, self.files)

    def _blamed(self, labels: dict[str, dict[int, str]]) -> None:
        if self.shown:
            self._node.post_message(self.Blamed(labels))

    def _failed(self, words: str) -> None:
        """The gutter goes off (each read would fail it again); the next read that succeeds clears the words."""
        self.shown = False
        self._node.post_message(self.Failed(words))
