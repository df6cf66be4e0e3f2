"""The Home column: the seven files in load order, then SOUL.md, USER.md and MEMORY.md as they are now.

The first file pane shows the chosen document (SOUL.md until another of the
non-entry files is picked, with the list or ``1``–``7``); USER.md and
MEMORY.md always have a pane each, so where an add lands is in view. Moving
into an entry pane says so (:class:`EntryFileViewed`): the target follows
what a person looks at.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message

from notebook_app.app.view_model.file_rows import file_rows, host_lacks, host_pane
from notebook_app.app.view_model.notebook import HomeState
from notebook_app.app.widgets.common.focus_within import FocusWithin
from notebook_app.app.widgets.home.entry_view import EntryView
from notebook_app.app.widgets.home.file_list import FileList
from notebook_app.app.widgets.home.file_pane import FilePane
from notebook_app.app.widgets.home.pane_stack import PaneStack

TCSS = Path(__file__).with_name("home.tcss")

ENTRY_PANES = {"USER.md": "pane-user", "MEMORY.md": "pane-memory"}


class HomePane(FocusWithin, Vertical):
    """File list over the document pane and the two entry panes."""

    @dataclass
    class EntryFileViewed(Message):
        """A person moved into USER.md's or MEMORY.md's pane (the target follows)."""

        name: str

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.warnings_unfolded = False
        """Whether ``w`` unfolded every file's warnings: the pane's own state, kept across reads."""
        self.border_title = "Home"
        self.document = "SOUL.md"
        """The non-entry file shown in the first pane."""
        self.target = "MEMORY.md"
        self._state: HomeState | None = None
        self._findings: dict[str, dict[int, str]] = {}
        self._blame: dict[str, dict[int, str]] | None = None
        self._matches: tuple[
            Callable[[str], Sequence[tuple[int, int]]] | None, str | None, tuple[int, int, int] | None
        ] = (None, None, None)

    def compose(self) -> ComposeResult:
        yield FileList(id="file-list")
        with PaneStack(id="file-panes"):
            yield FilePane(self.document, entries=False, id="pane-doc")
            for name in ENTRY_PANES:  # the target's mark is composed: set on mount, it restyled the pane
                yield FilePane(
                    name, entries=True, id=ENTRY_PANES[name], classes="-target" if name == self.target else ""
                )

    def on_mount(self) -> None:
        self.query_one(FileList).select_file(self.target)
        self.mark_target(self.target)

    def pane(self, name: str) -> FilePane:
        """The pane showing ``name`` (the document pane for any non-entry file)."""
        return self.query_one(f"#{ENTRY_PANES.get(name, 'pane-doc')}", FilePane)

    def focus_files(self) -> None:
        self.query_one(FileList).focus()

    def focus_entries(self, name: str | None = None) -> None:
        self.pane(name or self.target).focus_entries()

    def mark_target(self, name: str) -> None:
        """Mark the pane of the file the memory tool writes now."""
        self.target = name
        for entry_file in ENTRY_PANES:
            self.pane(entry_file).mark_target(entry_file == name)

    @property
    def selected_line(self) -> tuple[str, int, str] | None:
        """(file, line number from 1, exact line text) of the selected entry in the target's pane."""
        return self.pane(self.target).selected_line

    @property
    def selected_file(self) -> str:
        """The file a person is on: the focused pane's, the list's highlighted row, else the target."""
        focused = self.screen.focused
        if focused is not None:
            for pane in self.query(FilePane):
                if focused is pane or pane in focused.ancestors:
                    return pane.name_shown
            files = self.query_one(FileList)
            if focused is files and files.highlighted is not None:
                return files.names[files.highlighted]
        return self.target

    def show_state(self, state: HomeState) -> None:
        self._state = state
        self.query_one(FileList).show_files(
            state.files, state.preview.composition, state.comparison.diff, file_rows(state), state.layout.limits
        )
        for name in (self.document, *ENTRY_PANES):
            self._show(name)

    def pick(self, name: str, line: int | None = None, *, focus: bool = True) -> None:
        """Bring ``name`` into view (its entry pane, or the document pane showing it), at ``line`` (1-based).

        Find goes to its matches with ``focus`` off: typing stays in the find bar.
        """
        if name not in ENTRY_PANES:
            self.document = name
            self._show(name)
        pane = self.pane(name)
        if focus:
            pane.focus_entries()
        if line is not None:
            pane.view.select_line(line - 1)

    def unfold_warnings(self, unfolded: bool, key: str) -> None:
        """Every file's warnings in full, or each folded to one row naming ``key``."""
        self.warnings_unfolded = unfolded
        for pane in self.query(FilePane):
            pane.unfold_warnings(unfolded, key)
        for name in (self.document, *ENTRY_PANES):
            self._show(name)

    def toggle_warnings(self, key: str) -> None:
        """``w``: unfold every file's warnings, or fold them back to one row naming ``key``."""
        self.unfold_warnings(not self.warnings_unfolded, key)

    def show_findings(self, flags: dict[str, dict[int, str]]) -> None:
        """Mark the lines the doctor found something on: file -> line (1-based) -> severity."""
        self._findings = flags
        for name in (self.document, *ENTRY_PANES):
            self._flag(name)
            self._blame_of(name)

    def show_matches(
        self,
        spans: Callable[[str], Sequence[tuple[int, int]]] | None,
        place: str | None = None,
        current: tuple[int, int, int] | None = None,
    ) -> None:
        """Find's matches in every file pane (``spans`` of a shown line; None: find is off); ``current`` in ``place``
        stands out.
        """
        self._matches = (spans, place, current)
        for name in (self.document, *ENTRY_PANES):
            self._match(name)

    def file_of(self, widget: object) -> str | None:
        """The file whose lines ``widget`` shows, when it is one of this column's file views."""
        return next((name for name in (self.document, *ENTRY_PANES) if self.pane(name).view is widget), None)

    def lines_in(self, name: str) -> int:
        """How many lines ``name``'s pane shows (0 when it is not in view)."""
        view = self.pane(name).view
        return len(view.document.lines) if self.file_of(view) == name else 0

    def _match(self, name: str) -> None:
        spans, place, current = self._matches
        self.pane(name).view.set_matches(spans, current if place == name else None)

    def show_blame(self, blame: dict[str, dict[int, str]] | None) -> None:
        """Who last wrote each line, in a gutter column (file -> line from 1 -> label); None hides it."""
        self._blame = blame
        for name in (self.document, *ENTRY_PANES):
            self._blame_of(name)

    def _blame_of(self, name: str) -> None:
        labels = (self._blame or {}).get(name, {})
        width = max((len(label) + 1 for label in labels.values()), default=0)  # a time says its offset: never cut
        self.pane(name).view.set_notes(
            {line - 1: label for line, label in labels.items()}, max(16, width) if self._blame is not None else 0
        )

    def _flag(self, name: str) -> None:
        marks = self._findings.get(name, {})
        self.pane(name).view.set_flags({line - 1: severity for line, severity in marks.items()})

    def _show(self, name: str) -> None:
        state = self._state
        if state is not None:
            self.pane(name).show(
                name,
                state.files.get(name),
                state.preview.composition.file(name),
                sections=name in state.sections,
                lacks=host_lacks(state, name),
                limit=state.layout.limits.get(name),
                host=host_pane(state, name),
                read_only=name in state.layout.host_files,
            )
            self._flag(name)
            self._blame_of(name)
            self._match(name)

    @on(FileList.OptionSelected)
    def _file_picked(self, event: FileList.OptionSelected) -> None:
        """Enter on a file in the list: go to it."""
        event.stop()
        if event.option.id is not None:
            self.pick(event.option.id)

    @on(FileList.Chosen)
    def _file_chosen(self, event: FileList.Chosen) -> None:
        """Moving in the list shows a document file in the first pane (the list's own start-up highlight does not)."""
        event.stop()
        if not self.query_one(FileList).has_focus:
            return
        if event.name not in ENTRY_PANES and event.name != self.document:
            self.document = event.name
            self._show(event.name)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if isinstance(event.widget, EntryView):
            pane = event.widget.parent
            if isinstance(pane, FilePane) and pane.entries and pane.name_shown != self.target:
                self.post_message(self.EntryFileViewed(pane.name_shown))

    @property
    def file_count(self) -> int:
        return len(self.query_one(FileList).names)

    def file_at(self, position: int) -> str | None:
        """The file at ``position`` (from 1) of the list, in the host's load order; None past its end."""
        names = self.query_one(FileList).names
        return names[position - 1] if 0 < position <= len(names) else None
