"""The characters Hermes 0.19.0's memory scan blocks, against what its own code did (``make hosts``:
``drivers/hermes_blocked.py`` over every code point, golden ``scan/blocked-characters.json``).

An entry holding one of them loads as Hermes's ``[BLOCKED: …]`` placeholder, and Hermes's add refuses it:
our loader shows that placeholder where Hermes puts it, and our writes to a ``§`` store refuse the text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notebook_app.core.hosts.hermes.load import blocked_characters, blocked_entry, hermes_load, rules
from notebook_app.core.memory.sections import StoreOp, StoreWrite, plan_store

GOLDEN = json.loads(
    (Path(__file__).parent / "goldens" / "hermes@0.19.0" / "scan" / "blocked-characters.json").read_text("utf-8")
)


def test_the_golden_scanned_every_code_point_but_the_surrogates():
    assert GOLDEN["version"] == "0.19.0"
    assert GOLDEN["scanned"] == 0x110000 - 0x800


def test_the_profile_blocks_exactly_the_characters_hermes_blocked():
    assert rules()["blocked_characters"] == GOLDEN["blocked_at_load"]


@pytest.mark.parametrize("codepoint", GOLDEN["blocked_at_load"])
def test_an_entry_with_a_blocked_character_loads_as_hermes_placeholder(codepoint):
    entry = f"a{chr(int(codepoint[2:], 16))}b"
    assert blocked_characters(entry) == [codepoint]
    assert blocked_entry("MEMORY.md", entry) == GOLDEN["placeholders"][codepoint]


def test_a_plain_entry_is_not_blocked():
    assert blocked_characters("Deploys on Fridays are forbidden \U0001f469\U0001f4bb") == []
    assert blocked_entry("MEMORY.md", "Deploys on Fridays") is None


def test_the_memory_block_shows_the_placeholder_and_counts_it_as_hermes_did(tmp_path):
    home = tmp_path / "home"
    (home / "memories").mkdir(parents=True)
    (home / "memories" / "MEMORY.md").write_text(GOLDEN["store"]["text"], encoding="utf-8")
    (home / "config.yaml").write_text("memory:\n  memory_enabled: true\n", encoding="utf-8")
    part = hermes_load(home).part("MEMORY.md")
    assert part is not None
    assert part.injected == GOLDEN["store"]["format_for_system_prompt('memory')"]
    assert "U+200D" in (part.note or "")


@pytest.mark.parametrize("codepoint", sorted(GOLDEN["add"]))
def test_our_add_to_a_store_refuses_what_hermes_add_refused(codepoint):
    said = GOLDEN["add"][codepoint]
    planned = plan_store("", StoreOp("add", f"a{chr(int(codepoint[2:], 16))}b"), name="MEMORY.md", limit=2200)
    if said["success"]:
        assert isinstance(planned, StoreWrite)
    else:
        assert not isinstance(planned, StoreWrite)
        assert planned.message.startswith(said["error"])


def test_our_replace_refuses_a_blocked_character_in_the_new_text():
    planned = plan_store(
        "Pair-programs on Fridays",
        StoreOp("replace", "Pair-programs", "Pair-programs as \U0001f469\u200d\U0001f4bb"),
        name="MEMORY.md",
        limit=2200,
    )
    assert not isinstance(planned, StoreWrite)
    assert planned.message.startswith(GOLDEN["add"]["U+200D"]["error"])
