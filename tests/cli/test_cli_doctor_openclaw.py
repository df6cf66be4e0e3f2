"""``doctor --host openclaw[@VERSION]`` counts what OpenClaw's own code injected: the goldens' totals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import run

import host_corpus
from notebook_app.core.hostbase.registry import host as registered

GOLDENS = Path(__file__).resolve().parents[1] / "hosts" / "goldens"


def _len16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def golden_total(version: str, case: str, home: Path) -> int:
    """The golden's injected total in UTF-16 units, its ``{home}`` written back as this copy's path."""
    golden = json.loads((GOLDENS / f"openclaw@{version}" / f"{case}.json").read_text(encoding="utf-8"))
    total = 0
    for entry in golden["kinds"]["main"]["context_files"]:
        homes = entry["content"].count("{home}") if isinstance(entry["content"], str) else 0
        total += entry["length_utf16"] + homes * (_len16(str(home)) - len("{home}"))
    return total


@pytest.mark.parametrize("version", ["2026.9.6", "2026.4.27"])
@pytest.mark.parametrize("case", ["small", "soul-cap-plus-1", "oc-user-4001", "oc-total-over", "soul-directory"])
def test_the_doctors_budget_total_is_what_openclaw_injected(tmp_path: Path, case: str, version: str) -> None:
    host_corpus.build(tmp_path, [case])
    home = (tmp_path / case / "home").resolve()
    out = run("doctor", "--home", str(home), "--host", f"openclaw@{version}", "--json", tmp=tmp_path)
    assert out.returncode in (0, 1), out.stderr
    report = json.loads(out.stdout)
    assert report["host"] == "openclaw"
    assert report["budget"]["unit"] == "utf16"
    assert report["budget"]["total"] == golden_total(version, case, home)
    assert report["budget"]["total_cap"] == 60_000


def test_a_version_older_than_the_oldest_proven_exits_two_for_doctor_as_for_soul(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    said = [run(verb, "--home", str(home), "--host", "openclaw@2025.1", tmp=tmp_path) for verb in ("doctor", "soul")]
    assert [(out.returncode, out.stdout) for out in said] == [(2, ""), (2, "")]
    assert said[0].stderr == said[1].stderr
    assert said[0].stderr.startswith(
        "persona-notebook: openclaw@2025.1 is in no proven range; proven OpenClaw releases: "
    )
    assert "2026.4.27–2026.5.6 (proven at 2026.4.27)" in said[0].stderr


def test_a_version_newer_than_the_newest_proven_stands_in_for_doctor_as_for_soul(tmp_path: Path) -> None:
    """Issue 36: a release the goldens have not reached yet is shown as its nearest proven release loads it, and
    said (it exited 2 before, "openclaw@2030.1 is in no proven range")."""
    home = tmp_path / "home"
    home.mkdir()
    newest = str(registered("openclaw").proven_releases()[-1]["version"])
    words = f"OpenClaw 2030.1 is newer than the newest proven, {newest}: shown as {newest} loads it"
    doctor, soul = (
        run(verb, "--home", str(home), "--host", "openclaw@2030.1", "--json", tmp=tmp_path)
        for verb in ("doctor", "soul")
    )
    assert (doctor.returncode, soul.returncode) == (0, 0), doctor.stderr + soul.stderr
    assert f"persona-notebook: {words}\n" in soul.stderr
    (numbers,) = [f["message"] for f in json.loads(doctor.stdout)["findings"] if f["rule"] == "host.numbers"]
    assert f"; {words}; " in numbers
    assert json.loads(soul.stdout)["host_version"] == newest
    for out in (doctor, soul):  # a version named: no installed release looked at (the suite turns detection off)
        assert (json.loads(out.stdout)["installed"], json.loads(out.stdout)["rules"]) == (None, newest)
        assert json.loads(out.stdout)["proven"] is False


def test_the_users_openclaw_caps_are_used_and_said_to_be_unproven(tmp_path: Path) -> None:
    host_corpus.build(tmp_path, ["soul-cap-plus-1"])
    home = (tmp_path / "soul-cap-plus-1" / "home").resolve()
    config = tmp_path / "openclaw.json"
    config.write_text("{agents: {defaults: {bootstrapMaxChars: 5000}}}")
    out = run("doctor", "--home", str(home), "--openclaw-config", str(config), "--json", tmp=tmp_path)
    report = json.loads(out.stdout)
    soul = json.loads(run("soul", "--home", str(home), "--openclaw-config", str(config), "--json", tmp=tmp_path).stdout)
    assert report["budget"]["total"] == soul["total"]["injected"]
    assert next(f for f in report["budget"]["files"] if f["name"] == "SOUL.md")["cap"] == 5000
    (numbers,) = [f["message"] for f in report["findings"] if f["rule"] == "host.numbers"]
    assert "file cap 5,000 in place of the release's: not proven by a golden" in numbers


def test_doctor_session_kind_counts_that_kind_and_names_it_on_the_numbers_line(tmp_path: Path) -> None:
    host_corpus.build(tmp_path, ["small"])
    home = (tmp_path / "small" / "home").resolve()
    args = ("doctor", "--home", str(home), "--host", "openclaw@2026.9.6", "--json")
    main, subagent = (run(*args, *kind, tmp=tmp_path) for kind in ((), ("--session-kind", "subagent")))
    assert main.returncode in (0, 1) and subagent.returncode in (0, 1), subagent.stderr
    soul = json.loads(
        run(
            "soul",
            "--home",
            str(home),
            "--host",
            "openclaw@2026.9.6",
            "--session-kind",
            "subagent",
            "--json",
            tmp=tmp_path,
        ).stdout
    )
    report, plain = json.loads(subagent.stdout), json.loads(main.stdout)
    assert report["budget"]["total"] == soul["total"]["injected"] < plain["budget"]["total"]
    assert [f["name"] for f in report["budget"]["files"]] == ["AGENTS.md"]  # 2026.9.6: a subagent gets AGENTS.md
    (numbers,) = [f["message"] for f in report["findings"] if f["rule"] == "host.numbers"]
    assert "session kind: subagent" in numbers
    text = run(*args[:-1], "--session-kind", "subagent", tmp=tmp_path)
    assert "session kind: subagent" in text.stdout


@pytest.mark.parametrize("host", [None, "hermes", "claude-code", "toolnexus"])
def test_doctor_session_kind_of_a_host_other_than_openclaw_exits_two_as_soul_does(tmp_path: Path, host) -> None:
    home = tmp_path / "home"
    home.mkdir()
    chosen = ("--host", host) if host else ()
    doctor = run("doctor", "--home", str(home), *chosen, "--session-kind", "cron", tmp=tmp_path)
    assert (doctor.returncode, doctor.stdout) == (2, "")
    assert "--session-kind is an option of --host openclaw only" in doctor.stderr


def test_doctor_session_kind_not_a_kind_exits_two(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    out = run("doctor", "--home", str(home), "--host", "openclaw", "--session-kind", "dream", tmp=tmp_path)
    assert out.returncode == 2 and "invalid choice: 'dream'" in out.stderr
