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

from notebook_app.core.home.soul import Composition
from notebook_app.core.sessions.snapshot import SoulDiff
from notebook_app.core.text.common_runs import common_prefix, common_suffix
from notebook_app.core.text.hidden import with_markers

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
    first_change: int | None = None
    """A soul's line where its comparison first differs, marked or not (on the side without the added lines,
    where they would be): both sides are shown there first. None: a document that is not a soul's side."""

    def text_of(self, index: int) -> str:
        return (self.source if self.source is not None else self.lines)[index]


EMPTY = Document(())


def lines_of(document: Document) -> tuple[Sequence[str], Sequence[str] | None]:
    """A document's lines and source, to build another document of the same text without splitting it again."""
    return document.lines, document.source


def split_for_display(text: str) -> tuple[list[str], list[str] | None]:
    """Lines to draw (hidden characters as markers) and, when they differ, the text's own lines.

    A carriage return that ends a line (CRLF) is drawn as a blank, not ``␍``:
    the file's summary says its line ending once. A lone one is still marked.
    """
    shown = with_markers(text.replace("\r\n", " \n") if "\r\n" in text else text)
    return shown.split("\n"), (text.split("\n") if shown is not text and shown != text else None)


def split_reusing(old_text: str, old: Document, text: str) -> tuple[Sequence[str], Sequence[str] | None]:
    """:func:`split_for_display` of ``text``, reusing the lines of ``old`` (a soul document of ``old_text``)
    before and after the part that changed.

    An edit changes a soul in one place: only the lines between the shared
    head and the shared tail are split and drawn again (hidden characters are
    drawn line by line, so kept lines are drawn as before).
    """
    old_lines = old.lines
    if not old_text or not text or len(old_lines) != old_text.count("\n") + 1:
        return split_for_display(text)
    start = old_text.rfind("\n", 0, common_prefix(old_text, text)) + 1
    kept_head = old_text.count("\n", 0, start)
    back = common_suffix(old_text, text, min(len(old_text), len(text)) - start)
    tail_old, tail_new = len(old_text) - back, len(text) - back
    if not back or not (_starts_line(old_text, tail_old, start) and _starts_line(text, tail_new, start)):
        newline = old_text.find("\n", tail_old) if back else -1  # the first line wholly inside the shared tail
        tail_old, tail_new = (newline + 1, newline + 1 - len(old_text) + len(text)) if newline >= 0 else (-1, -1)
    if tail_old < 0:
        middle, middle_source = split_for_display(text[start:])
        kept: Sequence[str] = ()
        kept_source: Sequence[str] = ()
    else:
        middle, middle_source = split_for_display(text[start:tail_new])
        middle = middle[:-1]  # the piece ends a line: its last "" is the first kept line
        middle_source = middle_source[:-1] if middle_source is not None else None
        first_kept = old_text.count("\n", 0, tail_old)
        kept = old_lines[first_kept:]
        kept_source = (old.source if old.source is not None else old_lines)[first_kept:]
    lines = [*old_lines[:kept_head], *middle, *kept]
    if middle_source is None and old.source is None:
        return lines, None
    source = old.source if old.source is not None else old_lines
    raw = [*source[:kept_head], *(middle_source if middle_source is not None else middle), *kept_source]
    return lines, None if raw == lines else raw


def _starts_line(text: str, at: int, start: int) -> bool:
    return at == start or text[at - 1] == "\n"


def file_document(text: str, banners: Mapping[int, str] | None = None) -> Document:
    """A live file's lines, headings marked, banners after some lines."""
    return extend_file_document(EMPTY, 0, text, banners)


def extend_file_document(old: Document, kept: int, tail: str, banners: Mapping[int, str] | None = None) -> Document:
    """:func:`file_document` of the first ``kept`` lines of ``old`` (each ended by a newline) followed by ``tail``.

    An entry appended to a 2 MiB file then costs the new lines, not a pass
    over the whole text: hidden characters are drawn line by line, so the
    kept lines are drawn as before.
    """
    tail_lines, tail_source = split_for_display(tail)
    lines = [*old.lines[:kept], *tail_lines] if kept else tail_lines
    source = None
    if tail_source is not None or (kept and old.source is not None):
        source = [
            *(old.source if old.source is not None else old.lines)[:kept],
            *(tail_source if tail_source is not None else tail_lines),
        ]
    if len(lines) > 1 and not lines[-1]:
        lines.pop()  # the final newline ends the last line; it is not a line of its own
        if source is not None:
            source.pop()
    if source == lines:
        source = None  # the hidden characters were in the lines that went
    marks = {index: mark for index, mark in old.marks.items() if index < kept and mark is Mark.HEADING}
    marks.update((index, Mark.HEADING) for index in range(kept, len(lines)) if lines[index].startswith("#"))
    return Document(lines, marks, dict(banners or {}), source)


def soul_document(
    composition: Composition,
    diff: SoulDiff,
    side: Side,
    lines: tuple[Sequence[str], Sequence[str] | None] | None = None,
) -> Document:
    """A soul's lines with each file's heading marked and, on ``side``, its diff.

    Pass ``lines`` (the lines and source of an earlier document of the same
    soul) to share them: a view then only re-marks its rows instead of
    wrapping them again.
    """
    soul = composition.soul
    rows: Sequence[str]
    source: Sequence[str] | None
    if lines is not None:
        rows, source = lines
    elif soul:
        rows, source = split_for_display(soul)
    else:
        rows, source = [], None
    marks: dict[int, Mark] = {}
    kind = Mark.REMOVED if side == "current" else Mark.ADDED
    first_change: int | None = None
    for section in composition.sections:
        marks[section.heading_line] = Mark.HEADING
        if section.notice_line is not None:
            marks[section.notice_line] = Mark.NOTICE
        file_diff = diff.file(section.name)
        if file_diff is not None:
            if file_diff.status == ("removed" if side == "current" else "added"):
                marks[section.heading_line] = kind
                at: int | None = section.heading_line
            else:  # the bodies share every line above the first change: its index is the same on both sides
                index = min((index for index, _ in (*file_diff.removed, *file_diff.added)), default=None)
                at = None if index is None else section.first_body_line + index
            for index, _ in file_diff.removed if side == "current" else file_diff.added:
                marks[section.first_body_line + index] = kind
            if first_change is None and at is not None and rows:
                first_change = min(at, len(rows) - 1)
    return Document(rows, marks, source=source, first_change=first_change)
