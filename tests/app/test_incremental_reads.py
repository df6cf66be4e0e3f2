"""Re-reading a file that grew builds the document from the kept lines: the same document as a fresh read."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from notebook_app.app.view_model.documents import Document, split_for_display, split_reusing
from notebook_app.app.view_model.live_files import LiveFile, read_live_file
from notebook_app.app.view_model.wrapping import wrap_rows
from notebook_app.core.home.soul import MAX_FILE_BYTES

PIECES = st.sampled_from(
    ["- entry", "# Heading", "", "\r", "\t", "\u200b", "\ufe0f", "\u200d", "é", "😀", "日本", "x" * 30, " "]
)
LINES = st.lists(st.lists(PIECES, max_size=5).map("".join), max_size=8)
BAD_BYTES = st.sampled_from([b"", b"\xff", b"\xe2\x82", b"\xc3"])


def _text(lines: list[str], end: bool) -> str:
    return "\n".join(lines) + ("\n" if end and lines else "")


def _same(grown: LiveFile | None, fresh: LiveFile | None) -> None:
    assert grown is not None and fresh is not None
    assert grown.text == fresh.text
    assert grown.digest == fresh.digest
    assert list(grown.document.lines) == list(fresh.document.lines)
    assert (None if grown.document.source is None else list(grown.document.source)) == (
        None if fresh.document.source is None else list(fresh.document.source)
    )
    assert dict(grown.document.marks) == dict(fresh.document.marks)
    assert dict(grown.document.banners) == dict(fresh.document.banners)
    assert grown.cut_line == fresh.cut_line


@settings(max_examples=150, deadline=None)
@given(LINES, st.booleans(), BAD_BYTES, LINES, st.booleans(), st.integers(0, 3))
@example(["# A", "- x", "# B"], True, b"", ["- y"], True, 0)
@example(["- a\tb", "- c\u200b"], False, b"", ["d", "# e"], False, 1)
def test_a_file_read_again_after_a_change_shows_what_a_fresh_read_shows(
    before: list[str], ended: bool, bad: bytes, added: list[str], added_ended: bool, cut: int
) -> None:
    """Appends (the memory tool's add), edits and truncations alike: only the bytes decide what is shown."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "MEMORY.md"
        old = _text(before, ended).encode() + bad
        path.write_bytes(old)
        previous = read_live_file(path)
        for new in (old + _text(added, added_ended).encode(), old[: len(old) - cut], b"# x\n" + old):
            path.write_bytes(new)
            _same(read_live_file(path, previous), read_live_file(path))


def test_an_append_past_the_cap_keeps_the_lines_and_moves_the_cut_banner(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    entry = "- an entry of some length that fills the file up to its cap\n"
    path.write_text(entry * (MAX_FILE_BYTES // len(entry)))
    previous = read_live_file(path)
    assert previous is not None and not previous.document.banners
    with path.open("a") as file:
        file.write("- one more entry that goes past the cap and is cut\n")
    grown, fresh = read_live_file(path, previous), read_live_file(path)
    _same(grown, fresh)
    assert grown is not None and grown.document.lines[: len(previous.document.lines)] == previous.document.lines


def test_rows_are_reused_up_to_a_banner_that_moved() -> None:
    lines = [f"- entry {i} with enough words to wrap at this width" for i in range(40)]
    before = wrap_rows(lines, 20, banners={30})
    for banners in ({30}, {35}, {10}, set()):
        grown = [*lines, "- appended"]
        assert wrap_rows(grown, 20, banners, previous=(before, lines, {30})) == wrap_rows(grown, 20, banners)


@settings(max_examples=300, deadline=None)
@given(LINES, LINES, LINES, LINES, st.booleans())
@example(["a"], ["x"], [], ["b"], True)
@example([], ["- a"], ["- a", "- b"], [], False)
@example([], [], [], ["😀\ufe0f"], False)  # a variation selector drawn as itself: no marker, so no source lines
def test_a_soul_split_again_around_an_edit_has_the_lines_of_a_fresh_split(
    head: list[str], old_middle: list[str], new_middle: list[str], tail: list[str], ended: bool
) -> None:
    """Only the lines between the shared head and tail are split again; the result is the whole split."""
    old_text = _text([*head, *old_middle, *tail], ended)
    new_text = _text([*head, *new_middle, *tail], ended)
    for before, after in ((old_text, new_text), (new_text, old_text), (old_text, old_text + "x\n")):
        lines, source = split_for_display(before)
        reused = split_reusing(before, Document(lines, source=source), after)
        fresh = split_for_display(after)
        assert (list(reused[0]), None if reused[1] is None else list(reused[1])) == (list(fresh[0]), fresh[1])
