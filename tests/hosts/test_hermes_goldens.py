"""Our Hermes loader against the goldens Hermes 0.19.0's own code produced (``make hosts``).

Each case of the corpus is built again in a temporary folder; what
:func:`hermes_load` says Hermes injects must equal, part by part, what
``load_soul_md()``, ``build_context_files_prompt(skip_soul=True)`` and
``MemoryStore.format_for_system_prompt`` returned on the same home. Where
Hermes wrote its default SOUL.md, we must say so and write nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import host_corpus
from notebook_app.core.hosts.hermes.load import SEEDS_SOUL, hermes_load

GOLDENS = Path(__file__).parent / "goldens" / "hermes@0.19.0"
CASES = {case.name: case for case in host_corpus.cases("hermes")}


def _golden(name: str) -> dict:
    return json.loads((GOLDENS / f"{name}.json").read_text(encoding="utf-8"))


def test_every_corpus_case_has_a_hermes_golden_and_every_golden_a_case():
    assert sorted(p.stem for p in GOLDENS.glob("*.json")) == sorted(CASES)


def _soul_seeded(case: host_corpus.Case, created: list[str]) -> bool:
    soul = case.files.get("home/SOUL.md")
    targets = {"home/SOUL.md"} | ({f"home/{soul.target}"} if isinstance(soul, host_corpus.Link) else set())
    return bool(targets & set(created))


@pytest.mark.parametrize("name", sorted(CASES))
def test_hermes_injects_what_its_own_code_injected_on_the_same_home(name, tmp_path):
    case, golden = CASES[name], _golden(name)
    assert golden["version"] == "0.19.0"
    host_corpus.build(tmp_path, [name])
    home = (tmp_path / name / "home").resolve()
    before = host_corpus.tree(tmp_path)
    load = hermes_load(home, cwd=home if case.cwd else None)
    assert host_corpus.tree(tmp_path) == before, "reading a home as Hermes loads it wrote to it"
    calls = {call["call"]: call for call in golden["calls"]}
    soul = load.part("SOUL.md")
    if _soul_seeded(case, golden["files"]["created"]):
        assert (soul.status, soul.injected, soul.note) == ("seeded", None, SEEDS_SOUL)
    else:
        assert host_corpus.summary(soul.injected, str(home)) == calls["load_soul_md()"]["returned"]
    context = [p for p in load.parts if p.name not in ("SOUL.md", "MEMORY.md", "USER.md")]
    label = "build_context_files_prompt(cwd=home, skip_soul=True)"
    if case.cwd:
        assert host_corpus.summary(context[0].injected or "", str(home)) == calls[label]["returned"]
    else:
        assert label not in calls and context == []
    memory, user = load.part("MEMORY.md"), load.part("USER.md")
    loaded = calls.get("MemoryStore(memory_char_limit, user_char_limit).load_from_disk()")
    if loaded is not None and "raised" in loaded:
        assert memory.status == user.status == "failed"
        assert "not valid UTF-8" in memory.note
    else:  # a block Hermes does not build (switched off in its config) is one we say is skipped
        for part, block in ((memory, "memory"), (user, "user")):
            built = calls.get(f"format_for_system_prompt('{block}')")
            if built is None:
                assert (part.status, part.injected) == ("skipped", None) and "switched off" in part.note
            else:
                assert host_corpus.summary(part.injected, str(home)) == built["returned"]
    assert [p.name for p in load.parts][:1] == ["SOUL.md"] and [p.name for p in load.parts][-2:] == [
        "MEMORY.md",
        "USER.md",
    ]


@pytest.mark.parametrize("name", ["memory-limit-plus-1", "memory-over-limit", "memory-multibyte", "memory-duplicates"])
def test_the_apps_hermes_profile_renders_memory_blocks_as_hermes_did(name, tmp_path):
    """The profile the app and the doctor compose with gives Hermes's own block for a root MEMORY.md / USER.md."""
    from notebook_app.core.home.soul import compose
    from notebook_app.core.hosts.choice import resolve_host

    calls = {call["call"]: call for call in _golden(name)["calls"]}
    host_corpus.build(tmp_path, [name])
    home = (tmp_path / name / "home").resolve()
    bodies = {file.name: file.body for file in compose(home, host=resolve_host("hermes").profile).files}
    for file, target in (("MEMORY.md", "memory"), ("USER.md", "user")):
        assert (
            host_corpus.summary(bodies.get(file), str(home))
            == calls[f"format_for_system_prompt('{target}')"]["returned"]
        )


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if "home/config.yaml" in c.files))
def test_config_yaml_is_read_as_hermes_read_it(name, tmp_path):
    """The switches, limits and cap we read from config.yaml are the ones Hermes's own load_config() gave."""
    from notebook_app.core.hosts.hermes.config import read_config

    host_corpus.build(tmp_path, [name])
    config = read_config(tmp_path / name / "home", 2200, 1375)
    facts = next(c["returned"] for c in _golden(name)["calls"] if c["call"] == "load_config()")
    assert {
        "memory": {
            "memory_enabled": config.memory_enabled,
            "user_profile_enabled": config.user_profile_enabled,
            "memory_char_limit": config.memory_char_limit,
            "user_char_limit": config.user_char_limit,
        },
        "context_file_max_chars": config.context_file_max_chars,
    } == facts
    moved = any(".corrupt." in path for path in _golden(name)["files"]["created"])
    assert moved == ("moves it aside" in config.said)
