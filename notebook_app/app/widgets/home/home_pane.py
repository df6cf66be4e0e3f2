"""The left pane: the home's files, and the chosen one as it is on disk now."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical

from ....core import MEMORY_TARGETS
from ...documents import EMPTY
from ...model import HomeState
from .entry_view import EntryView
from .file_list import FileList
from .file_summary import FileSummary

TCSS = Path(__file__).with_name("home.tcss")


class HomePane(Vertical):
    """File list over a file view; the chosen file's entries can be selected."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Home"
        self.chosen = "MEMORY.md"
        self._state: HomeState | None = None

    def compose(self) -> ComposeResult:
        yield FileList(id="file-list")
        yield FileSummary(id="file-summary")
        yield EntryView(id="file-view", placeholder="loading…")

    def on_mount(self) -> None:
        self.query_one(FileList).select_file(self.chosen)

    def focus_files(self) -> None:
        self.query_one(FileList).focus()

    def focus_entries(self) -> None:
        self.query_one(EntryView).focus()

    @property
    def selected_line(self) -> tuple[str, int, str] | None:
        """(file, line number from 1, exact line text) of the selected entry line, if any."""
        found = self.query_one(EntryView).selected_line
        if found is None or self.chosen not in MEMORY_TARGETS.values():
            return None
        return (self.chosen, *found)

    def show_state(self, state: HomeState) -> None:
        self._state = state
        self.query_one(FileList).show_files(state.files, state.preview.composition, state.comparison.diff)
        self._show_chosen()

    def _show_chosen(self) -> None:
        state = self._state
        if state is None:
            return
        name = self.chosen
        live = state.files.get(name)
        self.query_one(FileSummary).show_file(name, live, state.preview.composition.file(name))
        view = self.query_one(EntryView)
        if live is None:
            view.set_placeholder(f"{name} is absent.")
        elif not live.loads:
            view.set_placeholder("Nothing to show: it is not a file the session loads.")
        else:
            view.set_placeholder(f"{name} is empty.")
        view.show_file(live.document if live else EMPTY, entries=name in MEMORY_TARGETS.values())

    @on(FileList.Chosen)
    def _file_chosen(self, event: FileList.Chosen) -> None:
        event.stop()
        if event.name != self.chosen:
            self.chosen = event.name
            self._show_chosen()
