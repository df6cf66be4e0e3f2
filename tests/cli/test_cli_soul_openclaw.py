"""``persona-notebook soul --host openclaw[@VERSION]``: real processes, the loader OpenClaw's goldens prove."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import run


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    home = tmp_path / "ws"
    home.mkdir()
    (home / "AGENTS.md").write_text("Be brief.\n")
    (home / "SOUL.md").write_text("x" * 20001)
    (home / "MEMORY.md").write_text("Prefers tea.\n")
    return home


def test_soul_as_openclaw_json_gives_each_entry_as_the_newest_release_builds_it(
    workspace: Path, tmp_path: Path
) -> None:
    before = sorted(p.name for p in workspace.rglob("*"))
    out = run("soul", "--home", str(workspace), "--host", "openclaw", "--json", tmp=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["host"], data["host_version"], data["unit"], data["session_kind"]) == (
        "openclaw",
        "2026.9.6",
        "utf16",
        "main",
    )
    assert [f["name"] for f in data["files"]] == ["AGENTS.md", "SOUL.md", "IDENTITY.md", "BOOTSTRAP.md", "MEMORY.md"]
    soul = data["files"][1]
    assert (soul["status"], soul["raw_len"], soul["injected_len"]) == ("cut", 20001, 19999)  # golden soul-cap-plus-1
    assert soul["cut"] == {"head_end": 14920, "tail_start": 20001 - 4973, "dropped": 20001 - 14920 - 4973}
    assert data["files"][2]["injected"] == f"[MISSING] Expected at: {workspace}/IDENTITY.md"
    tokens = [f["tokens"] for f in data["files"]]
    assert data["tokenizer"] == "o200k_base" and all(isinstance(count, int) and count > 0 for count in tokens)
    assert data["total"] == {
        "injected": sum(f["injected_len"] for f in data["files"]),
        "cap": 60000,
        "file_cap": 20000,
        "tokens": sum(tokens),
    }
    assert "OpenClaw 2026.9.6 (the newest proven release)" in out.stderr
    assert {"soul", "found", "skipped", "host"} <= set(data) and data["found"] == ["AGENTS.md", "SOUL.md", "MEMORY.md"]
    assert sorted(p.name for p in workspace.rglob("*")) == before


def test_a_version_inside_a_range_names_the_release_that_proves_it(workspace: Path, tmp_path: Path) -> None:
    out = run("soul", "--home", str(workspace), "--host", "openclaw@2026.5.1", "--json", tmp=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["host_version"] == "2026.4.27"
    assert (
        "OpenClaw 2026.5.1: rules of 2026.4.27–2026.5.6, proven at 2026.4.27 (tests/hosts/goldens/openclaw@2026.4.27/)"
    ) in out.stderr
    partial = run("soul", "--home", str(workspace), "--host", "openclaw@2026.6", "--json", tmp=tmp_path)
    assert json.loads(partial.stdout)["host_version"] == "2026.6.6"
    assert "OpenClaw 2026.6: its newest proven release, 2026.6.6" in partial.stderr


def test_a_version_in_no_range_exits_two_listing_the_ranges(workspace: Path, tmp_path: Path) -> None:
    out = run("soul", "--home", str(workspace), "--host", "openclaw@2025.1.1", tmp=tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert "openclaw@2025.1.1 is in no proven range; proven OpenClaw releases: 2026.1.29–" in out.stderr
    assert "2026.9.1–2026.9.6 (proven at 2026.9.6)" in out.stderr


@pytest.mark.parametrize(
    ("kind", "names"),
    [
        ("main", ["AGENTS.md", "SOUL.md", "IDENTITY.md", "BOOTSTRAP.md", "MEMORY.md"]),
        ("group", ["AGENTS.md", "SOUL.md", "IDENTITY.md", "BOOTSTRAP.md"]),
        ("subagent", ["AGENTS.md"]),
        ("cron", ["AGENTS.md", "SOUL.md", "IDENTITY.md"]),
    ],
)
def test_the_session_kind_filters_the_files_as_openclaw_does(
    workspace: Path, tmp_path: Path, kind: str, names: list[str]
) -> None:
    out = run("soul", "--home", str(workspace), "--host", "openclaw", "--session-kind", kind, "--json", tmp=tmp_path)
    assert out.returncode == 0, out.stderr
    assert [f["name"] for f in json.loads(out.stdout)["files"]] == names  # goldens flat-all-seven, per kind


@pytest.mark.parametrize("option", [["--session-kind", "cron"], ["--cwd", "."], ["--context-length", "1000"]])
def test_an_option_the_host_does_not_use_exits_two(workspace: Path, tmp_path: Path, option: list[str]) -> None:
    host = "hermes" if option[0] == "--session-kind" else "openclaw"
    out = run("soul", "--home", str(workspace), "--host", host, *option, tmp=tmp_path)
    assert out.returncode == 2 and out.stdout == ""


def test_soul_as_openclaw_prints_each_entry_in_openclaws_order(workspace: Path, tmp_path: Path) -> None:
    out = run("soul", "--home", str(workspace), "--host", "openclaw@2026.1.29", tmp=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(
        "## AGENTS.md\n\nBe brief.\n\n## SOUL.md\n\n" + "x" * 14000 + "\n\n[...truncated, read SOUL.md"
    )
    assert out.stdout.index("## TOOLS.md") < out.stdout.index("## HEARTBEAT.md") < out.stdout.index("## MEMORY.md")


def test_the_users_openclaw_config_caps_the_soul_and_says_it_is_not_proven(workspace: Path, tmp_path: Path) -> None:
    """--openclaw-config (or $OPENCLAW_CONFIG_PATH) sets OpenClaw's
    caps for `soul --host openclaw`, as for the doctor."""
    config = tmp_path / "openclaw.json"
    config.write_text("{agents: {defaults: {bootstrapMaxChars: 5000, bootstrapTotalMaxChars: 7000}}}")
    out = run(
        "soul", "--home", str(workspace), "--host", "openclaw", "--openclaw-config", str(config), "--json", tmp=tmp_path
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["total"]["file_cap"], data["total"]["cap"]) == (5000, 7000)
    soul = data["files"][1]
    assert soul["status"] == "cut" and soul["injected_len"] < 5000
    assert f"read {config}: agents.defaults bootstrapMaxChars 5,000, bootstrapTotalMaxChars 7,000" in out.stderr
    assert "not proven by a golden" in out.stderr
    plain = run("soul", "--home", str(workspace), "--host", "openclaw", "--json", tmp=tmp_path)
    assert json.loads(plain.stdout)["total"]["file_cap"] == 20000
    assert "no-openclaw.json not found" in plain.stderr
