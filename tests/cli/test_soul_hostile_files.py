"""``persona-notebook soul`` on homes with files that cannot load: real processes, each with a timeout.

The soul is printed without the file, exit 0, and the file is named on
stderr in words; ``--json`` lists it under ``skipped``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hostile import MAKERS, REPO, UNREADABLE_MESSAGE
from privileges import check_launch, reader_command, reader_home, unreadable_file

SOUL = "## SOUL.md\n\nYou are Kip."


def soul(*args: str, command: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    argv = command or [sys.executable, "-m", "notebook_app", "soul", *args]
    return subprocess.run(argv, capture_output=True, text=True, cwd=REPO, timeout=60)


@pytest.mark.parametrize("kind", MAKERS)
def test_soul_prints_the_soul_without_the_file_and_names_it_on_stderr(tmp_path: Path, kind: str) -> None:
    (tmp_path / "SOUL.md").write_text("You are Kip.\n")
    _, message = MAKERS[kind](tmp_path / "MEMORY.md")
    out = soul("--home", str(tmp_path))
    assert (out.returncode, out.stdout, out.stderr) == (0, SOUL + "\n", f"persona-notebook: {message}\n")


@pytest.mark.parametrize("kind", MAKERS)
def test_soul_json_lists_the_file_under_skipped(tmp_path: Path, kind: str) -> None:
    (tmp_path / "SOUL.md").write_text("You are Kip.\n")
    status, message = MAKERS[kind](tmp_path / "MEMORY.md")
    out = soul("--home", str(tmp_path), "--json")
    assert out.returncode == 0
    assert json.loads(out.stdout) == {
        "soul": SOUL,
        "found": ["SOUL.md"],
        "skipped": [{"name": "MEMORY.md", "status": status.name.lower(), "message": message}],
    }


def test_soul_names_an_unreadable_file_when_run_by_a_user_it_is_closed_to() -> None:
    with reader_home() as home:
        (home / "SOUL.md").write_text("You are Kip.\n")
        unreadable_file(home / "MEMORY.md")
        text = soul(command=reader_command("soul", "--home", str(home)))
        check_launch(text.returncode, text.stderr)
        assert (text.returncode, text.stdout, text.stderr) == (
            0,
            SOUL + "\n",
            f"persona-notebook: {UNREADABLE_MESSAGE}\n",
        )
        as_json = soul(command=reader_command("soul", "--home", str(home), "--json"))
        assert json.loads(as_json.stdout)["skipped"] == [
            {"name": "MEMORY.md", "status": "unreadable", "message": UNREADABLE_MESSAGE}
        ]


def test_a_home_where_nothing_loads_says_so_rather_than_that_it_is_empty(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").mkdir()
    (tmp_path / "USER.md").symlink_to("USER.md")
    out = soul("--home", str(tmp_path))
    assert out.returncode == 0 and out.stdout == ""
    assert out.stderr.splitlines() == [
        "persona-notebook: USER.md is a symbolic link loop (USER.md → USER.md): it never reaches a file; "
        "the session does not load it",
        "persona-notebook: MEMORY.md is a directory, not a file; the session does not load it",
        f"(empty soul: no bootstrap file in {tmp_path} loads)",
    ]
