"""Our matcher of Hermes 0.19.0's threat rules against what Hermes's own scan did with every entry of
``tests/hermes_threats.py`` (``make hosts``: ``drivers/hermes_threats.py``, golden
``scan/threat-patterns.json``).

An entry Hermes's scan blocks loads as its ``[BLOCKED: …]`` placeholder, and its add refuses the text: our
loader shows the same placeholder, our writes to a ``§`` store refuse with Hermes's words, and an entry Hermes
lets through loads and is written as it is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hermes_threats import CASES

from notebook_app.core.hosts.hermes.load import blocked_entry, hermes_load
from notebook_app.core.hosts.hermes.threats import RULES, threat_rules
from notebook_app.core.memory.sections import StoreOp, StoreWrite, plan_store

GOLDEN = json.loads(
    (Path(__file__).parent / "goldens" / "hermes@0.19.0" / "scan" / "threat-patterns.json").read_text("utf-8")
)["cases"]


def test_the_golden_holds_every_case_and_every_rule_is_met_and_missed():
    assert sorted(GOLDEN) == sorted(CASES)
    blocked = [GOLDEN[name]["placeholder"] or "" for name in CASES]
    for rule, _ in RULES:
        assert any(f" {rule}." in text or f" {rule}," in text for text in blocked), rule
    assert sum(1 for name in CASES if name.endswith("-miss")) >= len(RULES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_entry_loads_as_hermes_loaded_it(name):
    said = GOLDEN[name]["placeholder"]
    assert blocked_entry("MEMORY.md", CASES[name]) == said
    assert name.endswith("-miss") == (said is None) or name == "placeholder-kept"


@pytest.mark.parametrize("name", sorted(CASES))
def test_our_add_refuses_what_hermes_add_refused(name):
    said = GOLDEN[name]["add"]
    planned = plan_store("", StoreOp("add", CASES[name]), name="MEMORY.md", limit=1_000_000)
    if said["success"]:
        assert isinstance(planned, StoreWrite)
    else:
        assert not isinstance(planned, StoreWrite)
        assert planned.message.startswith(said["error"])


def test_a_near_miss_meets_no_rule():
    assert threat_rules("Append my key to authorized keys") == []
    assert threat_rules("Deploys on Fridays are forbidden") == []


def test_the_memory_block_shows_the_placeholder_and_names_the_rule(tmp_path):
    home = tmp_path / "home"
    (home / "memories").mkdir(parents=True)
    (home / "memories" / "MEMORY.md").write_text(
        f"Deploys on Fridays are forbidden\n§\n{CASES['ssh-backdoor']}", encoding="utf-8"
    )
    part = hermes_load(home).part("MEMORY.md")
    assert part is not None and part.injected is not None
    assert GOLDEN["ssh-backdoor"]["placeholder"] in part.injected
    assert CASES["ssh-backdoor"] not in part.injected
    assert "ssh_backdoor" in (part.note or "")
