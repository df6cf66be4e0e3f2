"""Documents: lines to draw, with marks, banners and the text's own lines. Pure, no Textual.

Every pane draws a :class:`Document`: a live file (:func:`file_document`) or
a soul beside the other side of its comparison (:func:`soul_document`).
Hidden characters are drawn as the core's markers, one for one, so offsets
in what is shown are offsets in the text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from ..core import Composition, SoulDiff
from ..core.hidden import with_markers

Side = Literal["current", "next"]


class Mark(StrEnum):
    """How a line is marked; the value names its style (``line-view--<value>``)."""

    HEADING = "heading"
    ADDED = "added"
    REMOVED = "removed"
    NOTICE = "notice"
    CONFLICT = "conflict"
    """A line of a conflict not resolved yet (the conflict view)."""

@dataclass(frozen=True)
class Document:
    """Lines to show, how some are marked, and banner rows after some lines."""

    lines: Sequence[str] = field(repr=False)
    marks: Mapping[int, Mark] = field(default_factory=dict, repr=False)
    """Line index -> how it is marked."""
    banners: Mapping[int, str] = field(default_factory=dict)
    source: Sequence[str] | None = field(default=None, repr=False)
    """The text's own lines, when hidden characters drawn as markers made ``lines`` differ."""

    def text_of(self, index: int) -> str:
        return (self.source if self.source is not None else self.lines)[index]


EMPTY = Document(())


def lines_of(document: Document) -> tuple[Sequence[str], Sequence[str] | None]:
    """A document's lines and source, to build another document of the same text without splitting it again."""
    return document.lines, document.source


def split_for_display(text: str) -> tuple[list[str], list[str] | None]:
    """Lines to draw (hidden characters as markers) and, when they differ, the text's own lines."""
    shown = with_markers(text)
    return shown.split("\n"), (text.split("\n") if shown is not text else None)


def file_document(text: str, banners: Mapping[int, str] | None = None) -> Document:
    """A live file's lines, headings marked, banners after some lines."""
    lines, source = split_for_display(text)
    if len(lines) > 1 and not lines[-1]:
        lines.pop()  # the final newline ends the last line; it is not a line of its own
        if source is not None:
            source.pop()
    marks = {index: Mark.HEADING for index, line in enumerate(lines) if line.startswith("#")}
    return Document(lines, marks, dict(banners or {}), source)


def soul_document(
    composition: Composition, diff: SoulDiff, side: Side, lines: tuple[Sequence[str], Sequence[str] | None] | None = None
) -> Document:
    """A soul's lines with each file's heading marked and, on ``side``, its diff.

    Pass ``lines`` (the lines and source of an earlier document of the same
    soul) to share them: a view then only re-marks its rows instead of
    wrapping them again.
    """
    soul = composition.soul
    if lines is not None:
        lines, source = lines
    elif soul:
        lines, source = split_for_display(soul)
    else:
        lines, source = [], None
    marks: dict[int, Mark] = {}
    kind = Mark.REMOVED if side == "current" else Mark.ADDED
    for section in composition.sections:
        marks[section.heading_line] = Mark.HEADING
        if section.notice_line is not None:
            marks[section.notice_line] = Mark.NOTICE
        file_diff = diff.file(section.name)
        if file_diff is not None:
            if file_diff.status == ("removed" if side == "current" else "added"):
                marks[section.heading_line] = kind
            for index, _ in file_diff.removed if side == "current" else file_diff.added:
                marks[section.first_body_line + index] = kind
    return Document(lines, marks, source=source)
