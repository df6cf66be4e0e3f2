"""Find across a home's texts: places in order, lines and columns, smart case, hidden characters by marker."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from notebook_app.core.home.search import Hit, Query, find, offset_at, prepare, search


def spans(hits: list[Hit]) -> list[tuple[str, int, int, int]]:
    return [(hit.place, hit.line, hit.start, hit.end) for hit in hits]


def test_matches_come_place_by_place_with_their_line_and_column_span() -> None:
    texts = [("SOUL.md", "# Wren\ncurious about tides\n"), ("MEMORY.md", "- tide tables\n- no\n- TIDE times, tide\n")]
    assert spans(search(texts, "tide")) == [
        ("SOUL.md", 1, 14, 18),
        ("MEMORY.md", 0, 2, 6),
        ("MEMORY.md", 2, 2, 6),
        ("MEMORY.md", 2, 14, 18),
    ]


def test_the_count_and_the_number_of_each_match() -> None:
    found = find(prepare([("a", "x x\nx"), ("b", ""), ("c", "xx")]), "x")
    assert found is not None and found.count == 5 and found.counts == (3, 0, 2)
    hits = search([("a", "x x\nx"), ("b", ""), ("c", "xx")], "x")
    assert [found.ordinal(hit) for hit in hits] == [1, 2, 3, 4, 5]


def test_a_lower_case_query_ignores_case_and_a_capital_makes_it_exact() -> None:
    texts = [("MEMORY.md", "Tide\ntide\nTIDE\n")]
    assert [hit.line for hit in search(texts, "tide")] == [0, 1, 2]
    assert [hit.line for hit in search(texts, "Tide")] == [0]
    assert [hit.line for hit in search(texts, "TIDE")] == [2]


def test_folding_keeps_offsets_when_a_letter_lowers_to_two_characters() -> None:
    # "İ".lower() is two characters: columns after it must still be the text's own
    hits = search([("USER.md", "İstanbul and tide\n")], "tide")
    assert spans(hits) == [("USER.md", 0, 13, 17)]


def test_typing_a_marker_finds_the_hidden_character_it_stands_for() -> None:
    text = "- a\ttab\n- zero\u200bwidth\n- bidi\u202eflip\n- cr\r\n- nul\x00here\n"
    texts = [("MEMORY.md", text)]
    assert spans(search(texts, "→")) == [("MEMORY.md", 0, 3, 4)]
    assert spans(search(texts, "∙")) == [("MEMORY.md", 1, 6, 7)]
    assert spans(search(texts, "⇆")) == [("MEMORY.md", 2, 6, 7)]
    assert spans(search(texts, "␍")) == [("MEMORY.md", 3, 4, 5)]
    assert spans(search(texts, "␀")) == [("MEMORY.md", 4, 5, 6)]
    assert spans(search(texts, "zero∙width")) == [("MEMORY.md", 1, 2, 12)]


def test_pasting_the_hidden_character_itself_finds_it() -> None:
    assert spans(search([("MEMORY.md", "a\u200bb\n")], "a\u200bb")) == [("MEMORY.md", 0, 0, 3)]


def test_a_plain_query_never_matches_a_hidden_character() -> None:
    assert search([("MEMORY.md", "zero\u200bwidth\n")], "zerowidth") == []


def test_an_empty_or_multi_line_query_finds_nothing() -> None:
    texts = prepare([("SOUL.md", "a\nb\n")])
    assert find(texts, "") is None
    assert find(texts, "a\nb") is None


def test_matches_do_not_overlap_and_stepping_back_agrees_with_stepping_forward() -> None:
    found = find(prepare([("a", "aaaaa"), ("b", "aaa")]), "aa")
    assert found is not None and found.count == 3
    forward = search([("a", "aaaaa"), ("b", "aaa")], "aa")
    assert spans(forward) == [("a", 0, 0, 2), ("a", 0, 2, 4), ("b", 0, 0, 2)]
    backward = [found.previous(forward[0])]
    while len(backward) < 3:
        backward.append(found.previous(backward[-1]))
    assert backward == [forward[2], forward[1], forward[0]]


def test_next_after_the_last_is_the_first_and_previous_before_the_first_is_the_last() -> None:
    texts = [("SOUL.md", "kelp\n"), ("MEMORY.md", "no\nkelp\n")]
    found = find(prepare(texts), "kelp")
    assert found is not None
    first, last = search(texts, "kelp")
    assert found.next(last) == first
    assert found.previous(first) == last


def test_searching_from_a_place_starts_there_and_wraps_round() -> None:
    texts = [("SOUL.md", "kelp\n"), ("MEMORY.md", "kelp\n"), ("next", "no\n")]
    found = find(prepare(texts), "kelp")
    assert found is not None
    assert found.at_or_after("MEMORY.md", 0).place == "MEMORY.md"
    assert found.at_or_after("MEMORY.md", 1).place == "SOUL.md"
    assert found.at_or_after("next", 0).place == "SOUL.md"


def test_a_query_gives_the_spans_a_view_draws_on_one_shown_line() -> None:
    query = Query.of("ab")
    assert query is not None
    assert query.spans("xAbyab") == [(1, 3), (4, 6)]
    assert Query.of("Ab").spans("xAbyab") == [(1, 3)]
    assert Query.of("→").spans("a→b") == [(1, 2)]


def test_prepared_texts_are_reused_while_they_are_the_same_objects() -> None:
    soul, memory = "# Wren\n", "- kelp\n"
    first = prepare([("SOUL.md", soul), ("MEMORY.md", memory)])
    again = prepare([("SOUL.md", soul), ("MEMORY.md", "- kelp, tides\n")], first)
    assert again[0] is first[0] and again[1] is not first[1]


@given(
    st.lists(st.text(alphabet="ab\n\t\u200bAB", max_size=30), min_size=1, max_size=4),
    st.text(alphabet="abAB→∙", min_size=1, max_size=3),
)
def test_every_match_is_where_the_shown_text_holds_the_query(texts: list[str], typed: str) -> None:
    from notebook_app.core.text.hidden import with_markers

    places = [(f"f{i}", text) for i, text in enumerate(texts)]
    hits = search(places, typed)
    found = find(prepare(places), typed)
    assert found is not None and len(hits) == found.count
    folds = typed == typed.lower()
    for hit in hits:
        line = with_markers(dict(places)[hit.place]).split("\n")[hit.line]
        piece = line[hit.start : hit.end]
        assert (piece.lower() == typed.lower()) if folds else (piece == typed)
    for place, text in places:
        shown = with_markers(text)
        expected = (shown.lower() if folds else shown).count(typed.lower() if folds else typed)
        assert sum(1 for hit in hits if hit.place == place) == expected


def test_offset_at_turns_an_editors_line_and_column_into_an_offset_clamped_to_the_text() -> None:
    text = "ab\ncde\n\nf"
    assert [offset_at(text, 0, 0), offset_at(text, 1, 2), offset_at(text, 2, 0), offset_at(text, 3, 1)] == [0, 5, 7, 9]
    assert offset_at(text, 0, 99) == 2  # past a line's end: its end, not the next line
    assert offset_at(text, 99, 0) == len(text)


@given(st.text(alphabet="ab\n", max_size=30), st.data())
def test_offset_at_lands_on_the_line_and_column_a_hit_reports(text: str, data: st.DataObject) -> None:
    lines = text.split("\n")
    line = data.draw(st.integers(0, len(lines) - 1))
    column = data.draw(st.integers(0, len(lines[line])))
    offset = offset_at(text, line, column)
    assert text.count("\n", 0, offset) == line and offset - (text.rfind("\n", 0, offset) + 1) == column
