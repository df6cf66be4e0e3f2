"""Every write our ``§`` planner plans, over thousands of random stores and operation sequences, is Hermes's.

Seeded ``random`` (the same stores every run): stores of random entries of
letters, accents, emoji, spaces, CR, LF and ``§``, joined as Hermes joins
them or with the drift a hand edit leaves (CRLF, a blank entry, padding), then
a sequence of adds, replaces, removes and entry edits and deletes, each on the
text the last write left. For every :class:`StoreWrite`: the splice gives the
result; the result is what Hermes writes for the planned entries, and reads
back (``sections.entries``, Hermes's parse) as exactly those entries, with
nothing for Hermes's drift guard to see, so a write never mixes dialects; an
add to a store exactly as Hermes writes it is an append.
"""

from __future__ import annotations

import random

from notebook_app.core.home.refusals import Rejection
from notebook_app.core.memory import sections
from notebook_app.core.memory.sections import StoreOp, StoreWrite, plan_store

PIECES = ["a", "b", "c", "é", "😀", " ", "\n", "\r\n", "\r", "§", "\t", "\u00a0", "x§y"]
JOINS = ["\n§\n"] * 6 + ["\r\n§\r\n", "\n§\n\n§\n", " \n§\n", "\n§", "\n"]
SEED, SEQUENCES, STEPS = 20261202, 3000, 4


def _piece(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 6)))


def _store(rng: random.Random) -> str | None:
    if rng.random() < 0.05:
        return None
    items = [_piece(rng) for _ in range(rng.randint(0, 5))]
    if rng.random() < 0.5:  # as Hermes writes it
        clean = [item.strip() for item in sections.entries(sections.joined(items))]
        return sections.joined(list(dict.fromkeys(e for e in clean if e)))
    text = items[0] if items else ""
    for item in items[1:]:
        text += rng.choice(JOINS) + item
    return rng.choice(["", " ", "\n"]) + text + rng.choice(["", "\n", "\r\n", "  "])


def _op(rng: random.Random, text: str | None) -> StoreOp:
    parsed = sections.entries(text)
    action = rng.choice(["add", "add", "replace", "remove", "edit", "delete"])
    known = rng.choice(parsed) if parsed and rng.random() < 0.8 else _piece(rng)
    needle = known[: rng.randint(1, len(known))] if known and rng.random() < 0.5 else known
    if action == "add":
        return StoreOp("add", _piece(rng) if rng.random() < 0.9 else known)
    if action in ("replace", "remove"):
        return StoreOp(action, needle, _piece(rng) if action == "replace" else None)
    index = rng.randint(1, max(1, len(parsed)))
    expect = parsed[index - 1] if parsed and rng.random() < 0.9 else needle
    return StoreOp(action, expect, _piece(rng) if action == "edit" else None, index=index)


def _planned(text: str | None, op: StoreOp, write: StoreWrite) -> list[str]:
    """The entries the write means to leave, worked out apart from the planner: Hermes's re-read list, changed."""
    parsed = sections.entries(text)
    current = list(dict.fromkeys(parsed))
    if op.action == "add":
        return [*current, op.text.strip()]
    if op.action in ("replace", "remove"):
        at = next(i for i, entry in enumerate(current) if op.text.strip() in entry)
    else:
        at = current.index(parsed[(op.index or 0) - 1])
    assert write.entry == at + 1
    if op.action in ("remove", "delete"):
        return current[:at] + current[at + 1 :]
    return [*current[:at], (op.new or "").strip(), *current[at + 1 :]]


def test_every_planned_write_reads_back_as_the_planned_entries_and_is_the_splice_it_says() -> None:
    rng = random.Random(SEED)
    writes = appends = refusals = 0
    for _ in range(SEQUENCES):
        text = _store(rng)
        for _ in range(STEPS):
            op = _op(rng, text)
            write = plan_store(text, op, name="MEMORY.md", limit=rng.choice([40, 2200]))
            if isinstance(write, Rejection):
                refusals += 1
                continue
            old = text or ""
            assert old[write.start : write.start + len(write.removed)] == write.removed, (old, op)
            assert write.result == old[: write.start] + write.inserted + old[write.start + len(write.removed) :]
            planned = _planned(text, op, write)
            assert write.result == sections.joined(planned), (old, op)  # Hermes's bytes for that list
            assert sections.entries(write.result) == planned, (old, op)
            assert sections.drift(write.result, "MEMORY.md", 10**6) is None, (old, op)
            if op.action == "add" and old == sections.joined(list(dict.fromkeys(sections.entries(old)))):
                assert write.is_append, (old, op)
                appends += 1
            writes += 1
            text = write.result
    # The seeded run reaches every branch: a test that only ever refused would prove nothing.
    assert writes > 3000 and appends > 1000 and refusals > 3000, (writes, appends, refusals)
