"""One bootstrap file as it is on disk now: its size against the cap, what is wrong, its lines.

The Home column holds three: the chosen document (SOUL.md unless another
file is picked), USER.md and MEMORY.md, the two whose lines are entries. The
one the memory tool targets is marked.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical

from ....core import BootstrapFile
from ...documents import EMPTY
from ...live_files import LiveFile
from ..common.focus_within import FocusWithin
from .entry_view import EntryView
from .file_summary import FileSummary


class FilePane(FocusWithin, Vertical):
    """A titled file view; with ``entries`` its lines can be selected one by one."""

    def __init__(self, name: str, *, entries: bool, **kwargs) -> None:
        super().__init__(**kwargs)
        self.name_shown = name
        self.entries = entries
        self._live: LiveFile | None = None
        self._title()

    def compose(self) -> ComposeResult:
        yield FileSummary(classes="file-summary")
        yield EntryView(classes="file-view", placeholder="loading…")

    @property
    def view(self) -> EntryView:
        return self.query_one(EntryView)

    @property
    def selected_line(self) -> tuple[str, int, str] | None:
        """(file, line number from 1, exact line text) of the selected entry, if any."""
        found = self.view.selected_line if self.entries else None
        return None if found is None else (self.name_shown, *found)

    def show(self, name: str, live: LiveFile | None, loaded: BootstrapFile | None) -> None:
        """Show ``name`` as read now (``live``) and as the next session loads it (``loaded``)."""
        self.name_shown = name
        self._title()
        self.query_one(FileSummary).show_file(name, live, loaded)
        self._live = live
        self._placeholder()
        self.view.show_file(live.document if live else EMPTY, entries=self.entries)

    def mark_target(self, is_target: bool) -> None:
        self.set_class(is_target, "-target")
        self._title()
        self._placeholder()

    def _placeholder(self) -> None:
        """What an empty view says: for an entry file, how to add its first entry (the size line says absent)."""
        live = self._live
        if live is not None and not live.loads:
            text = "(nothing to show)"
        elif self.entries:
            text = "no entries yet · a adds one" if self.has_class("-target") else "no entries yet · t, then a"
        else:
            text = "" if live is None else f"{self.name_shown} is empty."
        self.view.set_placeholder(text)

    def _title(self) -> None:
        """Set only when it changes: Textual repaints the whole pane at each set, and so every row it spans."""
        title = f"{self.name_shown} ◂ target" if self.has_class("-target") else self.name_shown
        if self.border_title != title:
            self.border_title = title

    def focus_entries(self) -> None:
        self.view.focus()
