"""Our ``§`` store planner against what Hermes 0.19.0's own ``MemoryStore`` wrote (``make hosts``).

Each operation of ``tests/hermes_ops.py`` ran in Hermes's venv
(``drivers/hermes_ops.py``); its goldens are in
``goldens/hermes@0.19.0/ops/``. Here :func:`plan_store` gets the same text,
operation and limits. Where Hermes wrote, we give its exact bytes, message and
meter; where Hermes refused, we refuse too, in its first sentence's words.
Where we part from Hermes on purpose, the case is in :data:`DIFFERENCES` with
its reason and both sides are asserted (what Hermes's write did to the store,
and that we refuse); a case that is neither equal nor listed fails.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import pytest

import hermes_ops
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.hosts.hermes.config import read_config
from notebook_app.core.memory.sections import StoreOp, StoreWrite, plan_store

GOLDENS = Path(__file__).parent / "goldens" / "hermes@0.19.0" / "ops"
CASES = {case.name: case for case in hermes_ops.cases()}
WROTE = ("Entry added.", "Entry replaced.", "Entry removed.")
"""Hermes's messages for a write that reached the file (its duplicate add succeeds with another, writing nothing)."""


class Kind(Enum):
    ROUND_TRIP = "Hermes's add skips its drift guard and rewrites a store that does not round-trip whole"
    SEPARATOR = "a line that is only '§' ends up inside an entry: the store does not read back as written"
    DUPLICATE = "Hermes answers an add of an entry it holds with success and writes nothing"
    REPEAT = "Hermes's replace writes an entry the store already holds"


@dataclass(frozen=True)
class Difference:
    kind: Kind
    why: str
    """Why we part from Hermes here."""


_NOT_ROUND_TRIP = Difference(
    Kind.ROUND_TRIP,
    "the blank entry or padding Hermes drops is text someone wrote; we refuse, as Hermes's own replace and remove "
    "do on that store, and the doctor offers the reviewed normalise",
)
_SEPARATOR = Difference(
    Kind.SEPARATOR,
    "Hermes stores it, and its parser then reads other entries than the ones written (now, or after its next "
    "add): we never write a store in a mixed dialect",
)
DIFFERENCES: dict[str, Difference] = {
    "op-add-blank-entry": _NOT_ROUND_TRIP,
    "op-add-only-separator": _NOT_ROUND_TRIP,
    "op-add-trailing-space-entry": _NOT_ROUND_TRIP,
    "op-add-section-line-text": _SEPARATOR,
    "op-add-section-line-end-text": _SEPARATOR,
    "op-add-store-ends-section": _SEPARATOR,
    "op-replace-section-line": _SEPARATOR,
    "op-add-duplicate": Difference(
        Kind.DUPLICATE, "a person asked to add and nothing was added: we say so as a refusal, in Hermes's words"
    ),
    "op-add-duplicate-padded": Difference(
        Kind.DUPLICATE, "a person asked to add and nothing was added: we say so as a refusal, in Hermes's words"
    ),
    "op-replace-to-duplicate": Difference(
        Kind.REPEAT, "Hermes's next load drops the repeat, so the replace would silently lose an entry: we refuse"
    ),
}
OTHER_WORDS: dict[str, str] = {
    "op-add-entry-over-limit": "Hermes's add skips its drift guard and refuses on the total; we refuse first on "
    "the entry over the limit, the drift guard's own reason, as Hermes's replace and remove do",
}
"""Cases both refuse, in other words, and why."""


def _golden(name: str) -> dict:
    return json.loads((GOLDENS / f"{name}.json").read_text(encoding="utf-8"))


def _read_file(text: str | None) -> list[str]:
    """``MemoryStore._read_file`` of a store's text, written out again here so as not to test us with ourselves."""
    if not text or not text.strip():
        return []
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # read_text's universal newlines
    return [e for e in (e.strip() for e in text.split(hermes_ops.SEP)) if e]


def _first_sentence(words: str) -> str:
    found = re.match(r".*?[.:](?=\s|$)", words, re.S)
    return found.group() if found else words


def _ours(name: str, tmp_path: Path) -> tuple[StoreWrite | Rejection, dict]:
    case, golden = CASES[name], _golden(name)
    config = read_config(hermes_ops.build(tmp_path, case) / "home", 2200, 1375)
    limits = {"MEMORY.md": config.memory_char_limit, "USER.md": config.user_char_limit}
    assert limits == golden["limits"], "config.yaml's limits are not the ones Hermes read"
    op = StoreOp(case.action, case.text, case.new)
    return plan_store(case.before_text, op, name=case.store, limit=limits[case.store]), golden


def test_every_operation_has_a_golden_and_every_golden_an_operation() -> None:
    assert sorted(p.stem for p in GOLDENS.glob("*.json")) == sorted(CASES)
    assert set(DIFFERENCES) | set(OTHER_WORDS) <= set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_golden_was_made_from_the_corpus_as_it_is(name: str) -> None:
    """A corpus case edited without ``make hosts`` would be compared with another case's answer."""
    case, golden = CASES[name], _golden(name)
    assert (golden["version"], golden["store"], golden["before"]) == ("0.19.0", case.store, case.before_text)
    assert golden["operation"] == {"action": case.action, "text": case.text} | (
        {"new": case.new} if case.action == "replace" else {}
    )


@pytest.mark.parametrize("name", sorted(set(CASES) - set(DIFFERENCES)))
def test_our_write_gives_the_bytes_hermes_wrote_and_refuses_what_it_refused(name: str, tmp_path: Path) -> None:
    ours, golden = _ours(name, tmp_path)
    hermes = golden["result"]
    if hermes["success"]:
        assert hermes.get("message") in WROTE, f"Hermes succeeded without writing: list {name} in DIFFERENCES"
        assert isinstance(ours, StoreWrite), f"Hermes wrote {golden['after']!r}; we refused: {ours}"
        assert ours.result == golden["after"]
        assert (ours.message, ours.usage) == (hermes["message"], hermes["usage"])
        before = CASES[name].before_text or ""
        if CASES[name].action == "add" and before == hermes_ops.SEP.join(dict.fromkeys(_read_file(before))):
            assert ours.is_append, "an add to a store exactly as Hermes writes it is an append"
    else:
        assert golden["after"] == CASES[name].before_text, "Hermes refused and changed the store"
        assert isinstance(ours, Rejection), f"Hermes refused ({hermes['error']}); we would write {ours.result!r}"
        if name not in OTHER_WORDS:
            assert ours.message.startswith(_first_sentence(hermes["error"])), (ours.message, hermes["error"])


@pytest.mark.parametrize("name", sorted(DIFFERENCES))
def test_where_we_part_from_hermes_both_sides_of_the_difference_hold(name: str, tmp_path: Path) -> None:
    case, difference = CASES[name], DIFFERENCES[name]
    ours, golden = _ours(name, tmp_path)
    hermes, before, after = golden["result"], case.before_text, golden["after"]
    assert isinstance(ours, Rejection), f"we would write {ours.result!r}"
    assert hermes["success"]
    if difference.kind is Kind.ROUND_TRIP:
        assert hermes["message"] == "Entry added." and not after.startswith((before or "").rstrip())
        assert "does not round-trip" in ours.message
    elif difference.kind is Kind.SEPARATOR:
        wanted = _wanted(case)
        next_add = hermes_ops.SEP.join([*_read_file(after), "Z"])  # what Hermes's next add writes
        assert _read_file(after) != wanted or _read_file(next_add) != [*wanted, "Z"]
        assert "'§'" in ours.message or "would not read MEMORY.md back as these entries" in ours.message
    elif difference.kind is Kind.DUPLICATE:
        assert hermes["message"] == ours.message == "Entry already exists (no duplicate added)."
        assert after == before
    else:  # REPEAT
        assert hermes["message"] == "Entry replaced." and len(set(_read_file(after))) < len(_read_file(after))
        assert ours.message == "Entry already exists (no duplicate added)."


def _wanted(case: hermes_ops.OpCase) -> list[str]:
    """The entries an add or replace means to leave: the store's (repeats dropped), with the content in place."""
    current = list(dict.fromkeys(_read_file(case.before_text)))
    if case.action == "add":
        return [*current, case.text.strip()]
    at = next(i for i, entry in enumerate(current) if case.text.strip() in entry)
    return [*current[:at], (case.new or "").strip(), *current[at + 1 :]]
