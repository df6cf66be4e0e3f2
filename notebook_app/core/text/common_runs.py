"""How much two sequences share at their start or end, found in big strides.

A write changes a small part of a large text; the diff, the re-split of a
document and the re-wrap of a pane all start by skipping what the old and the
new share. Comparing a block at a time (then smaller blocks) keeps that in
C-speed slice comparisons instead of a Python loop per item. Works on str,
bytes and lists alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

BLOCK = 1 << 16
SHRINK = 16


def common_prefix(a: Sequence[Any], b: Sequence[Any], *, block: int = BLOCK, shrink: int = SHRINK) -> int:
    """How many leading items ``a`` and ``b`` share."""
    limit, same = min(len(a), len(b)), 0
    while True:
        while same + block <= limit and a[same : same + block] == b[same : same + block]:
            same += block
        if block == 1:
            return same
        block = max(1, block // shrink)


def common_suffix(a: Sequence[Any], b: Sequence[Any], limit: int, *, block: int = BLOCK, shrink: int = SHRINK) -> int:
    """How many trailing items ``a`` and ``b`` share, at most ``limit``."""
    same, end_a, end_b = 0, len(a), len(b)
    while True:
        while (
            same + block <= limit and a[end_a - same - block : end_a - same] == b[end_b - same - block : end_b - same]
        ):
            same += block
        if block == 1:
            return same
        block = max(1, block // shrink)


def differing_excerpts(a: str, b: str, limit: int = 50, *, context: int = 12) -> tuple[str, str]:
    """``a`` and ``b`` cut to at most ``limit`` characters each around where they differ, ``…`` where cut.

    Cutting both at the same place showed a replace as ``"…him …" → "…him …"``:
    each side keeps a little of what they share before the change, then what changed.
    """
    if len(a) <= limit and len(b) <= limit:
        return a, b
    start = max(0, common_prefix(a, b, block=64, shrink=8) - context)
    space = a.rfind(" ", max(0, start - context), start)
    start = space + 1 if space >= 0 else start  # begin at a word
    return _excerpt(a, start, limit), _excerpt(b, start, limit)


def _excerpt(text: str, start: int, limit: int) -> str:
    head = "…" if start else ""
    body = text[start:]
    return head + (body if len(body) <= limit else body[:limit] + "…")
