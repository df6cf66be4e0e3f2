"""``load_as``: one entry point for what any host injects next session, each host's load as its own loader gives it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from notebook_app.core.home.soul import compose
from notebook_app.core.hosts.claude_code.load import claude_code_load
from notebook_app.core.hosts.hermes.load import hermes_load
from notebook_app.core.hosts.injected import PartStatus, Unit
from notebook_app.core.hosts.named import load_as
from notebook_app.core.hosts.openclaw.config import read_openclaw_numbers
from notebook_app.core.hosts.openclaw.releases import openclaw_load
from notebook_app.core.hosts.toolnexus.python import TITLE

CAP = 2 * 1024 * 1024


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(tmp_path / "no-openclaw.json"))
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))


@pytest.fixture
def mixed(home: Path) -> Path:
    """A home with a file cut by every host's cap, one that does not load, and memory in both layouts."""
    (home / "AGENTS.md").write_text("Be brief.\n")
    (home / "SOUL.md").write_text("s" * (CAP + 10))
    (home / "IDENTITY.md").write_text("i" * 25_000)
    (home / "USER.md").write_text("- name is Priya\n")
    (home / "TOOLS.md").mkdir()
    (home / "MEMORY.md").write_text("- likes tide tables\n")
    (home / "memories").mkdir()
    (home / "memories" / "MEMORY.md").write_text("likes tide tables\n§\nkeeps kelp notes\n")
    return home


def test_the_contracts_load_is_its_composition_file_by_file(mixed: Path) -> None:
    load = load_as(mixed)
    composition = compose(mixed)
    assert not isinstance(load, str)
    assert (load.host, load.version, load.unit) == ("toolnexus", "", Unit.BYTES)
    assert [(p.name, p.status) for p in load.parts] == [
        ("AGENTS.md", PartStatus.INJECTED),
        ("SOUL.md", PartStatus.CUT),
        ("IDENTITY.md", PartStatus.INJECTED),
        ("USER.md", PartStatus.INJECTED),
        ("TOOLS.md", PartStatus.SKIPPED),
        ("MEMORY.md", PartStatus.INJECTED),
    ]
    assert [p.name for p in load.parts if p.loads] == composition.found
    assert [p.injected for p in load.parts if p.loads] == [f.section for f in composition.files]
    soul = load.parts[1]
    assert soul.raw_len == CAP + 10 and soul.cut == {"head_end": CAP, "tail_start": CAP + 10, "dropped": 10}
    assert soul.markers == ("[truncated: exceeds 2 MB bootstrap cap]",)
    assert soul.injected is not None and soul.injected.endswith(soul.markers[0])
    (skipped,) = composition.skipped
    assert load.parts[4].note == skipped.message and load.parts[4].injected is None
    assert load.injected_total == len(composition.soul.encode()) and load.caps == {"cap": None, "file_cap": CAP}


def test_toolnexus_python_is_the_contracts_load_and_says_when_it_starts_no_session(mixed: Path) -> None:
    load = load_as(mixed, "toolnexus-py")
    contract = load_as(mixed)
    assert not isinstance(load, str) and not isinstance(contract, str)
    assert (load.host, load.version) == ("toolnexus-py", "0.21.0") and load.parts == contract.parts
    assert f"{TITLE} starts no session: TOOLS.md is a directory" in load.notes
    (mixed / "TOOLS.md").rmdir()
    healthy = load_as(mixed, "toolnexus-py")
    assert not isinstance(healthy, str) and not any("starts no session" in note for note in healthy.notes)


def test_openclaw_is_its_loader_with_the_users_config_caps(mixed: Path, tmp_path: Path) -> None:
    assert load_as(mixed, "openclaw") == openclaw_load(mixed, None, "main", caps=read_openclaw_numbers().numbers)
    config = tmp_path / "openclaw.json"
    config.write_text("{agents: {defaults: {bootstrapMaxChars: 300}}}")
    numbers = read_openclaw_numbers(config).numbers
    assert numbers
    assert load_as(mixed, "openclaw@2026.4.27", session_kind="cron", openclaw_config=config) == openclaw_load(
        mixed, "2026.4.27", "cron", caps=numbers
    )
    cut = load_as(mixed, "openclaw")
    assert not isinstance(cut, str)
    (identity,) = [p for p in cut.parts if p.name == "IDENTITY.md"]
    assert identity.status is PartStatus.CUT and identity.cut is not None and identity.markers


def test_hermes_and_claude_code_are_their_loaders(mixed: Path) -> None:
    assert load_as(mixed, "hermes", cwd=mixed, context_length=128_000) == hermes_load(
        mixed, cwd=mixed, context_length=128_000
    )
    assert load_as(mixed, "hermes@0.19") == hermes_load(mixed)
    assert load_as(mixed, "claude-code", cwd=mixed) == claude_code_load(mixed, cwd=mixed)
    assert load_as(mixed, "claude-code@2.1.337") == claude_code_load(mixed)  # the newest
    assert load_as(mixed, "claude-code@2.1.332") == claude_code_load(mixed, version="2.1.332")
    assert claude_code_load(mixed, version="2.1.332").version == "2.1.332"


def test_a_persons_own_profile_composes_as_it_says_marked_not_proven(mixed: Path, tmp_path: Path) -> None:
    folder = tmp_path / "config" / "persona-notebook" / "hosts"
    folder.mkdir(parents=True)
    (folder / "my-agent.toml").write_text(
        'name = "my-agent"\ntitle = "My agent"\nfiles = ["MEMORY.md", "AGENTS.md"]\nunit = "bytes"\nfile_cap = 8\n'
        '[cut]\nkind = "head"\n'
    )
    load = load_as(mixed, "my-agent")
    assert not isinstance(load, str)
    assert load.host == "my-agent" and load.caps == {"cap": None, "file_cap": 8}
    assert [(p.name, p.status) for p in load.parts] == [("MEMORY.md", PartStatus.CUT), ("AGENTS.md", PartStatus.CUT)]
    assert load.parts[0].cut == {"head_end": 8, "tail_start": 20, "dropped": 12}
    assert "My agent: your own profile: no golden proves it" in load.notes


def soul_words(*args: str, tmp: Path) -> str:
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp / "config"), "XDG_STATE_HOME": str(tmp / "state")}
    out = subprocess.run(
        [sys.executable, "-m", "notebook_app", "soul", *args], capture_output=True, text=True, env=env, timeout=60
    )
    assert out.returncode == 2 and out.stdout == ""
    return out.stderr.removeprefix("persona-notebook: ").rstrip("\n")


@pytest.mark.parametrize("spec", ["openclaw@2025.1.1", "hermes@0.2", "claude-code@x", "openclow", "toolnexus@1"])
def test_a_host_or_version_that_is_not_known_gives_the_words_soul_prints(mixed: Path, tmp_path: Path, spec) -> None:
    said = load_as(mixed, spec)
    assert isinstance(said, str)
    assert said == soul_words("--home", str(mixed), "--host", spec, tmp=tmp_path)
