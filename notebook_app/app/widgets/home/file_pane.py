"""One bootstrap file as it is on disk now: its size against the cap, what is wrong, its lines.

The Home column holds three: the chosen document (SOUL.md unless another
file is picked), USER.md and MEMORY.md, the two whose lines are entries. The
one the memory tool targets is marked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content

from notebook_app.app.view_model.documents import EMPTY
from notebook_app.app.view_model.live_files import LiveFile
from notebook_app.app.widgets.common.focus_within import FocusWithin
from notebook_app.app.widgets.home.entry_view import EntryView, RowsChanged
from notebook_app.app.widgets.home.file_summary import FileSummary, title_facts
from notebook_app.core.home.soul import BootstrapFile

if TYPE_CHECKING:
    from notebook_app.core.hosts.openclaw.pane import OpenClawPane


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
        self._loaded: BootstrapFile | None = None
        self._lacks: str | None = None
        """``this host has no USER.md``: the host the home opened as has no such file."""
        self._read_only = False
        """The host's own file (Claude Code's CLAUDE.md chain): the title says it is read-only here."""
        self._limit: int | None = None
        """Hermes's character limit of the file shown, when it is one of its stores: the meter says that."""
        self._host: OpenClawPane | None = None
        """OpenClaw's words and cap for the file shown, on an OpenClaw load."""
        self._short = False
        """Rows are short: the size facts ride in the title rule, not in a row of their own."""
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

    def show(
        self,
        name: str,
        live: LiveFile | None,
        loaded: BootstrapFile | None,
        *,
        sections: bool = False,
        lacks: str | None = None,
        limit: int | None = None,
        host: OpenClawPane | None = None,
        read_only: bool = False,
    ) -> None:
        """Show ``name`` as read now (``live``) and as the next session loads it (``loaded``); ``lacks``: the words
        for a file the home's host has no place for (shown when the file is not there); ``limit``: the host's
        character limit of the file (Hermes's stores), measured in place of the 2 MiB cap; ``host``: OpenClaw's words
        for it and its own cap, said in place of the 2 MiB cap; ``read_only``: the host's own file (Claude Code's
        CLAUDE.md), which the title says is never written here."""
        self._read_only = read_only
        if name != self.name_shown:
            self._opened = False
        self.name_shown = name
        self._shown = True
        self._live, self._loaded, self._limit, self._host = live, loaded, limit, host
        self._lacks = lacks if live is None else None
        self._summarise()
        self._fold()
        self._placeholder()
        self.view.show_file(live.document if live else EMPTY, entries=self.entries, sections=sections)

    def set_short(self, short: bool) -> None:
        """Put the size facts in the title rule (``short``), or back in the summary's first row."""
        if short != self._short:
            self._short = short
            self.query_one(FileSummary).compact = short
            if self._shown:
                self._summarise()
            self._title()

    def _summarise(self) -> None:
        summary = self.query_one(FileSummary)
        summary.show_file(self.name_shown, self._live, self._loaded, limit=self._limit, host=self._host)
        summary.display = bool(summary.rows)
        self.post_message(RowsChanged())

    @property
    def rows_needed(self) -> int:
        """Rows that show all of it: its title rule, summary and wrapped lines (one row when it is folded)."""
        if self.has_class("-one-row"):
            return 1
        summary = self.query_one(FileSummary)
        rows = 1 + (summary.rows if summary.display else 0)
        return rows if self.has_class("-no-lines") else rows + max(1, self.view.virtual_size.height)

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
        self.post_message(RowsChanged())

    def unfold_warnings(self, unfolded: bool, key: str) -> None:
        """Warnings in full, or folded to one row that names ``key``; takes effect at the next :meth:`show`."""
        summary = self.query_one(FileSummary)
        summary.unfolded, summary.fold_key = unfolded, key
        self.post_message(RowsChanged())

    def mark_target(self, is_target: bool) -> None:
        self.set_class(is_target, "-target")
        self._fold()
        self._placeholder()

    def _placeholder(self) -> None:
        """What an empty view says: for an entry file, how to add its first entry (the size line says absent)."""
        live = self._live
        if self._lacks is not None:
            text = self._lacks
        elif live is not None and not live.loads:
            text = "(nothing to show)"
        elif self.entries:
            text = "no entries yet · a adds one" if self.has_class("-target") else "no entries yet · t, then a"
        else:
            text = "" if live is None else f"{self.name_shown} is empty."
        self.view.set_placeholder(text)

    def on_resize(self) -> None:
        self._title()  # the size facts in the title rule keep to its width

    def _title(self) -> None:
        """Set only when it changes: Textual repaints the whole pane at each set, and so every row it spans."""
        title = Content(f"{self.name_shown} ◂ target" if self.has_class("-target") else self.name_shown)
        if self._read_only:
            title += " · read-only"
        if self.has_class("-one-row"):
            if self._lacks is not None:
                title += f" · {self._lacks}"
            else:
                title += f" · {self.nothing_in_it}" + (
                    " · the next session skips it" if self.nothing_in_it == "absent" else ""
                )
        elif self._short and self._shown:
            room = self.size.width - 4  # the rule's ends and a space
            facts = next(
                (
                    fact
                    for fact in title_facts(self._live, self._limit, self._host)
                    if cell_len(title.plain) + 3 + fact.cell_length <= room
                ),
                None,
            )
            if facts is not None:
                title = Content.assemble(title, (" · ", "$foreground-muted"), facts)
        if self.border_title != title.markup:
            self.border_title = title

    def focus_entries(self) -> None:
        """Focus its lines, opening the pane first when it was folded to one row."""
        self._opened = True
        self._fold()
        self.view.focus()
