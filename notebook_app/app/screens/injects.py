"""What the chosen host injects next session (``L``): each file raw → injected, its cut, the total, the notes.

The host is the one the main screen shows (the palette's ``Load as: …``, its
version and OpenClaw's session kind too; the contract by default), and the home
opened is read as that host's own home: the toolnexus home, the OpenClaw
workspace, ``$HERMES_HOME``, the Claude Code project root. The load is the
core's (:func:`...core.hosts.load_as`, as ``persona-notebook soul --host``
prints it), read in a worker and again when the home changes. The
selected file's text is what the host injects, with a ``✂`` row where its cut
falls; the notes say what the host does that is not modelled. It never writes.
"""

from __future__ import annotations

from pathlib import Path

from rich.cells import cell_len
from textual import events, on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from notebook_app.app.keys import INJECTS_KEYS, bindings
from notebook_app.app.screens.keyed import KeyedScreen
from notebook_app.app.view_model.injects import Injects, TextLine, header, nothing_loaded, read_injects, row, text_lines
from notebook_app.app.watchers.home_and_log import LiveHome
from notebook_app.app.widgets.common.key_footer import KeyFooter
from notebook_app.app.workers import LatestWins
from notebook_app.core.text.hidden import with_markers

STYLES = {"elided": "italic $foreground-muted", "note": "$foreground-muted"}


NAME_WIDTH = 14
"""The name column's least width; it grows to the longest name (Claude Code's paths are long) while the row fits."""
OTHER_COLUMNS = 18 + 21 + 16 + 4
"""The status, the sizes, what is dropped, and the list's border and padding, in cells."""


def name_width(names: list[str], screen_width: int) -> int:
    """The longest name's width, at least :data:`NAME_WIDTH`, at most what leaves room for the other columns."""
    longest = max((cell_len(name) for name in names), default=0)
    return max(NAME_WIDTH, min(longest, screen_width - OTHER_COLUMNS))


def file_prompt(cells: tuple[str, str, str, str], width: int = NAME_WIDTH) -> Content:
    """One file's row, its columns aligned: a name longer than ``width`` keeps its end (the file's own name)."""
    name, status, sizes, dropped = cells
    if cell_len(name) > width:
        name = "…" + name[-(width - 1) :]
    style = "$text-warning" if status == "cut" else "$foreground-muted" if status != "injected" else ""
    return Content.assemble(
        (f"{name:<{width}} ", "bold"), (f"{status:<17} ", style), f"{sizes:<20} ", (dropped, "$text-warning")
    )


def text_content(lines: list[TextLine]) -> Content:
    rows = [
        Content.styled(line.text, STYLES[line.kind]) if line.kind in STYLES else Content(with_markers(line.text))
        for line in lines
    ]
    return Content("\n").join(rows)


class InjectsScreen(KeyedScreen[None]):
    CSS_PATH = Path(__file__).with_name("injects.tcss")
    KEYS = INJECTS_KEYS
    BINDINGS = bindings(KEYS)

    def __init__(
        self,
        home: Path,
        spec: str | None,
        *,
        kind: str | None = None,
        home_label: str,
        standing: str | None = None,
        watch: bool = False,
    ) -> None:
        super().__init__()
        self.home = home
        self.spec = spec
        """The host as ``load_as`` names it (None: the contract)."""
        self.kind = kind
        """OpenClaw's session kind (None: main, or not OpenClaw)."""
        self.home_label = home_label
        self.standing = standing
        """The installed release's stand-in said in words (None: the release shown is proven, or not installed)."""
        self.watch_home = watch
        self.injects: Injects | None = None
        self._reads = LatestWins(self, "injects", self._read, done=self._loaded, failed=self._failed)

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        yield Static("Reading what the host injects…", id="injects-summary", markup=False)
        yield OptionList(id="injects-files")
        with VerticalScroll(id="injects-text"):
            yield Static("", id="injects-head")
            yield Static("", id="injects-cut", markup=False)
            yield Static("", id="injects-tail")
        yield Static("", id="injects-notes", markup=False)
        yield KeyFooter(compact=True)
        yield LiveHome(self.home, watch=self.watch_home, group="injects-watch")

    @on(events.Mount)
    def _mounted(self) -> None:
        self.sub_title = "what the host injects next session"
        self.query_one("#injects-files").border_title = "Files, in the host's order"
        self.query_one("#injects-text").border_title = "Injected"
        self.query_one("#injects-notes").border_title = "Not modelled here, and what was read"
        self._reads.request()

    @on(LiveHome.Changed)
    def _home_changed(self) -> None:
        self._reads.request()

    def _read(self) -> Injects | str:
        return read_injects(self.home, self.spec, self.kind)

    def _failed(self, words: str) -> None:
        self.query_one("#injects-summary", Static).update(f"⚠ Could not read what the host injects: {words}")

    def _loaded(self, injects: Injects | str) -> None:
        if isinstance(injects, str):
            self._failed(injects)
            return
        was = self.selected_name
        self.injects = injects
        self.query_one("#injects-summary", Static).update(header(injects, self.home_label, self.standing))
        listing = self.query_one(OptionList)
        listing.clear_options()
        parts = injects.load.parts
        names = [part.name for part in parts]
        width = name_width(names, self.size.width)
        listing.add_options(Option(file_prompt(row(part), width), id=part.name) for part in parts)
        if names:
            listing.highlighted = names.index(was) if was in names else 0
            listing.focus()
        notes = self.query_one("#injects-notes", Static)
        notes.update("\n".join(f"· {note}" for note in injects.load.notes))
        notes.display = bool(injects.load.notes)
        self._show_text()

    @property
    def selected_name(self) -> str | None:
        listing = self.query_one(OptionList)
        if listing.highlighted is None or not listing.option_count:
            return None
        return listing.get_option_at_index(listing.highlighted).id

    @on(OptionList.OptionHighlighted)
    def _show_text(self) -> None:
        name = self.selected_name
        part = next((p for p in self.injects.load.parts if p.name == name), None) if self.injects else None
        lines = text_lines(part, self.injects.load.unit.value) if part is not None and self.injects else []
        cut = next((i for i, line in enumerate(lines) if line.kind == "cut"), None)
        head, tail = (lines, []) if cut is None else (lines[:cut], lines[cut + 1 :])
        scroll = self.query_one("#injects-text", VerticalScroll)
        if part is None:
            scroll.border_title = "Injected"
        else:
            scroll.border_title = part.name if part.path == part.name else f"{part.name} · {part.path}"
        if part is None and self.injects is not None and not self.injects.load.parts:
            self.query_one("#injects-head", Static).update(Content(nothing_loaded(self.injects)))
        else:
            self.query_one("#injects-head", Static).update(text_content(head))
        self.query_one("#injects-tail", Static).update(text_content(tail))
        scissors = self.query_one("#injects-cut", Static)
        scissors.update(lines[cut].text if cut is not None else "")
        scissors.display = cut is not None
        if cut is not None:  # where the cut falls is what the view is for: shown without scrolling
            reveal = lambda: scroll.scroll_to_center(scissors, animate=False, immediate=True)  # noqa: E731
            self.call_after_refresh(self.call_after_refresh, reveal)  # after the layout that sizes the new text
        else:
            scroll.scroll_home(animate=False, immediate=True)

    def action_back(self) -> None:
        self.dismiss(None)
