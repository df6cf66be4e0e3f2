"""The shared start and end of two texts, found in strides, agree with a plain item-by-item count."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from notebook_app.core.text.common_runs import common_prefix, common_suffix


def naive_prefix(a, b) -> int:
    same = 0
    while same < min(len(a), len(b)) and a[same] == b[same]:
        same += 1
    return same


def naive_suffix(a, b, limit: int) -> int:
    same = 0
    while same < limit and a[len(a) - same - 1] == b[len(b) - same - 1]:
        same += 1
    return same


texts = st.text(alphabet="ab\n", max_size=300)


@given(texts, texts, st.sampled_from([(1 << 16, 16), (8, 2), (10, 4), (3, 3)]))
def test_prefix_and_suffix_match_an_item_by_item_count_for_str_bytes_and_lists(
    a: str, b: str, stride: tuple[int, int]
) -> None:
    block, shrink = stride
    for x, y in ((a, b), (a.encode(), b.encode()), (a.split("\n"), b.split("\n"))):
        assert common_prefix(x, y, block=block, shrink=shrink) == naive_prefix(x, y)
        room = min(len(x), len(y)) - naive_prefix(x, y)
        assert common_suffix(x, y, room, block=block, shrink=shrink) == naive_suffix(x, y, room)


def test_a_long_shared_start_is_found_across_block_boundaries() -> None:
    base = "x" * 200_000
    assert common_prefix(base + "a", base + "b") == 200_000
    assert common_suffix("a" + base, "b" + base, 200_001) == 200_000
    assert common_suffix("a" + base, "b" + base, 150_000) == 150_000
