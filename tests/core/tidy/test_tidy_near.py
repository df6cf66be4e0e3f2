"""The blocked near-duplicate search finds exactly the pairs the all-pairs one does, and agrees with rapidfuzz."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from notebook_app.core.tidy.near import naive_pairs, near_pairs, qualifies, words

VOCABULARY = ["tea", "green", "kelp", "otter", "port", "8080", "8081", "morning", "milk", "abcdefghij", "abcdefghik"]
WORD = st.one_of(st.sampled_from(VOCABULARY), st.text("abcdefg", min_size=1, max_size=9))
ENTRY = st.lists(WORD, min_size=0, max_size=8).map(" ".join)
# words of every length, so the rule that a long word must be shared decides some pairs
LONG = st.one_of(WORD, st.sampled_from(["a", "bb", "ffffffffffff", "kelpforestotters"]))


@settings(max_examples=300, deadline=None)
@given(st.lists(ENTRY, min_size=0, max_size=40))
def test_the_blocked_search_finds_the_same_pairs_as_all_pairs(entries: list[str]) -> None:
    sets = [words(text) for text in entries]
    assert near_pairs(sets) == naive_pairs(sets)


@st.composite
def reworded(draw: st.DrawFn) -> list[str]:
    """Entries and rewordings of them: one word dropped, one added, or both, so near pairs are common."""
    entries = draw(st.lists(st.lists(LONG, max_size=9).map(" ".join), min_size=1, max_size=25))
    for _ in range(draw(st.integers(0, 15))):
        parts = draw(st.sampled_from(entries)).split()
        if parts and draw(st.booleans()):
            parts.pop(draw(st.integers(0, len(parts) - 1)))
        if draw(st.booleans()):
            parts.insert(draw(st.integers(0, len(parts))), draw(LONG))
        entries.append(" ".join(parts))
    return entries


@settings(max_examples=600, deadline=None)
@given(reworded())
def test_the_blocked_search_finds_every_rewording_the_all_pairs_search_finds(entries: list[str]) -> None:
    sets = [words(text) for text in entries]
    assert near_pairs(sets) == naive_pairs(sets)


@settings(max_examples=500, deadline=None)
@given(ENTRY, ENTRY)
def test_a_qualifying_pair_scores_at_least_90_with_rapidfuzz(a: str, b: str) -> None:
    x, y = words(a), words(b)
    if qualifies(x, y):
        assert fuzz.token_set_ratio(" ".join(sorted(x)), " ".join(sorted(y))) >= 90


def test_words_fold_case_strip_punctuation_and_stop_words_but_keep_negations() -> None:
    assert words("She PREFERS the Tea, with milk!") == {"prefers", "tea", "milk"}
    assert words("does not like tea") == {"like", "tea", "not"}
    assert words("lights on") != words("lights off")


def test_two_facts_differing_in_a_number_are_not_near_duplicates_though_rapidfuzz_scores_them_94() -> None:
    a, b = words("server port is 8080"), words("server port is 8081")
    assert fuzz.token_set_ratio(" ".join(sorted(a)), " ".join(sorted(b))) >= 90
    assert not qualifies(a, b)
    assert near_pairs([a, b]) == set()


def test_one_entry_whose_words_are_all_in_another_is_its_near_duplicate() -> None:
    sets = [words("prefers tea"), words("kelp papers on Monday"), words("Prefers tea in the morning")]
    assert near_pairs(sets) == naive_pairs(sets) == {(0, 2)}
