"""A write to an OpenClaw workspace in git says, once, that our own files are not ignored there; never an error."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from cli_process import run

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

HINT = "persona-notebook: hint: this workspace is in git and .notebook/ and .memory.journal are not ignored"


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, Path]:
    work = tmp_path / "ws"
    work.mkdir()
    config = tmp_path / "openclaw.json"
    config.write_text(f"{{ agents: {{ list: [ {{ id: 'main', default: true, workspace: '{work}' }} ] }} }}")
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    return work, config


def add(text: str, config: Path, tmp: Path) -> subprocess.CompletedProcess[str]:
    """The add, its stderr without its first line: the workspace named, as every home not given is (issue 34)."""
    done = run("memory", "add", text, "--agent", "main", "--openclaw-config", str(config), tmp=tmp)
    named, _, rest = done.stderr.partition("\n")
    assert named.startswith("persona-notebook: --agent main: the workspace of OpenClaw agent main")
    assert named.endswith(f"; the home is {tmp / 'ws'}")
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout, rest)


def test_the_first_write_hints_once_on_stderr_and_the_next_does_not(workspace, tmp_path: Path) -> None:
    work, config = workspace
    first = add("ships on Fridays", config, tmp_path)
    assert first.returncode == 0
    assert first.stderr.startswith(HINT) and first.stderr.count("\n") == 1
    second = add("tests on Thursdays", config, tmp_path)
    assert (second.returncode, second.stderr) == (0, "")
    assert not (work / ".gitignore").exists()  # a hint, never a write


def test_a_workspace_that_ignores_our_files_gets_no_hint(workspace, tmp_path: Path) -> None:
    work, config = workspace
    (work / ".gitignore").write_text(".notebook/\n.memory.journal\n")
    assert add("ships on Fridays", config, tmp_path).stderr == ""


def test_a_refused_write_gets_no_hint(workspace, tmp_path: Path) -> None:
    _work, config = workspace
    refused = add("", config, tmp_path)
    assert refused.returncode != 0 and "hint:" not in refused.stderr
