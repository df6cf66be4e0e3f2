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
        self._shown = False
        self._opened = False
        """Picked or focused: shown in full even when it has nothing in it (focus never rests on a hidden view)."""
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
        if name != self.name_shown:
            self._opened = False
        self.name_shown = name
        self._shown = True
        self.query_one(FileSummary).show_file(name, live, loaded)
        self._live = live
        self._fold()
        self._placeholder()
        self.view.show_file(live.document if live else EMPTY, entries=self.entries)

    @property
    def nothing_in_it(self) -> str:
        """``absent`` or ``empty`` when the file has no line to show
        (it then takes one row unless it is the target), else ``""``."""
        live = self._live
        if live is None:
            return "absent" if self._shown else ""
        return "empty" if live.loads and live.size == 0 else ""

    def _fold(self) -> None:
        """An absent or empty file is one row, its title saying
        so; the target's pane stays open (where an add lands)."""
        other = not self.has_class("-target") and not self._opened
        self.set_class(bool(self.nothing_in_it) and other, "-one-row")
        self.set_class(self._live is not None and not self._live.loads and other, "-no-lines")
        self._title()

    def unfold_warnings(self, unfolded: bool, key: str) -> None:
        """Warnings in full, or folded to one row that names ``key``; takes effect at the next :meth:`show`."""
        summary = self.query_one(FileSummary)
        summary.unfolded, summary.fold_key = unfolded, key

    def mark_target(self, is_target: bool) -> None:
        self.set_class(is_target, "-target")
        self._fold()
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
        if self.has_class("-one-row"):
            title = f"{title} · {self.nothing_in_it}" + (" · the next session skips it" if self.nothing_in_it == "absent" else "")
        if self.border_title != title:
            self.border_title = title

    def focus_entries(self) -> None:
        """Focus its lines, opening the pane first when it was folded to one row."""
        self._opened = True
        self._fold()
        self.view.focus()
