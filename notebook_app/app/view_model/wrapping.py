"""Soft-wrapping long lines into screen rows, fast enough for 70k lines.

Pure functions: a view wraps only when its width or its lines change, in a
worker when the document is large, and then renders just the visible rows.
"""

from __future__ import annotations

from array import array
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rich.cells import cell_len, get_character_cell_size

from notebook_app.core.text.common_runs import common_prefix

BANNER = -1
"""A row's ``start`` when it shows the banner after its line, not line text."""


@dataclass(frozen=True)
class Rows:
    """The screen rows of a wrapped document: row i shows ``line[start:end]``."""

    line: array
    start: array
    end: array
    width: int

    def __len__(self) -> int:
        return len(self.line)

    def first_row_of(self, line: int) -> int:
        """The first row that shows ``line`` (rows are sorted by line)."""
        lo, hi = 0, len(self.line)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.line[mid] < line:
                lo = mid + 1
            else:
                hi = mid
        return lo


def _fit(line: str, start: int, width: int) -> int:
    """The largest end such that ``line[start:end]`` fits ``width`` cells (at least one character)."""
    cells = 0
    end = start
    for char in line[start:]:
        cells += get_character_cell_size(char)
        if cells > width and end > start:
            break
        end += 1
    return end


NO_ROW_START = frozenset(
    "、。，．・：；？！‼⁇⁈⁉ー～」』）〕］｝〉》】〙〗〟ゝゞヽヾ々ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ,.:;!?)]}…‥%‰"
)
"""Closing punctuation and small kana that Japanese and Chinese line breaking never put at a row's start."""
NO_ROW_END = frozenset("「『（〔［｛〈《【〘〖〝([{")
"""Opening brackets, never left alone at a row's end."""


def _kinsoku(line: str, start: int, end: int) -> int:
    """Move a break with no space near it back, so the next row does not begin with ``。`` nor this one end with ``「``.

    At most a few characters go down with it, and never the whole row.
    """
    cut = end
    while cut - start > 1 and (line[cut] in NO_ROW_START or line[cut - 1] in NO_ROW_END) and end - cut < 4:
        cut -= 1
    return cut if line[cut] not in NO_ROW_START and line[cut - 1] not in NO_ROW_END else end


def hanging_indent(line: str) -> int:
    """Cells to indent the wrapped rows of ``line``: a bullet's text lines up after its ``- ``."""
    return 2 if line.startswith("- ") else 0


def split_line(line: str, width: int) -> list[tuple[int, int]]:
    """Cut one line into spans of at most ``width`` cells, breaking after spaces when it can.

    Rows after the first are ``hanging_indent`` cells narrower.
    """
    width = max(1, width)
    ascii_only = line.isascii()
    spans: list[tuple[int, int]] = []
    start, length = 0, len(line)
    indent = hanging_indent(line) if width > 8 else 0
    while start < length:
        room = width - indent if spans else width
        end = min(length, start + room) if ascii_only else _fit(line, start, room)
        if end < length:
            if line[end] == " ":
                end += 1  # a space right at the edge ends the row; it need not show
            else:
                space = line.rfind(" ", start, end)
                if space > start:
                    end = space + 1
                elif not ascii_only:
                    end = _kinsoku(line, start, end)
        spans.append((start, end))
        start = end
    return spans or [(0, 0)]


def common_lines(old: Sequence[str], new: Sequence[str]) -> int:
    """How many leading lines ``old`` and ``new`` share (shared lines are one object, so blocks compare fast)."""
    return common_prefix(old, new, block=4096, shrink=8)


def wrap_rows(
    lines: Sequence[str],
    width: int,
    banners: Collection[int] = (),
    previous: tuple[Rows, Sequence[str]] | tuple[Rows, Sequence[str], Collection[int]] | None = None,
) -> Rows:
    """Wrap every line to ``width`` cells; a line in ``banners`` gets one extra row after it.

    ``previous`` (rows, the lines they were wrapped from and, when they
    differ, the banners they had; same width) lets the unchanged leading
    lines keep their rows: an entry appended to a 2 MiB file costs one
    comparison pass, not a full wrap. A banner that appeared or went among
    those lines adds or drops its one row; the rows around it are copied, not
    wrapped again (the conflict view moves its banner at every key).
    """
    width = max(1, width)
    rows_line, rows_start, rows_end = array("l"), array("l"), array("l")
    first = 0
    if previous is not None and previous[0].width == width:
        old_rows, old_lines = previous[0], previous[1]
        first = common_lines(old_lines, lines)
        old_banners = set(previous[2]) if len(previous) > 2 else set(banners)
        kept_from = 0  # the old row from which rows are still to be copied
        for moved in sorted(line for line in old_banners.symmetric_difference(banners) if line < first):
            upto = old_rows.first_row_of(moved + 1) - (1 if moved in old_banners else 0)
            rows_line += old_rows.line[kept_from:upto]
            rows_start += old_rows.start[kept_from:upto]
            rows_end += old_rows.end[kept_from:upto]
            if moved in banners:
                rows_line.append(moved)
                rows_start.append(BANNER)
                rows_end.append(BANNER)
            kept_from = old_rows.first_row_of(moved + 1)
        keep = old_rows.first_row_of(first)
        rows_line += old_rows.line[kept_from:keep]
        rows_start += old_rows.start[kept_from:keep]
        rows_end += old_rows.end[kept_from:keep]
    for index in range(first, len(lines)):
        line = lines[index]
        length = len(line)
        if length <= width and (line.isascii() or cell_len(line) <= width):
            rows_line.append(index)
            rows_start.append(0)
            rows_end.append(length)
        else:
            for start, end in split_line(line, width):
                rows_line.append(index)
                rows_start.append(start)
                rows_end.append(end)
        if banners and index in banners:
            rows_line.append(index)
            rows_start.append(BANNER)
            rows_end.append(BANNER)
    return Rows(rows_line, rows_start, rows_end, width)
