"""The files the host loads, in its order (toolnexus: the seven bootstrap files), then those its agent reads on demand,
then any other that is there; each row marked with its part in the next session."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from textual import on
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from notebook_app.app.view_model.file_rows import FileRow, Part
from notebook_app.app.view_model.live_files import LiveFile
from notebook_app.core.home.files import FileStatus
from notebook_app.core.home.soul import BOOTSTRAP_ORDER, Composition
from notebook_app.core.sessions.snapshot import SoulDiff


def human_size(size: int) -> str:
    if size < 10_000:
        return f"{size:,} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KiB"
    return f"{size / (1024 * 1024):.2f} MiB"


def short_state(live: LiveFile) -> str:
    """A file that does not load, in a word or two: what the row says instead of a size."""
    if live.status is FileStatus.SPECIAL:
        kind = live.read.kind
        return "device" if kind.endswith("device") else kind.split(" ")[0]
    return live.status.value


NAME_WIDTH = 13
"""The names' column: the longest of the seven bootstrap files', a space after it."""

MARKS = {
    Part.INSTRUCTIONS: ("◆ ", "$text-success"),
    Part.INJECTED: ("● ", "$text-success"),
    Part.CUT: ("● ", "$text-warning"),
    Part.ON_DEMAND: ("◇ ", "$text-accent"),
    Part.NOT_LOADED: ("◌ ", "$foreground-muted"),
}
"""The row's first column: the host's own instructions (read-only here), injected,
cut (its ``✂`` flag follows the size), read on demand, not loaded."""


def file_prompt(
    row: FileRow,
    live: LiveFile | None,
    loaded: Composition,
    diff: SoulDiff,
    limit: int | None = None,
    width: int = NAME_WIDTH,
) -> Content:
    """One row: its part, name, size (or what it is instead), then flags for link, cut, not UTF-8 and changed.

    A file with a character ``limit`` (a Hermes store) says its characters as Hermes counts them, as its pane does;
    ``width``: the names' column, the longest instruction file's name (``.claude/rules/x.md``) or the seven's."""
    name, label = row.name, f"{row.name:<{width}}"
    if live is None:
        return Content.assemble(
            ("○ ", "$foreground-muted"), (label, "$foreground-muted"), ("absent", "$foreground-muted italic")
        )
    if not live.loads:
        return Content.assemble(("⊘ ", "$text-error bold"), label, (short_state(live), "$text-error"))
    bootstrap = loaded.file(name)
    muted = row.part in (Part.NOT_LOADED, Part.ON_DEMAND)
    parts: list[str | tuple[str, str]] = [
        MARKS[row.part],
        (label, "$foreground-muted") if row.part is Part.NOT_LOADED else label,
        # not loaded: the words in place of its size (its pane says the size), so the row fits 80 columns
        ("not loaded" if label.endswith(" ") else " not loaded", "$foreground-muted italic")
        if row.part is Part.NOT_LOADED
        else (f"{_size(live, limit):>10}", "$foreground-muted"),
    ]
    if live.status is FileStatus.LINK:
        parts.append((" ↪", "$text-warning bold"))
    if row.part is Part.CUT:
        parts.append((" ✂", "$text-warning bold"))
    if bootstrap is not None and bootstrap.decode_error:
        parts.append((" ✖", "$text-error bold"))
    if not muted and diff.file(name) is not None:
        parts.append((" Δ", "$text-accent bold"))
    return Content.assemble(*parts)


def _size(live: LiveFile, limit: int | None) -> str:
    if limit is None:
        return human_size(live.size)
    from notebook_app.core.memory.sections import store_usage  # lazy: the write path

    return f"{store_usage(live.text, limit).chars:,} chars"


class FileList(OptionList):
    """Picks the file shown below it; says which files the next session loads."""

    @dataclass
    class Chosen(Message):
        """The person moved to another file."""

        name: str

    def __init__(self, **kwargs) -> None:
        super().__init__(*(Option(name, id=name) for name in BOOTSTRAP_ORDER), **kwargs)
        self._prompts: dict[str, Content] = {}
        self.names: tuple[str, ...] = BOOTSTRAP_ORDER
        """The rows, in the host's load order."""

    def show_files(
        self,
        files: Mapping[str, LiveFile],
        loaded: Composition,
        diff: SoulDiff,
        rows: tuple[FileRow, ...],
        limits: Mapping[str, int] | None = None,
    ) -> None:
        """Replace only the rows that changed: each replacement repaints the list. ``limits``: Hermes's per store."""
        names = tuple(row.name for row in rows)
        if names != self.names:
            highlighted = self.names[self.highlighted] if self.highlighted is not None else None
            self.names = names
            self._prompts = {}
            self.set_options(Option(name, id=name) for name in names)
            if highlighted in names:
                self.highlighted = names.index(highlighted)
        width = max((len(row.name) + 1 for row in rows if row.part is Part.INSTRUCTIONS), default=NAME_WIDTH)
        width = max(width, NAME_WIDTH)
        for row in rows:
            prompt = file_prompt(row, files.get(row.name), loaded, diff, (limits or {}).get(row.name), width)
            if self._prompts.get(row.name) != prompt:
                self._prompts[row.name] = prompt
                self.replace_option_prompt(row.name, prompt)

    def select_file(self, name: str) -> None:
        if name in self.names:
            self.highlighted = self.names.index(name)

    @on(OptionList.OptionHighlighted)
    def _chosen(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.Chosen(event.option.id))
