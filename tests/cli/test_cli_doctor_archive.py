"""``persona-notebook doctor`` on a home with tidy's archive: the archive's findings under its own path."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_process import run

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "notebook_app" / "demo_home"
KEY = "sk-ant-api03-" + "Q" * 40


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    home = tmp_path / "demo"
    shutil.copytree(DEMO, home)
    (home / "memory").mkdir()
    (home / "memory" / "ARCHIVE.md").write_text(f"## 2026-12-01 tidy 0123456789ab\n\n- old key {KEY}\n")
    return home


def test_json_lists_a_secret_in_the_archive_by_its_path_and_line(demo: Path, tmp_path: Path) -> None:
    out = run("doctor", "--home", str(demo), "--json", tmp=tmp_path)
    assert out.returncode == 1, out.stdout + out.stderr
    report = json.loads(out.stdout)
    (secret,) = [f for f in report["findings"] if f["rule"] == "security.secret"]
    assert {k: secret[k] for k in ("file", "line", "severity", "fix")} == {
        "file": "memory/ARCHIVE.md",
        "line": 3,
        "severity": "error",
        "fix": None,
    }
    assert "Q" * 40 not in out.stdout
    assert all("ARCHIVE" not in f["name"] for f in report["budget"]["files"])  # never counted as loaded


def test_text_groups_the_archive_s_finding_under_its_path(demo: Path, tmp_path: Path) -> None:
    out = run("doctor", "--home", str(demo), tmp=tmp_path)
    assert out.returncode == 1
    block = out.stdout.split("\nmemory/ARCHIVE.md\n", 1)[1].split("\n\n", 1)[0]
    assert block.lstrip().startswith("error   line 3")
    assert "security.secret: line 3 of memory/ARCHIVE.md holds an Anthropic API key" in block
    assert "offers no fix in tidy's archive" in block and "fix:" not in block
    assert not (demo / ".notebook").exists()  # the doctor viewed it; nothing was made
