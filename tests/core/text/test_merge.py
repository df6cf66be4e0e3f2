"""The three-way merge: both sides' changes kept, a conflict holds both, the end-of-file rule."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from notebook_app.core.memory.edits.hand_edit import keep_typing
from notebook_app.core.text.merge import Conflict, both, follow_line, merge3, mine, split_lines, theirs

BASE = "- a\n- b\n- c\n"


def test_changes_to_different_lines_both_apply() -> None:
    result = merge3(BASE, "- A\n- b\n- c\n", "- a\n- b\n- C\n")
    assert result.text == "- A\n- b\n- C\n"
    assert result.theirs_lines == 1


def test_the_same_change_on_both_sides_applies_once() -> None:
    assert merge3(BASE, "- a\n- B\n- c\n", "- a\n- B\n- c\n").text == "- a\n- B\n- c\n"


def test_different_changes_to_one_line_conflict_and_keep_both() -> None:
    result = merge3(BASE, "- a\n- agent\n- c\n", "- a\n- human\n- c\n")
    assert result.text is None
    assert result.conflicts == (Conflict(2, 2, ("- b\n",), ("- human\n",), ("- agent\n",)),)
    assert result.resolve(mine) == "- a\n- human\n- c\n"
    assert result.resolve(theirs) == "- a\n- agent\n- c\n"
    assert result.resolve(both) == "- a\n- agent\n- human\n- c\n"


def test_a_conflict_names_its_line_in_the_file_now() -> None:
    result = merge3(BASE, "- new\n- new 2\n- a\n- B\n- c\n", "- a\n- X\n- c\n")
    (conflict,) = result.conflicts
    assert (conflict.base_line, conflict.line) == (2, 4)


def test_insertions_at_the_end_conflict_in_other_files() -> None:
    result = merge3(BASE, BASE + "- agent\n", BASE + "- human\n")
    assert result.conflicts == (Conflict(4, 4, (), ("- human\n",), ("- agent\n",)),)


def test_insertions_at_the_end_in_entry_files_are_the_agents_then_the_humans() -> None:
    result = merge3(BASE, BASE + "- agent\n", BASE + "- human\n", end_inserts_both=True)
    assert result.text == BASE + "- agent\n- human\n"


def test_a_changed_last_entry_and_an_added_one_still_follow_the_agents_added_entry() -> None:
    result = merge3(BASE, BASE + "- agent\n", "- a\n- b\n- C\n- human\n", end_inserts_both=True)
    assert result.text == "- a\n- b\n- C\n- agent\n- human\n"


def test_end_insertions_after_a_last_line_without_ending_merge() -> None:
    base = "- a\n- b"
    result = merge3(base, base + "\n- agent\n", base + "\n- human", end_inserts_both=True)
    assert result.text == "- a\n- b\n- agent\n- human"


def test_lines_end_only_at_newline() -> None:
    assert split_lines("a\r\nb\x0cc\u2028d\ne") == ("a\r\n", "b\x0cc\u2028d\n", "e")
    assert "".join(split_lines("x\n\ny")) == "x\n\ny"


lines = st.lists(st.sampled_from(["- a\n", "- b\n", "- c\n", "- d\n", "\n", "- e"]), max_size=8)


def _edit(base: list[str], draw: st.DrawFn) -> list[str]:
    out = list(base)
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.integers(0, len(out)))
        if out and where < len(out) and draw(st.booleans()):
            del out[where]
        else:
            out.insert(where, draw(st.sampled_from(["- x\n", "- y\n", "- a\n", "- z"])))
    return out


@st.composite
def three_texts(draw: st.DrawFn) -> tuple[str, str, str]:
    base = draw(lines)
    return "".join(base), "".join(_edit(base, draw)), "".join(_edit(base, draw))


@settings(max_examples=300, deadline=None)
@given(three_texts(), st.booleans())
def test_merging_follows_the_sides_and_loses_no_line(texts: tuple[str, str, str], end_rule: bool) -> None:
    base, other, edit = texts
    assert merge3(base, edit, edit, end_inserts_both=end_rule).text == edit
    assert merge3(base, other, base, end_inserts_both=end_rule).text == other
    assert merge3(base, base, edit, end_inserts_both=end_rule).text == edit
    result = merge3(base, other, edit, end_inserts_both=end_rule)
    for conflict in result.conflicts:
        assert conflict.ours != conflict.theirs
    merged = Counter(result.resolve(both).replace("\n", "\n\0").split("\0"))
    for side in (other, edit):
        added = Counter(split_lines(side)) - Counter(split_lines(base))
        kept = Counter(line.rstrip("\n") for line in merged.elements())
        for line, count in added.items():
            assert kept[line.rstrip("\n")] >= count, (line, result)
    if result.clean:
        assert result.text is not None


def test_a_line_followed_through_a_merge_moves_with_the_lines_added_above_it() -> None:
    before = "# Notes\n\n- timezone: UTC\n- drafts on Mondays\n"
    after = "# Notes\n\n- moorings checked weekly\n- timezone: UTC\n- drafts on Mondays\n- kelp\n"
    assert [follow_line(before, after, row) for row in range(5)] == [0, 1, 3, 4, 6]


def test_typing_during_a_save_is_kept_in_what_the_save_wrote_unless_it_touches_what_the_merge_changed() -> None:
    sent = "a\nb\nc\nd\n"
    written = "a\nfrom the agent\nb\nc\nd\n"  # the save merged a line in above
    assert keep_typing("MEMORY.md", sent=sent, written=written, now=sent) == written
    assert keep_typing("MEMORY.md", sent=sent, written=sent, now="a\nb\nc\nd typed\n") == "a\nb\nc\nd typed\n"
    assert (
        keep_typing("MEMORY.md", sent=sent, written=written, now="a\nb\nc\nd typed\n")
        == "a\nfrom the agent\nb\nc\nd typed\n"
    )
    assert keep_typing("MEMORY.md", sent=sent, written="a\nb by the agent\nc\nd\n", now="a\nb typed\nc\nd\n") is None
