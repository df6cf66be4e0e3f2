"""The CLI is the core, scriptable: real processes, real exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "notebook_app", *args], capture_output=True, text=True, cwd=cwd, timeout=60
    )


def test_add_prints_the_tools_output_and_exits_zero(tmp_path: Path) -> None:
    out = run("memory", "add", "prefers metric units", "--home", str(tmp_path))
    assert out.returncode == 0
    assert out.stdout == "ok (add → MEMORY.md); loads next session\n"
    assert (tmp_path / "MEMORY.md").read_text() == "- prefers metric units\n"


def test_home_defaults_to_the_current_directory(tmp_path: Path) -> None:
    assert run("memory", "add", "here", "--target", "user", cwd=tmp_path).returncode == 0
    assert (tmp_path / "USER.md").read_text() == "- here\n"


def test_replace_and_remove(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("- timezone: UTC\n- tea\n")
    assert run("memory", "replace", "UTC", "--with", "IST", "--home", str(tmp_path)).returncode == 0
    assert run("memory", "remove", "- tea\n", "--home", str(tmp_path)).returncode == 0
    assert (tmp_path / "MEMORY.md").read_text() == "- timezone: IST\n"


def test_miss_exits_one_with_the_exact_error_and_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("- a\n")
    out = run("memory", "remove", "nonexistent phrase", "--home", str(tmp_path))
    assert out.returncode == 1
    assert out.stderr == "not found: nonexistent phrase\n"
    assert out.stdout == ""
    assert (tmp_path / "MEMORY.md").read_text() == "- a\n"


def test_json_output_for_success_and_error(tmp_path: Path) -> None:
    ok = run("memory", "add", "x", "--home", str(tmp_path), "--json")
    assert json.loads(ok.stdout) == {"output": "ok (add → MEMORY.md); loads next session", "is_error": False}
    miss = run("memory", "replace", "y", "--with", "z", "--home", str(tmp_path), "--json")
    assert miss.returncode == 1
    assert json.loads(miss.stdout) == {"output": "not found: y", "is_error": True}


@pytest.mark.parametrize(
    "args",
    [
        ("memory", "replace", "x"),
        ("memory", "add", "x", "--target", "../etc"),
        ("memory", "append", "x"),
        ("memory",),
        ("soul", "--bogus"),
    ],
)
def test_usage_errors_exit_two(tmp_path: Path, args: tuple[str, ...]) -> None:
    out = run(*args, "--home", str(tmp_path)) if args[-1] != "--bogus" else run(*args)
    assert out.returncode == 2
    assert "usage:" in out.stderr
    assert not (tmp_path / "MEMORY.md").exists()


def test_empty_text_is_a_tool_error_not_a_crash(tmp_path: Path) -> None:
    out = run("memory", "add", "", "--home", str(tmp_path))
    assert out.returncode == 1
    assert out.stderr == "'text' must not be empty or only whitespace\n"


def test_soul_prints_the_composed_soul_as_text_and_json(tmp_path: Path) -> None:
    (tmp_path / "SOUL.md").write_text("You are Kip.\n")
    (tmp_path / "MEMORY.md").write_text("- tea\n")
    text = run("soul", "--home", str(tmp_path))
    assert text.returncode == 0
    assert text.stdout == "## SOUL.md\n\nYou are Kip.\n\n## MEMORY.md\n\n- tea\n"
    as_json = json.loads(run("soul", "--home", str(tmp_path), "--json").stdout)
    assert as_json == {
        "soul": "## SOUL.md\n\nYou are Kip.\n\n## MEMORY.md\n\n- tea",
        "found": ["SOUL.md", "MEMORY.md"],
        "skipped": [],
    }


@pytest.mark.parametrize(
    "args", [("--help",), ("memory", "--help"), ("memory", "replace", "--help"), ("soul", "--help")]
)
def test_help_is_available_for_every_command(args: tuple[str, ...]) -> None:
    out = run(*args)
    assert out.returncode == 0
    assert out.stdout.startswith("usage: persona-notebook")


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / "persona-notebook"
    out = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("persona-notebook ")


def test_add_with_a_line_break_is_refused_and_the_file_is_byte_identical(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_bytes(b"- tea\r\n")
    out = run("memory", "add", "a\nb", "--home", str(tmp_path))
    assert out.returncode == 1
    assert (
        out.stderr == "the text holds a line break, and each entry of MEMORY.md is one '- ' line; nothing was written\n"
    )
    assert (tmp_path / "MEMORY.md").read_bytes() == b"- tea\r\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MEMORY.md"]
