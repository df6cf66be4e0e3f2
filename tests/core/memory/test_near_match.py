"""A miss that only hidden characters cause is found near, and named: one rule for the CLI and the form."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from notebook_app.core.memory.plan import near_words
from notebook_app.core.text.hidden import near_match, strip_hidden

HIDDEN = st.sampled_from(["\u200b", "\u200c", "\u2060", "\ufeff", "\u202e", "\u00ad", "\x07"])
WORDS = st.text(alphabet="abc xyz-", min_size=1, max_size=30).filter(lambda t: t.strip())


@given(before=WORDS, sought=WORDS, after=WORDS, data=st.data())
def test_hidden_characters_put_into_the_file_leave_the_text_a_near_match_spanning_them(
    before: str, sought: str, after: str, data: st.DataObject
) -> None:
    at = data.draw(st.integers(0, len(sought)))
    planted = sought[:at] + data.draw(HIDDEN) + sought[at:]
    text = before + planted + after
    found = near_match(sought, text)
    if sought in text:  # the plant did not make it a miss: nothing to explain
        assert found is None
        return
    assert found is not None
    span = text[found.start : found.end]
    assert strip_hidden(span) == sought and span[0] == sought[0] and span[-1] == sought[-1]
    assert found.in_text and not found.in_sought  # the file holds what the person could not see


def test_the_words_name_the_line_the_text_as_drawn_and_which_side_holds_what() -> None:
    text = "# Notes\n- tea\tat 4\n- kelp\u200b survey\n"
    assert near_words("tea at 4", text, "MEMORY.md") == (
        "near match on line 2 of MEMORY.md: “tea→at 4”, the same but for U+0009 CHARACTER TABULATION in the file"
    )
    assert near_words("kelp survey\u2060", text, "USER.md") == (
        "near match on line 3 of USER.md: “kelp∙ survey”, the same but for U+200B ZERO WIDTH SPACE in the file "
        "and U+2060 WORD JOINER in your text"
    )
    assert near_words("coffee", text, "MEMORY.md") is None
    assert near_words("tea at 5", text, "MEMORY.md") is None
    assert near_words("\u200b", text, "MEMORY.md") is None  # nothing a reader sees was sought
