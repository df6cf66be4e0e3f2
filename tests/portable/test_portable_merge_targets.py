"""A merge reads the target's files as strictly as a source's: a file there that is no regular UTF-8 text file is
a usage error at plan time, in words, and nothing is written (never decoded with replacements, never digested as
empty so that every apply says it changed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_process import run
from portable_homes import env_for, read, toolnexus_home

from notebook_app.portable import Problem, make_plan

KINDS = {
    "not utf-8": "is not UTF-8",
    "symlink": "symbolic link",
    "directory": "cannot be read",
    "fifo": "cannot be read",
}


def _spoil(target: Path, kind: str) -> None:
    if kind == "not utf-8":
        target.write_bytes(b"- caf\xe9\n")
    elif kind == "symlink":
        (target.parent / "elsewhere.txt").write_text("- theirs\n")
        target.symlink_to(target.parent / "elsewhere.txt")
    elif kind == "directory":
        target.mkdir()
    else:
        os.mkfifo(target)


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_merge_into_a_target_file_that_is_no_utf8_regular_file_is_refused_at_plan_time(
    tmp_path: Path, kind: str
) -> None:
    env = env_for(tmp_path)
    persona = read(toolnexus_home(tmp_path, ["mine"]), "toolnexus", env)
    dest = toolnexus_home(tmp_path, [], name="dest")
    (dest / "MEMORY.md").unlink()
    _spoil(dest / "MEMORY.md", kind)
    plan = make_plan(persona, "toolnexus", dest, merge=True, env=env)
    assert isinstance(plan, Problem) and plan.exit_code == 2, plan
    assert "MEMORY.md" in plan.message and KINDS[kind] in plan.message and "nothing written" in plan.message


def test_a_real_merge_into_a_non_utf8_target_exits_2_and_leaves_its_bytes(tmp_path: Path) -> None:
    home = toolnexus_home(tmp_path, ["mine"])
    dest = toolnexus_home(tmp_path, [], name="dest")
    (dest / "MEMORY.md").write_bytes(b"- caf\xe9\n")
    args = ["export", "--home", str(home), "--to", "toolnexus", str(dest), "--merge", "--apply"]
    result = run(*args, tmp=tmp_path)
    assert result.returncode == 2 and "is not UTF-8" in result.stderr, result.stderr
    assert (dest / "MEMORY.md").read_bytes() == b"- caf\xe9\n"
