"""The files the host loads, in its order (toolnexus: the seven bootstrap files), each marked present or absent."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from textual import on
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ....core import BOOTSTRAP_ORDER, Composition, SoulDiff
from ....core.home import FileStatus
from ...view_model.live_files import LiveFile


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


def file_prompt(name: str, live: LiveFile | None, loaded: Composition, diff: SoulDiff) -> Content:
    """One row: presence, name, size, then flags for link, cut, not UTF-8 and changed."""
    if live is None:
        return Content.assemble(
            ("○ ", "$foreground-muted"), (f"{name:<13}", "$foreground-muted"), ("absent", "$foreground-muted italic")
        )
    if not live.loads:
        return Content.assemble(("⊘ ", "$text-error bold"), f"{name:<13}", (short_state(live), "$text-error"))
    bootstrap = loaded.file(name)
    parts: list[str | tuple[str, str]] = [
        ("● ", "$text-success"),
        f"{name:<13}",
        (f"{human_size(live.size):>10}", "$foreground-muted"),
    ]
    if live.status is FileStatus.LINK:
        parts.append((" ↪", "$text-warning bold"))
    if live.dropped_bytes:
        parts.append((" ✂", "$text-warning bold"))
    if bootstrap is not None and bootstrap.decode_error:
        parts.append((" ✖", "$text-error bold"))
    if diff.file(name) is not None:
        parts.append((" Δ", "$text-accent bold"))
    return Content.assemble(*parts)


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
        self, files: Mapping[str, LiveFile], loaded: Composition, diff: SoulDiff, names: tuple[str, ...] | None = None
    ) -> None:
        """Replace only the rows that changed: each replacement repaints the list. ``names``: the host's files."""
        if names is not None and names != self.names:
            highlighted = self.names[self.highlighted] if self.highlighted is not None else None
            self.names = names
            self._prompts = {}
            self.set_options(Option(name, id=name) for name in names)
            if highlighted in names:
                self.highlighted = names.index(highlighted)
        for name in self.names:
            prompt = file_prompt(name, files.get(name), loaded, diff)
            if self._prompts.get(name) != prompt:
                self._prompts[name] = prompt
                self.replace_option_prompt(name, prompt)

    def select_file(self, name: str) -> None:
        if name in self.names:
            self.highlighted = self.names.index(name)

    @on(OptionList.OptionHighlighted)
    def _chosen(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.Chosen(event.option.id))
