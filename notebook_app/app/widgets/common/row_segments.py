"""The segments of one drawn row: hidden characters' markers and find's highlights over the text."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from rich.segment import Segment
from rich.style import Style


def with_markers(shown: str, source: str, style: Style, hidden: Style) -> list[Segment]:
    """The row's text, each hidden character's marker (where ``shown`` differs from ``source``) in ``hidden``."""
    segments: list[Segment] = []
    run_start = 0
    for index in range(1, len(shown) + 1):
        if index == len(shown) or (shown[index] != source[index]) != (shown[run_start] != source[run_start]):
            marked = shown[run_start] != source[run_start]
            segments.append(Segment(shown[run_start:index], hidden if marked else style))
            run_start = index
    return segments


def highlighted(
    segments: list[Segment],
    matches: Sequence[tuple[int, int]],
    line: int,
    start: int,
    end: int,
    styles: tuple[Style, Style],
    on: tuple[int, int, int] | None,
) -> list[Segment]:
    """The row's segments (``start``–``end`` of ``line``) with find's ``matches`` styled over them.

    ``styles`` are (a match, the current match); ``on`` is the current match's (line, start, end).
    """
    spans = [(max(a, start), min(b, end)) for a, b in matches if a < end and b > start]
    if not spans:
        return segments
    found, current = styles
    out: list[Segment] = []
    at = start
    for segment in segments:
        text, seg_start = segment.text, at
        at += len(text)
        cuts = sorted({seg_start, at, *(x for span in spans for x in span if seg_start < x < at)})
        for left, right in pairwise(cuts):
            span = next((s for s in spans if s[0] <= left and right <= s[1]), None)
            style = segment.style
            if span is not None:
                is_current = on is not None and on[0] == line and on[1] <= left and right <= on[2]
                style = (style or Style()) + (current if is_current else found)
            out.append(Segment(text[left - seg_start : right - seg_start], style))
    return out
