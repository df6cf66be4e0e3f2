"""A merge reads the target's files as strictly as a source's: a file there that is no regular UTF-8 text file is
a usage error at plan time, in words, and nothing is written (never decoded with replacements, never digested as
empty so that every apply says it changed)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from cli_process import run
from portable_homes import env_for, read, toolnexus_home

from notebook_app.portable.model import Plan, Problem
from notebook_app.portable.planning import make_plan
from notebook_app.portable.writing import apply_plan
from privileges import reader_home, run_as_reader

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


def _with_note(tmp: Path) -> Path:
    home = toolnexus_home(tmp, ["mine"])
    (home / "memory").mkdir()
    (home / "memory" / "2026-12-01.md").write_text("a day\n")
    return home


def test_a_merge_never_writes_through_a_linked_subfolder_of_the_home(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    persona = read(_with_note(tmp_path), "toolnexus", env)
    dest = toolnexus_home(tmp_path, ["theirs"], name="dest")
    outside = tmp_path / "outside"
    outside.mkdir()
    (dest / "memory").symlink_to(outside)
    plan = make_plan(persona, "toolnexus", dest, merge=True, env=env)
    assert isinstance(plan, Problem) and plan.exit_code == 2 and "symbolic link" in plan.message, plan
    (dest / "memory").unlink()
    plan = make_plan(persona, "toolnexus", dest, merge=True, env=env)
    assert isinstance(plan, Plan)
    (dest / "memory").symlink_to(outside)  # linked after the plan: the write refuses it all the same
    applied = apply_plan(plan)
    assert isinstance(applied, Problem) and "symbolic link" in applied.message and "nothing written" in applied.message
    assert not any(outside.iterdir()) and (dest / "MEMORY.md").read_text() == "- theirs\n"


def _merge_into_modes(base: str) -> tuple[str | None, bytes, int, int]:
    """As a user file modes apply to: a merge into a home whose MEMORY.md is 0400 and USER.md 0640."""
    root = Path(base)
    env = env_for(root)
    persona = read(toolnexus_home(root, ["mine"], user=["me"]), "toolnexus", env)
    dest = toolnexus_home(root, ["theirs"], user=["them"], name="dest")
    (dest / "USER.md").chmod(0o640)
    plan = make_plan(persona, "toolnexus", dest, merge=True, env=env)
    assert isinstance(plan, Plan), plan
    (dest / "MEMORY.md").chmod(0o400)
    refused = apply_plan(plan)
    (dest / "MEMORY.md").chmod(0o600)
    written = apply_plan(make_plan(persona, "toolnexus", dest, merge=True, env=env))  # type: ignore[arg-type]
    assert not isinstance(written, Problem), written
    return (
        refused.message if isinstance(refused, Problem) else None,
        (dest / "USER.md").read_bytes(),
        stat.S_IMODE((dest / "USER.md").stat().st_mode),
        stat.S_IMODE((dest / "MEMORY.md").stat().st_mode),
    )


def test_a_merge_keeps_a_files_mode_and_refuses_a_file_it_may_not_write(tmp_path: Path, monkeypatch) -> None:
    _merge_into_modes(str(tmp_path))  # once here first: the child cannot import what lies in root's folders
    with reader_home() as home:
        for name in ("HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
            monkeypatch.setenv(name, str(home))
        refused, user, user_mode, memory_mode = run_as_reader(_merge_into_modes, str(home))
    assert refused is not None and "MEMORY.md" in refused and "cannot be written" in refused
    assert "nothing written" in refused
    assert user == b"- them\n- me\n" and user_mode == 0o640 and memory_mode == 0o600


HOLDS_THE_FILE_OPEN = """
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
print("open", flush=True)
sys.stdin.readline()
print(os.pread(fd, 1 << 20, 0).decode(), end="", flush=True)
"""


def test_a_merge_replaces_each_file_by_a_rename_so_a_reader_that_had_it_open_reads_it_whole_as_it_was(
    tmp_path: Path,
) -> None:
    """Issue 34, guard: ``export --merge`` never rewrites a file in place (a reader would see it change under it)."""
    import subprocess
    import sys

    home = toolnexus_home(tmp_path, ["mine"], ["my user"])
    dest = toolnexus_home(tmp_path, ["theirs"], ["their user"], name="dest")
    before = {name: (dest / name).read_bytes() for name in ("MEMORY.md", "USER.md")}
    readers = {
        name: subprocess.Popen(
            [sys.executable, "-c", HOLDS_THE_FILE_OPEN, str(dest / name)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in before
    }
    for reader in readers.values():
        assert reader.stdout is not None and reader.stdout.readline() == "open\n"
    inodes = {name: (dest / name).stat().st_ino for name in before}
    args = ["export", "--home", str(home), "--to", "toolnexus", str(dest), "--merge", "--apply", "--yes"]
    result = run(*args, tmp=tmp_path)
    assert result.returncode == 0, result.stderr
    for name, reader in readers.items():
        seen, _ = reader.communicate("read\n", timeout=30)
        assert seen == before[name].decode(), f"{name} was rewritten in place under a reader"
        assert (dest / name).read_bytes() != before[name] and (dest / name).stat().st_ino != inodes[name]


def test_a_merge_of_a_home_the_target_holds_already_says_each_file_unchanged_and_writes_none(tmp_path: Path) -> None:
    """Issue 34: ``USER.md ← USER.md (changed)`` was said of a file whose bytes stayed the same, and it was written."""
    home = toolnexus_home(tmp_path, ["mine"], ["my user"])
    dest = tmp_path / "dest"
    first = run("export", "--home", str(home), "--to", "toolnexus", str(dest), "--apply", "--yes", tmp=tmp_path)
    assert first.returncode == 0, first.stderr
    stats = {path.name: path.stat() for path in dest.iterdir()}
    args = ["export", "--home", str(home), "--to", "toolnexus", str(dest), "--merge"]
    planned_only = run(*args, tmp=tmp_path)
    assert planned_only.returncode == 0, planned_only.stderr
    assert ", changed)" not in planned_only.stdout, planned_only.stdout
    assert "USER.md ← USER.md (10 bytes, unchanged: not written)" in planned_only.stdout
    assert "MEMORY.md ← MEMORY.md (7 bytes, unchanged: not written)" in planned_only.stdout
    applied = run(*args, "--apply", "--yes", tmp=tmp_path)
    assert applied.returncode == 0, applied.stderr
    assert "wrote 0 files" in applied.stdout and ", changed)" not in applied.stdout, applied.stdout
    after = {path.name: path.stat() for path in dest.iterdir()}
    assert {n: (s.st_ino, s.st_mtime_ns) for n, s in after.items()} == {
        n: (s.st_ino, s.st_mtime_ns) for n, s in stats.items()
    }
    as_json = run(*args, "--json", tmp=tmp_path)
    files = json.loads(as_json.stdout)["plan"]["files"]
    assert [(f["path"], f["replaces"], f["unchanged"]) for f in files] == [
        ("USER.md", True, True),
        ("MEMORY.md", True, True),
    ]


def test_a_second_merge_of_the_same_home_into_hermes_leaves_its_prose_files_unchanged(tmp_path: Path) -> None:
    """A Hermes target keeps a heading in ``memories/MEMORY.prose.md``: a merge of the same home again appended the
    heading a second time (``# Notes`` twice, then three times), said the file changed and rewrote it."""
    home = toolnexus_home(tmp_path, ["mine"], ["my user"])
    (home / "MEMORY.md").write_text("# Notes\n\n- mine\n")
    (home / "USER.md").write_text("# About\n\n- my user\n")
    dest = tmp_path / "dest"
    first = run("export", "--home", str(home), "--to", "hermes", str(dest), "--apply", tmp=tmp_path)
    assert first.returncode == 0, first.stderr
    prose = {name: (dest / "memories" / name).read_bytes() for name in ("MEMORY.prose.md", "USER.prose.md")}
    assert prose == {"MEMORY.prose.md": b"# Notes\n\n", "USER.prose.md": b"# About\n\n"}
    args = ["export", "--home", str(home), "--to", "hermes", str(dest), "--merge"]
    planned_only = run(*args, tmp=tmp_path)
    assert planned_only.returncode == 0, planned_only.stderr
    assert ", changed)" not in planned_only.stdout, planned_only.stdout
    assert "memories/MEMORY.prose.md ← MEMORY.md (prose) (9 bytes, unchanged: not written)" in planned_only.stdout
    applied = run(*args, "--apply", tmp=tmp_path)
    assert applied.returncode == 0, applied.stderr
    assert "wrote 0 files" in applied.stdout, applied.stdout
    assert {name: (dest / "memories" / name).read_bytes() for name in prose} == prose
