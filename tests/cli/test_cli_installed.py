"""``soul`` and ``doctor`` name the host's installed release, read from its files (issue 36): a fake install laid
out as each installer lays it out, whose executables would leave a marker if run. They never are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import run
from fake_installs import claude_native, hermes_install, npm_global

from notebook_app.core.hostbase.installed import DETECT_OFF
from notebook_app.core.hostbase.registry import host as registered


def newest(host: str) -> str:
    return str(registered(host).proven_releases()[-1]["version"])


def oldest(host: str) -> str:
    return str(registered(host).proven_releases()[0]["version"])


@pytest.fixture
def detecting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, Path]:
    """Detection on (the suite turns it off), a user home, a project with a CLAUDE.md, a marker no run may leave."""
    monkeypatch.delenv(DETECT_OFF)
    user, project = tmp_path / "user", tmp_path / "proj"
    user.mkdir()
    project.mkdir()
    (project / "CLAUDE.md").write_text("Project rules.\n")
    (project / "SOUL.md").write_text("I am plain.\n")
    return {"user": user, "project": project, "marker": tmp_path / "RAN"}


def _path(*folders: Path) -> dict[str, str]:
    return {"PATH": ":".join([*(str(f) for f in folders), "/usr/bin", "/bin"])}


def test_claude_codes_native_install_newer_than_the_newest_proven_is_said_and_stands_in(detecting, tmp_path):
    user, project, marker = detecting["user"], detecting["project"], detecting["marker"]
    bin_folder = claude_native(user, "2.1.338", marker)
    said = f"your Claude Code 2.1.338 is newer than the newest proven, {newest('claude-code')}: "
    said += f"shown as {newest('claude-code')} loads it"
    text = run("soul", "--host", "claude-code", "--home", str(project), tmp=tmp_path, home=user, env=_path(bin_folder))
    assert text.returncode == 0, text.stderr
    assert text.stderr.splitlines()[0] == f"persona-notebook: {said}"
    assert f"persona-notebook: Claude Code {newest('claude-code')}, as its goldens prove it" in text.stderr
    out = run(
        "soul",
        "--host",
        "claude-code",
        "--home",
        str(project),
        "--json",
        tmp=tmp_path,
        home=user,
        env=_path(bin_folder),
    )
    data = json.loads(out.stdout)
    assert (data["installed"], data["rules"], data["proven"]) == ("2.1.338", newest("claude-code"), False)
    assert data["host_version"] == newest("claude-code")
    doctor = run(
        "doctor",
        "--host",
        "claude-code",
        "--home",
        str(project),
        "--json",
        tmp=tmp_path,
        home=user,
        env=_path(bin_folder),
    )
    assert doctor.returncode == 0, doctor.stderr  # an info finding: a weekly release never fails the doctor
    report = json.loads(doctor.stdout)
    assert [(f["severity"], f["message"]) for f in report["findings"] if f["rule"] == "host.unproven"] == [
        ("info", said)
    ]
    assert (report["installed"], report["rules"], report["proven"]) == ("2.1.338", newest("claude-code"), False)
    assert not marker.exists()


def test_claude_codes_npm_package_at_a_proven_release_is_shown_as_itself_with_no_sentence(detecting, tmp_path):
    user, project, marker = detecting["user"], detecting["project"], detecting["marker"]
    version = oldest("claude-code")
    bin_folder = npm_global(tmp_path / "npm", "@anthropic-ai/claude-code", version, "claude", "cli.js", marker)
    out = run(
        "soul",
        "--host",
        "claude-code",
        "--home",
        str(project),
        "--json",
        tmp=tmp_path,
        home=user,
        env=_path(bin_folder),
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["installed"], data["rules"], data["proven"], data["host_version"]) == (version, version, True, version)
    assert "your " not in out.stderr
    assert not marker.exists()


def test_openclaws_npm_package_newer_than_the_newest_proven_stands_in_for_soul_and_doctor(detecting, tmp_path):
    project, marker = detecting["project"], detecting["marker"]
    bin_folder = npm_global(tmp_path / "npm", "openclaw", "2030.1.1", "openclaw", "openclaw.mjs", marker)
    said = f"your OpenClaw 2030.1.1 is newer than the newest proven, {newest('openclaw')}: "
    said += f"shown as {newest('openclaw')} loads it"
    for verb in ("soul", "doctor"):
        out = run(verb, "--host", "openclaw", "--home", str(project), "--json", tmp=tmp_path, env=_path(bin_folder))
        assert out.returncode == 0, out.stderr
        assert f"persona-notebook: {said}\n" in out.stderr
        data = json.loads(out.stdout)
        assert (data["installed"], data["rules"], data["proven"]) == ("2030.1.1", newest("openclaw"), False)
    assert not marker.exists()


def test_hermes_is_read_from_the_dist_info_of_the_interpreter_its_shebang_names(detecting, tmp_path):
    user, project, marker = detecting["user"], detecting["project"], detecting["marker"]
    bin_folder = hermes_install(user, "0.21.3", marker)
    out = run(
        "soul", "--host", "hermes", "--home", str(project), "--json", tmp=tmp_path, home=user, env=_path(bin_folder)
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["installed"], data["rules"], data["proven"]) == ("0.21.3", newest("hermes"), False)
    said = (
        f"your Hermes 0.21.3 is newer than the newest proven, {newest('hermes')}: shown as {newest('hermes')} loads it"
    )
    assert f"persona-notebook: {said}\n" in out.stderr
    assert not marker.exists()


def test_with_nothing_installed_installed_is_null_and_nothing_is_said(detecting, tmp_path):
    project = detecting["project"]
    out = run(
        "soul",
        "--host",
        "claude-code",
        "--home",
        str(project),
        "--json",
        tmp=tmp_path,
        home=detecting["user"],
        env=_path(),
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["installed"], data["rules"], data["proven"]) == (None, newest("claude-code"), True)
    assert "your " not in out.stderr


@pytest.mark.parametrize("where", ["before the command", "after it"])
def test_no_detect_looks_for_nothing(detecting, tmp_path, where):
    user, project, marker = detecting["user"], detecting["project"], detecting["marker"]
    bin_folder = claude_native(user, "2.1.338", marker)
    args = ["soul", "--host", "claude-code", "--home", str(project), "--json"]
    args = ["--no-detect", *args] if where == "before the command" else [*args, "--no-detect"]
    out = run(*args, tmp=tmp_path, home=user, env=_path(bin_folder))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["installed"], data["rules"], data["proven"]) == (None, newest("claude-code"), True)
    assert "your " not in out.stderr
    assert not (tmp_path / "state" / "persona-notebook" / "installed.json").exists()  # nothing was even looked at


def test_a_version_named_wins_over_the_installed_one_and_is_said_by_the_load(detecting, tmp_path):
    user, project, marker = detecting["user"], detecting["project"], detecting["marker"]
    bin_folder = claude_native(user, "2.1.338", marker)
    version = oldest("claude-code")
    out = run(
        "soul",
        "--host",
        f"claude-code@{version}",
        "--home",
        str(project),
        "--json",
        tmp=tmp_path,
        home=user,
        env=_path(bin_folder),
    )
    data = json.loads(out.stdout)
    assert (data["installed"], data["rules"], data["proven"], data["host_version"]) == (
        "2.1.338",
        version,
        True,
        version,
    )
    assert "your " not in out.stderr
