"""``persona-notebook doctor`` and ``soul --host``: real processes, real exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_process import run

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "notebook_app" / "demo_home"


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    home = tmp_path / "demo"
    shutil.copytree(DEMO, home)
    return home


def test_a_clean_home_exits_zero(demo: Path, tmp_path: Path) -> None:
    out = run("doctor", "--home", str(demo), tmp=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 error(s), 0 warning(s)" in out.stdout


def test_a_home_with_problems_exits_one_and_names_them(demo: Path, tmp_path: Path) -> None:
    (demo / "USER.md").write_bytes(b"- name \xff\n")
    with open(demo / "MEMORY.md", "a") as memory:
        memory.write("- her field partner is Mateo; he handles dive logistics\n")
    out = run("doctor", "--home", str(demo), tmp=tmp_path)
    assert out.returncode == 1
    assert "load.not-utf8: USER.md is not UTF-8 at byte 7 (0xff)" in out.stdout
    assert "hygiene.duplicate" in out.stdout and "fix: delete line 15 (a duplicate of line 14)" in out.stdout
    assert out.stderr.strip() == "USER.md is not UTF-8 at byte 7 (0xff) · a duplicate entry"


def test_json_lists_findings_with_file_line_rule_severity_and_message(demo: Path, tmp_path: Path) -> None:
    (demo / "MEMORY.md").write_text("- key sk-ant-api03-" + "Q" * 40 + "\n")
    out = run("doctor", "--home", str(demo), "--json", tmp=tmp_path)
    assert out.returncode == 1
    report = json.loads(out.stdout)
    secret = next(f for f in report["findings"] if f["rule"] == "security.secret")
    assert {k: secret[k] for k in ("file", "line", "severity")} == {"file": "MEMORY.md", "line": 1, "severity": "error"}
    assert "Q" * 40 not in out.stdout
    summary = next(f for f in report["findings"] if f["rule"] == "budget.summary")
    assert summary["file"] is None and summary["line"] is None and summary["severity"] == "info"


def test_usage_errors_exit_two(tmp_path: Path) -> None:
    assert run("doctor", "--home", str(tmp_path / "missing"), tmp=tmp_path).returncode == 2
    out = run("doctor", "--home", str(tmp_path), "--host", "nope", tmp=tmp_path)
    assert out.returncode == 2 and "no host named 'nope'" in out.stderr
    assert run("doctor", "--bogus", tmp=tmp_path).returncode == 2


def test_the_host_changes_what_is_cut(demo: Path, tmp_path: Path) -> None:
    (demo / "MEMORY.md").write_text("".join(f"- note {i}\n" for i in range(300)))
    plain = run("doctor", "--home", str(demo), "--json", tmp=tmp_path)
    assert plain.returncode == 0, plain.stdout  # the contract loads all 300 notes: nothing is cut
    assert [f for f in json.loads(plain.stdout)["findings"] if f["rule"] == "budget.cut"] == []
    out = run("doctor", "--home", str(demo), "--host", "claude-code", "--json", tmp=tmp_path)
    assert out.returncode == 1
    cut = next(f for f in json.loads(out.stdout)["findings"] if f["rule"] == "budget.cut")
    assert cut["line"] == 201


def test_openclaw_config_is_read_and_said(demo: Path, tmp_path: Path) -> None:
    config = tmp_path / "openclaw.json"
    config.write_text("{agents: {defaults: {bootstrapMaxChars: 100}}}")
    out = run("doctor", "--home", str(demo), "--openclaw-config", str(config), tmp=tmp_path)
    assert out.returncode == 1  # every demo file is over 100 characters
    assert f"read {config}: agents.defaults bootstrapMaxChars 100" in out.stdout
    assert "budget.cut" in out.stdout


def test_soul_host_prints_what_that_host_loads(demo: Path, tmp_path: Path) -> None:
    out = run("soul", "--home", str(demo), "--host", "openclaw", tmp=tmp_path)
    assert out.returncode == 0
    assert out.stdout.startswith("## AGENTS.md\n\n") and "## SOUL.md" in out.stdout
    hermes_home = tmp_path / "hermes-home"
    (hermes_home / "memories").mkdir(parents=True)
    (hermes_home / "SOUL.md").write_text((demo / "SOUL.md").read_text())
    (hermes_home / "memories" / "USER.md").write_text("Name: Priya\n§\nTimezone: UTC\n")
    data = json.loads(run("soul", "--home", str(hermes_home), "--host", "hermes", "--json", tmp=tmp_path).stdout)
    assert data["host"] == "hermes" and data["found"] == ["SOUL.md", "USER.md"]
    assert [p["status"] for p in data["files"]] == ["injected", "missing", "injected"]
    # the text is the parts as Hermes joins them: each stripped, a blank line between
    assert data["soul"] == "\n\n".join(p["injected"].strip() for p in data["files"] if p["injected"])


def test_soul_as_hermes_with_a_version_resolves_it_or_lists_the_proven_releases(demo: Path, tmp_path: Path) -> None:
    partial = run("soul", "--home", str(demo), "--host", "hermes@0.19", tmp=tmp_path)
    assert partial.returncode == 0, partial.stderr
    assert "Hermes 0.19: its newest proven release, 0.19.0, as its goldens prove it" in partial.stderr
    newest = run("soul", "--home", str(demo), "--host", "hermes", tmp=tmp_path)
    assert "Hermes 0.19.0 (the newest proven release), as its goldens prove it" in newest.stderr
    for spec, said in (
        ("hermes@0.18.2", "hermes@0.18.2 is in no proven range; proven Hermes releases: 0.19.0"),
        ("hermes@next", "hermes@next: not a version; proven Hermes releases: 0.19.0"),
    ):
        out = run("soul", "--home", str(demo), "--host", spec, tmp=tmp_path)
        assert (out.returncode, out.stdout, out.stderr) == (2, "", f"persona-notebook: {said}\n")


def test_soul_without_a_host_is_the_contract(demo: Path, tmp_path: Path) -> None:
    plain = run("soul", "--home", str(demo), tmp=tmp_path).stdout
    assert run("soul", "--home", str(demo), "--host", "toolnexus", tmp=tmp_path).stdout == plain
    assert "host" not in json.loads(run("soul", "--home", str(demo), "--json", tmp=tmp_path).stdout)


def test_a_secret_left_in_the_history_is_named_by_record_and_redacted_from_the_shell(
    demo: Path, tmp_path: Path
) -> None:
    key = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    added = run("memory", "add", f"ci token {key}", "--home", str(demo), tmp=tmp_path)
    assert added.returncode == 0, added.stderr
    gone = run("memory", "remove", f"ci token {key}", "--home", str(demo), tmp=tmp_path)
    assert gone.returncode == 0, gone.stderr
    assert key not in (demo / "MEMORY.md").read_text()
    out = run("doctor", "--home", str(demo), "--json", tmp=tmp_path)
    assert out.returncode == 1
    found = [f for f in json.loads(out.stdout)["findings"] if f["rule"] == "security.secret-history"]
    assert len(found) == 2 and all(f["file"] is None and f["line"] is None for f in found)
    assert all(key not in f["message"] and f["fix"].startswith(f"history --redact {f['record']}") for f in found)
    text = run("doctor", "--home", str(demo), tmp=tmp_path).stdout
    assert "\nthe history (.notebook)\n" in text and key not in text
    log = demo / ".notebook" / "events.jsonl"
    before = log.read_bytes()
    dry = run("history", "--redact", found[0]["record"], "--dry-run", "--home", str(demo), tmp=tmp_path)
    assert dry.returncode == 0 and dry.stdout.startswith(f"would redact {found[0]['record']}")
    assert log.read_bytes() == before
    assert run("history", "--dry-run", "--home", str(demo), tmp=tmp_path).returncode == 2
    for item in found:
        assert run("history", "--redact", item["record"], "--home", str(demo), tmp=tmp_path).returncode == 0
    assert key.encode() not in log.read_bytes()
    after = json.loads(run("doctor", "--home", str(demo), "--json", tmp=tmp_path).stdout)["findings"]
    assert [f for f in after if f["rule"] == "security.secret-history"] == []


@pytest.mark.parametrize("verb", ["doctor", "soul"])
def test_a_host_version_that_is_not_one_exits_two_and_says_so(demo: Path, tmp_path: Path, verb: str) -> None:
    out = run(verb, "--home", str(demo), "--host", "openclaw@abc", tmp=tmp_path)
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr == (
        "persona-notebook: openclaw@abc: not a version: 'abc' (a version is digits and dots, e.g. 2026.9.6)\n"
    )
    assert run(verb, "--home", str(demo), "--host", "openclaw@2026.9.6", tmp=tmp_path).returncode == 0


def test_bytes_that_are_not_utf8_are_listed_with_their_line_offset_and_hex_and_a_fix(
    demo: Path, tmp_path: Path
) -> None:
    (demo / "USER.md").write_bytes(b"- name \xff\n- likes caf\xe9\n")
    out = run("doctor", "--home", str(demo), tmp=tmp_path)
    assert out.returncode == 1
    assert (
        "load.not-utf8: USER.md is not UTF-8 at byte 7 (0xff) and in 1 more place: a session loads U+FFFD "
        "in its place, and the memory tool refuses to edit the file. Bad bytes: line 1, byte 7: ff; line "
        "2, byte 20: e9\n      fix: replace the bytes that are not UTF-8, in 2 places, with U+FFFD\n"
    ) in out.stdout
    data = json.loads(run("doctor", "--home", str(demo), "--json", tmp=tmp_path).stdout)
    finding = next(f for f in data["findings"] if f["rule"] == "load.not-utf8")
    assert finding["fix"] == "replace the bytes that are not UTF-8, in 2 places, with U+FFFD"
    assert (demo / "USER.md").read_bytes() == b"- name \xff\n- likes caf\xe9\n"


def test_soul_as_hermes_json_gives_each_part_as_hermes_builds_it(tmp_path: Path) -> None:
    home = tmp_path / "hermes-home"
    (home / "memories").mkdir(parents=True)
    (home / "memories" / "MEMORY.md").write_text("Prefers tea.\n§\nPrefers tea.\n§\nLives in Lyon.\n")
    (home / "AGENTS.md").write_text("Be brief.\n")
    before = sorted(p.name for p in home.rglob("*"))
    out = run("soul", "--home", str(home), "--host", "hermes", "--cwd", str(home), "--json", tmp=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["host_version"], data["unit"]) == ("0.19.0", "codepoints")
    files = {part["name"]: part for part in data["files"]}
    assert [part["name"] for part in data["files"]] == ["SOUL.md", "AGENTS.md", "MEMORY.md", "USER.md"]
    assert files["SOUL.md"]["status"] == "seeded"
    assert files["SOUL.md"]["note"] == "Hermes writes its default SOUL.md at the next start and loads that"
    assert files["MEMORY.md"]["injected"].endswith("\nPrefers tea.\n§\nLives in Lyon.")
    assert "[1% — 29/2,200 chars]" in files["MEMORY.md"]["injected"]
    assert files["AGENTS.md"]["injected"].endswith("## AGENTS.md\n\nBe brief.")
    assert data["total"]["injected"] == sum(part["injected_len"] for part in data["files"])
    assert sorted(p.name for p in home.rglob("*")) == before  # Hermes would write SOUL.md; we never do


def test_soul_cwd_is_refused_for_a_host_that_reads_no_working_directory(demo: Path, tmp_path: Path) -> None:
    out = run("soul", "--home", str(demo), "--host", "openclaw", "--cwd", str(tmp_path), tmp=tmp_path)
    assert out.returncode == 2 and "--cwd is an option of --host hermes and claude-code" in out.stderr
