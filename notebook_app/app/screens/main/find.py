"""The notebook's find: find across the home as you type, step through matches, go to a line.

:class:`HomeFind` is a controller the main screen holds: it owns the finder,
where the bar stands (:class:`~...view_model.finding.FindSteps`), the worker that counts
(:class:`~...workers.LatestWins`, the latest query wins) and the place go to
line acts on. It touches no widget: the screen hands it the state and what is
typed, and it posts what the worker counted (:class:`HomeFind.Counted`) to
the node it runs on; the screen paints the count, and each pane asks the
query for the spans of the rows it draws.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message
from textual.widget import Widget

from notebook_app.app.view_model.finding import Finder, FindOutcome, FindSteps
from notebook_app.app.view_model.notebook import HomeState
from notebook_app.app.workers import LatestWins


class HomeFind:
    """``/`` find and ``ctrl+g`` go to line over the home's files and both sessions; counts posted to ``node``."""

    @dataclass
    class Counted(Message):
        """The worker counted the matches of a query."""

        outcome: FindOutcome

    @dataclass
    class Failed(Message):
        """The count could not finish, in words."""

        words: str

    def __init__(self, node: Widget) -> None:
        self.finder = Finder()
        self.steps = FindSteps()
        self._finds = LatestWins(
            node,
            "find",
            self.finder.search,
            done=lambda outcome: node.post_message(self.Counted(outcome)),
            failed=lambda words: node.post_message(self.Failed(words)),
        )
        self.selected_place = "MEMORY.md"
        """The file (or session pane) go to line acts on: the view last focused, or the match last shown."""

    def search(self, state: HomeState | None, typed: str) -> bool:
        """Ask the worker for the matches of ``typed`` in ``state``, from the match shown (or the selected file's top).

        False when there is nothing to count (nothing typed, or nothing read yet): the matches are cleared now.
        """
        if state is None or not typed:
            self.steps.clear()
            if state is not None:
                self._finds.request(state, "", (self.selected_place, 0))  # prepare the texts before the first key
            return False
        self._finds.request(state, typed, self.steps.near((self.selected_place, 0)))
        return True
