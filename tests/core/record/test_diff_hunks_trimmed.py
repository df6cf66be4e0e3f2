"""diff_hunks trims the common head and tail on the bytes: the hunks are the ones a line-by-line trim gives."""

from __future__ import annotations

import difflib

from hypothesis import example, given, settings
from hypothesis import strategies as st

from notebook_app.core.record.log.replay import _split_lf, diff_hunks, hunk

LINE = st.sampled_from([b"a\n", b"b\n", b"- entry\n", b"\n", b"x", b"b", b"c\r\n", b"\r", b"ab\n", b"a"])
CONTENT = st.lists(LINE, max_size=12).map(b"".join)


def line_by_line(before: bytes, after: bytes) -> tuple:
    """The trim as diff_hunks did it before: split both whole, then compare line by line."""
    if before == after:
        return ()
    old = before.splitlines(keepends=True) if b"\r" not in before else _split_lf(before)
    new = after.splitlines(keepends=True) if b"\r" not in after else _split_lf(after)
    head = 0
    while head < len(old) and head < len(new) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < len(old) - head and tail < len(new) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    starts = [0]
    for piece in old:
        starts.append(starts[-1] + len(piece))
    matcher = difflib.SequenceMatcher(None, old[head : len(old) - tail], new[head : len(new) - tail], autojunk=False)
    return tuple(
        hunk(before, starts[head + i1], b"".join(old[head + i1 : head + i2]), b"".join(new[head + j1 : head + j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    )


@settings(max_examples=400, deadline=None)
@given(CONTENT, CONTENT, CONTENT, CONTENT)
@example(b"A\n", b"X\nB\n", b"", b"B\n")
@example(b"A\nB", b"", b"\nC", b"")
@example(b"", b"b\n", b"b\nb\n", b"")
def test_hunks_match_a_line_by_line_trim(head: bytes, old_middle: bytes, new_middle: bytes, tail: bytes) -> None:
    before, after = head + old_middle + tail, head + new_middle + tail
    assert diff_hunks(before, after) == line_by_line(before, after)
    assert diff_hunks(after, before) == line_by_line(after, before)


def test_an_append_to_a_large_file_is_one_hunk_at_its_end() -> None:
    before = b"".join(b"- entry %d\n" % i for i in range(70_000))
    after = before + b"- appended\n"
    assert diff_hunks(before, after) == line_by_line(before, after)
    (only,) = diff_hunks(before, after)
    assert only.at == len(before) and only.line == 70_001
