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
        while same + block <= limit and a[end_a - same - block : end_a - same] == b[end_b - same - block : end_b - same]:
            same += block
        if block == 1:
            return same
        block = max(1, block // shrink)
