"""Hosts as data: each profile loads what its host loads, the contract stays byte-identical."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from notebook_app.core.doctor.check import Doctor, check_home
from notebook_app.core.home.soul import compose, compose_soul
from notebook_app.core.hosts.choice import resolve_host
from notebook_app.core.hosts.profile import load_hosts, parse_profile

DEMO = Path(__file__).resolve().parents[3] / "notebook_app" / "demo_home"


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(tmp_path / "no-openclaw.json"))


def host(name: str, **kwargs):
    choice = resolve_host(name, **kwargs)
    assert choice.profile is not None, choice.error
    return choice.profile


def test_every_shipped_profile_loads_and_cites_its_numbers() -> None:
    hosts, problems = load_hosts()
    assert problems == []
    assert sorted(hosts) == ["claude-code", "hermes", "openclaw", "toolnexus", "toolnexus-py"]
    for profile in hosts.values():
        assert profile.sources, profile.name
        assert "file_cap" in profile.sources or "cut" in profile.sources


def test_the_contract_host_composes_byte_for_byte_as_compose_soul(tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(DEMO, home)
    (home / "MEMORY.md").write_bytes(b"- x\n" * 600_000)
    assert compose(home, host=host("toolnexus")).soul == compose_soul(home)[0] == compose(home).soul


def test_openclaw_keeps_head_and_tail_of_a_long_file_with_its_marker(home: Path) -> None:
    (home / "MEMORY.md").write_text("".join(f"- entry {i:05d}\n" for i in range(3000)))
    composition = compose(home, host=host("openclaw"))
    body = composition.file("MEMORY.md").body
    assert len(body) <= 20_000
    assert body.startswith("- entry 00000") and body.endswith("- entry 02999")
    assert "[...truncated, read MEMORY.md for full content...]" in body
    load = composition.load("MEMORY.md")
    assert load.truncated and load.cap == 20_000 and load.cut_line and load.resume_line > load.cut_line


def test_openclaw_loads_tools_before_identity_and_stops_at_the_total(home: Path) -> None:
    for name in ("AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "MEMORY.md"):
        (home / name).write_text("x" * 15_000)
    composition = compose(home, host=host("openclaw@2026.6"))  # 2026.6.6: TOOLS.md still read, 60,000 in total
    assert composition.found == ["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md"]
    assert sum(load.rendered for load in composition.loads) == 60_000
    assert [s.name for s in composition.skipped] == ["USER.md", "MEMORY.md"]  # absent HEARTBEAT.md: no marker room
    totals = [
        (f.rule, f.file) for f in check_home(home, host=host("openclaw@2026.6")).findings if f.rule == "budget.total"
    ]
    assert totals == [("budget.total", "USER.md"), ("budget.total", "MEMORY.md")]


def test_openclaw_from_2026_8_leaves_tools_out_and_cuts_user_md_at_its_own_cap(home: Path) -> None:
    for name in ("AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "MEMORY.md"):
        (home / name).write_text("x" * 15_000)
    composition = compose(home, host=host("openclaw@2026.8"))
    assert composition.found == ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "BOOTSTRAP.md", "MEMORY.md"]
    assert composition.load("USER.md").cap == 4_000 and composition.load("USER.md").truncated
    found = [(f.rule, f.file) for f in check_home(home, host=host("openclaw@2026.8")).findings]
    assert ("budget.cut", "USER.md") in found and ("budget.total", "MEMORY.md") in found


def test_openclaw_defaults_by_version() -> None:
    assert (host("openclaw@2026.2").file_cap, host("openclaw@2026.2").total_cap) == (20_000, 150_000)
    assert (host("openclaw@2026.5").file_cap, host("openclaw@2026.5").total_cap) == (12_000, 60_000)
    assert (host("openclaw").file_cap, host("openclaw").total_cap) == (20_000, 60_000)


def test_the_users_openclaw_config_is_read_as_json5(tmp_path: Path) -> None:
    config = tmp_path / "openclaw.json"
    config.write_text(
        "{\n  // mine\n  agents: { defaults: { bootstrapMaxChars: 5000, bootstrapTotalMaxChars: 9000, }, },\n}\n"
    )
    choice = resolve_host("openclaw", openclaw_config=config)
    assert (choice.profile.file_cap, choice.profile.total_cap) == (5000, 9000)
    assert "bootstrapMaxChars 5,000" in choice.notes[0] and choice.notes[-1].startswith("in force: 5,000")


def test_a_missing_or_broken_openclaw_config_is_said_in_words(tmp_path: Path, home: Path) -> None:
    missing = resolve_host("openclaw", openclaw_config=tmp_path / "nope.json")
    assert "not found" in missing.notes[0] and not missing.config_broken
    broken = tmp_path / "broken.json"
    broken.write_text("{ agents: ")
    choice = resolve_host("openclaw", openclaw_config=broken)
    assert choice.config_broken and "could not be parsed" in choice.notes[0]
    (home / "SOUL.md").write_text("You are Kip.\n")
    report = Doctor().check(home, host=choice.profile)
    assert [f.rule for f in report.problems] == ["host.config"]


def test_hermes_reads_section_sign_entries_against_its_budgets(home: Path) -> None:
    (home / "MEMORY.md").write_text("likes tea\n§\nlikes tea\n§\n" + "long note " * 300)
    (home / "USER.md").write_text("- a\n- b\n")
    composition = compose(home, host=host("hermes"))
    memory = composition.file("MEMORY.md").body
    assert memory.count("likes tea") == 1  # Hermes de-duplicates entries
    # Hermes 0.19.0's own header, past its limit (golden hermes@0.19.0/memory-limit-plus-1): no cut, no mark
    assert "[100% — 3,011/2,200 chars]\n" in memory and "OVER BUDGET" not in memory
    rules = [(f.rule, f.file) for f in check_home(home, host=host("hermes")).findings if f.rule.startswith("budget.")]
    assert ("budget.over", "MEMORY.md") in rules and ("budget.format", "USER.md") in rules


def test_claude_code_loads_the_first_200_lines_of_memory_only(home: Path) -> None:
    (home / "SOUL.md").write_text("You are Kip.\n")
    (home / "MEMORY.md").write_text("".join(f"- line {i}\n" for i in range(1, 301)))
    composition = compose(home, host=host("claude-code"))
    assert composition.found == ["MEMORY.md"]
    body = composition.file("MEMORY.md").body
    kept, warning = body.split("\n\n> WARNING: ")
    assert kept.endswith("- line 200") and "- line 201" not in kept
    assert warning.startswith("MEMORY.md is 300 lines (limit: 200). Only part of it was loaded: 100 of 300 lines")
    (cut,) = [f for f in check_home(home, host=host("claude-code")).findings if f.rule == "budget.cut"]
    assert cut.line == 201 and "not loaded" in cut.message


def test_a_users_profile_adds_a_host_marked_not_proven_but_never_replaces_a_shipped_one(
    tmp_path: Path, home: Path
) -> None:
    folder = tmp_path / "config" / "persona-notebook" / "hosts"
    folder.mkdir(parents=True)
    (folder / "claude-code.toml").write_text(
        'name = "claude-code"\nfiles = ["MEMORY.md"]\nunit = '
        '"bytes"\nfile_cap = 100\nline_cap = 3\n[cut]\nkind = "head"\n'
    )
    (folder / "my-agent.toml").write_text(
        'name = "my-agent"\ntitle = "My agent"\nfiles = ["SOUL.md", "MEMORY.md"]\nunit = "bytes"\nfile_cap = 100\n'
        '[cut]\nkind = "head"\n'
    )
    (folder / "bad.toml").write_text('files = ["NOTES.md"]\n')
    hosts, problems = load_hosts()
    shipped = hosts["claude-code"]
    assert shipped.file_cap != 100 and shipped.shipped
    assert shipped.shadowed_by == (str(folder / "claude-code.toml"),)
    assert [p.message for p in problems] == [
        "'files' names 'NOTES.md', which is not a bootstrap file",
        "names the shipped host 'claude-code', which it cannot replace: Claude Code's shipped profile is in force "
        "(give yours another name to add a host of your own)",
    ]
    assert not hosts["my-agent"].shipped
    assert "My agent: your own profile: no golden proves it" in host("my-agent").notes
    report = check_home(home, host=host("claude-code"))
    (named,) = [f for f in report.findings if f.rule == "host.shadowed"]
    assert named.message.startswith(f"{folder / 'claude-code.toml'} names the shipped host 'claude-code'")
    assert named.severity.value == "warning"
    assert not [f for f in check_home(home, host=host("my-agent")).findings if f.rule == "host.shadowed"]


def test_an_unknown_host_names_the_known_ones() -> None:
    assert (
        resolve_host("openclow").error
        == "no host named 'openclow'; hosts: claude-code, hermes, openclaw, toolnexus, toolnexus-py"
    )


def test_a_dry_run_of_a_host_soul_recomposes_with_the_hosts_cut(home: Path) -> None:
    (home / "MEMORY.md").write_text("- one\n")
    composition = compose(home, host=host("claude-code"))
    after = composition.with_text("MEMORY.md", "".join(f"- {i}\n" for i in range(500)))
    assert after.host == "claude-code" and after.load("MEMORY.md").truncated


def test_parse_profile_refuses_unknown_keys() -> None:
    with pytest.raises(ValueError, match="unknown key"):
        parse_profile('files = ["MEMORY.md"]\ncolour = "red"\n', "x")


def test_a_cut_is_said_in_words_with_how_much_is_not_loaded_and_where(home: Path) -> None:
    (home / "SOUL.md").write_bytes(b"You are Kip.\n" + b"x" * 99 + b"\n" + b"y" * (2 * 1024 * 1024 + 170 * 1024))
    report = check_home(home)
    (cut,) = [f for f in report.findings if f.rule == "budget.cut"]
    assert (cut.file, cut.line) == ("SOUL.md", 3)
    assert cut.message.startswith(
        "SOUL.md is cut at the contract's 2 MiB cap, 170 KB not loaded: the cut falls on line 3"
    )
    assert report.headline() == "SOUL.md is cut at the contract's 2 MiB cap, 170 KB not loaded"


@pytest.mark.parametrize("spec", ["openclaw@abc", "openclaw@", "openclaw@2026.x", "openclaw@2026..4", "hermes@latest"])
def test_a_version_that_is_not_one_is_refused_in_words(spec: str) -> None:
    choice = resolve_host(spec)
    assert choice.profile is None
    version = spec.partition("@")[2]
    assert choice.error == f"{spec}: not a version: {version!r} (a version is digits and dots, e.g. 2026.9.6)"


def test_a_version_of_digits_and_dots_picks_its_defaults() -> None:
    assert (host("openclaw@2026.9.6").file_cap, host("openclaw@2026.9.6").version) == (20_000, "2026.9.6")
