"""Near-duplicate entries: rapidfuzz's ``token_set_ratio`` ≥ 90 on their words, found without comparing all pairs.

An entry's words are its text case-folded (NFKC), punctuation stripped and
English stop words dropped. ``token_set_ratio`` scores a pair by the best of
three comparisons of the words they share (S) and the words only one has (A,
B): S against S+A, S against S+B, and S+A against S+B. The first two say one
entry's words are nearly all the other's: that is a reworded duplicate, and
that is what is proposed. The third alone scores "port is 8080" against "port
is 8081" 94: two different facts whose leftover words are spelled alike; a pair
scored so by the third comparison only is not proposed (the superseded rule and
the agent's own review are for conflicts).

The search is blocked, never all pairs: a qualifying pair leaves at most
about a fifth of one side's characters unshared, so that side's first shared
word (rarest first) is one of its few rarest, and every longer word after it
must be shared too. Each entry's partners are found as intersections of the
sets of entries holding those words (:func:`_reach`), and only those are
scored: on a home of 33,000 entries, about 220,000 pairs of 600 million.
:func:`naive_pairs` scores every pair by the same test: tests and the
benchmark hold the two to the same answer.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Sequence

THRESHOLD = 90
"""The least ``token_set_ratio`` a near duplicate scores (issue 23)."""

# NLTK's English stop-word list (nltk_data corpora/stopwords/english, as nltk.corpus.stopwords.words("english")
# gives it), its words without apostrophes, less those whose dropping would make opposite facts read alike:
# the negations (no, nor, not, and the n't stems: don, isn, won ...) and the pairs of opposites (on/off, up/down,
# in/out, over/under, above/below, before/after, more/most/few, all/any/some). "Lights on" and "lights off" differ.
STOP_WORDS = frozenset(
    """
    i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers
    herself it its itself they them their theirs themselves what which who whom this that these those am is are
    was were be been being have has had having do does did doing a an the and but if or because as until while
    of at by for with about against between into through during to from again further then once here there when
    where why how both each other such only own same so than too very s t can will just should now d ll m o re
    ve y ma
    """.split()
)

_NOT_WORD = re.compile(r"[\W_]+")


def words(text: str) -> frozenset[str]:
    """An entry's words as the near-duplicate rule compares them: case-folded, no punctuation, no stop words."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return frozenset(word for word in _NOT_WORD.sub(" ", folded).split() if word not in STOP_WORDS)


def _joined(items: set[str] | frozenset[str]) -> int:
    """The length of ``items`` sorted and joined by spaces, as ``token_set_ratio`` builds its strings."""
    return sum(map(len, items)) + len(items) - 1 if items else 0


def qualifies(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether one of the two word sets is nearly all in the other: ``token_set_ratio``'s S-against-S+A or
    S-against-S+B comparison ≥ 90 (:data:`THRESHOLD`), in integers.

    rapidfuzz scores S against S+A as ``1 - (1+|A|) / (2|S| + 1 + |A|)`` (S is a prefix of S+A, so their
    distance is what follows it), lengths of the joined strings; ≥ 0.9 is ``9 (1+|A|) ≤ 2 |S|``, and with
    ``|S+A| = |S| + 1 + |A|`` that is ``11 |S| ≥ 9 |S+A|``: the shared words hold 9/11 of one side's characters.
    One set inside the other scores 100, and passes the same test.
    """
    return _holds(a, b, min(_joined(a), _joined(b)))


def _holds(a: frozenset[str], b: frozenset[str], side: int) -> bool:
    """The words ``a`` and ``b`` share, joined, are at least 9/11 of ``side`` characters."""
    shared = a & b
    return bool(shared) and 11 * _joined(shared) >= 9 * side


def score(a: frozenset[str], b: frozenset[str]) -> int:
    """rapidfuzz's ``token_set_ratio`` of the two word sets, rounded down: the evidence a hunk shows."""
    from rapidfuzz import fuzz  # lazy: rapidfuzz; loads with the first near duplicate, not with the core

    return int(fuzz.token_set_ratio(" ".join(sorted(a)), " ".join(sorted(b))))


def _reach(order: list[str], postings: dict[str, set[int]], bound: float) -> set[int]:
    """Every entry that may share enough of ``order``'s words, found by set intersections, never one by one.

    ``order`` is one entry's words, rarest first; a qualifying partner leaves at most ``bound`` characters of
    them unshared (:func:`_bound`). Take the first word a partner shares, ``order[place]``: the rarer words
    before it are all unshared, so ``place`` can only be where those hold no more than ``bound`` (the prefix).
    The partner then also holds each later word whose length, added to those, would pass ``bound``: the
    entries holding ``order[place]`` are intersected with the entries holding each such word, rarest first.
    The union over the places holds every partner, and few others.
    """
    unshared = 0
    found: set[int] = set()
    for place, word in enumerate(order):
        if place and unshared > bound:  # the first word is always a place: a partner may share every word
            break
        reach = postings[word]
        for later in order[place + 1 :]:
            if unshared + len(later) > bound:
                reach = reach & postings[later]
                if len(reach) <= 1:  # the entry itself
                    break
        found |= reach
        unshared += len(word)
    return found


def _bound(width: int) -> float:
    """The most characters of an entry of joined ``width`` that a qualifying partner can leave unshared.

    From :func:`qualifies`, that side's unshared words, joined, are at most ``(2W - 11) / 11`` long; their
    lengths alone, without the spaces between them, are at most that too.
    """
    return (2 * width - 11) / 11


def near_pairs(sets: Sequence[frozenset[str]]) -> set[tuple[int, int]]:
    """Every pair ``(i, j)``, ``i < j``, of ``sets`` that :func:`qualifies`, by the blocked search.

    A pair qualifies on the side whose characters the shared words hold 9/11 of; from that side
    :func:`_reach` finds the other, so each entry tests only its own side against what it reaches.
    """
    frequency: Counter[str] = Counter(word for items in sets for word in items)
    rank = {word: place for place, word in enumerate(sorted(frequency, key=lambda w: (frequency[w], w)))}
    postings: defaultdict[str, set[int]] = defaultdict(set)
    for number, items in enumerate(sets):
        for word in items:
            postings[word].add(number)
    widths = [_joined(items) for items in sets]
    found: set[tuple[int, int]] = set()
    for number, items in enumerate(sets):
        if not items:
            continue
        width = widths[number]
        least = 9 * width  # 11 times the shared words' width must reach this, and so must 11 times the other's
        for other in _reach(sorted(items, key=rank.__getitem__), postings, _bound(width)):
            if other == number or 11 * widths[other] < least:
                continue
            if 11 * _joined(items & sets[other]) >= least:
                found.add((number, other) if number < other else (other, number))
    return found


def naive_pairs(sets: Sequence[frozenset[str]]) -> set[tuple[int, int]]:
    """The same pairs by testing every pair: quadratic, kept only to hold :func:`near_pairs` to it."""
    widths = [_joined(items) for items in sets]
    found: set[tuple[int, int]] = set()
    for i, a in enumerate(sets):
        for j in range(i + 1, len(sets)):
            b = sets[j]
            if not a.isdisjoint(b) and _holds(a, b, min(widths[i], widths[j])):
                found.add((i, j))
    return found
