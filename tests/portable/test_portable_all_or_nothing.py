"""An export that is no merge writes each place whole or not at all, even when its process is killed midway.

The killed moves are real ``persona-notebook export --apply`` processes (``stopped_move.py``), paused at a step
of the write and sent SIGKILL there; the next run is a real process too.
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from portable_homes import demo_home, env_for, files_under, planned, read

import notebook_app.portable.staging as staging
import notebook_app.portable.writing as writing
from notebook_app.core.hostbase.export import Place
from notebook_app.portable.model import Applied, Plan, Problem
from notebook_app.portable.planning import make_plan
from notebook_app.portable.staging import STAGING, stagings_beside
from notebook_app.portable.writing import apply_plan

STOPPED_MOVE = Path(__file__).with_name("stopped_move.py")


def _plan(tmp: Path, host: str, dest: Path, *, merge: bool = False) -> Plan | Problem:
    return make_plan(read(tmp / "demo", "toolnexus", env_for(tmp)), host, dest, merge=merge, env=env_for(tmp))


def _env(tmp: Path) -> dict[str, str]:
    """The CLI's environment in cli_process.run, with Claude Code's config folder in ``tmp`` (env_for)."""
    return {
        **env_for(tmp),
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "XDG_STATE_HOME": str(tmp / "state"),
        "OPENCLAW_CONFIG_PATH": str(tmp / "no-openclaw.json"),
        "GIT_CEILING_DIRECTORIES": str(tmp),
    }


def _kill_at(tmp: Path, when: str, host: str, dest: Path) -> None:
    """Run ``export --apply`` in a process, wait for it to pause at ``when``, and SIGKILL it there."""
    marker = tmp / "paused"
    args = ("export", "--home", str(tmp / "demo"), "--to", host, str(dest), "--apply", "--yes")
    child = subprocess.Popen(
        [sys.executable, str(STOPPED_MOVE), when, str(marker), *args],
        env=_env(tmp),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not marker.exists():
        if child.poll() is not None:
            pytest.fail(f"the move ended before its pause ({child.returncode}): {child.communicate()}")
        assert time.monotonic() < deadline, "the move never reached its pause"
        time.sleep(0.02)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL


def _apply_again(tmp: Path, host: str, dest: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    args = ("export", "--home", str(tmp / "demo"), "--to", host, str(dest), "--apply", "--yes", *extra)
    return subprocess.run(
        [sys.executable, "-m", "notebook_app", *args],
        env=_env(tmp),
        capture_output=True,
        text=True,
        timeout=60,
    )


def _texts(*folders: Path) -> dict[Path, str]:
    return {path: path.read_text() for path in files_under(*folders)}


@pytest.mark.parametrize(("host", "dest_was"), [("openclaw", "absent"), ("hermes", "empty"), ("claude-code", "absent")])
def test_a_move_killed_while_writing_leaves_dest_as_it_was_and_the_next_apply_writes_it_whole(
    tmp_path: Path, host: str, dest_was: str
) -> None:
    demo_home(tmp_path)
    dest = tmp_path / "dest"
    if dest_was == "empty":
        dest.mkdir()
    plan = _plan(tmp_path, host, dest)
    assert isinstance(plan, Plan)
    places = list(plan.places.values())
    _kill_at(tmp_path, "write:2", host, dest)
    if dest_was == "empty":
        assert dest.is_dir() and not any(dest.iterdir())
    else:
        assert not dest.exists()
    assert Place.MEMORY not in plan.places or not plan.places[Place.MEMORY].exists()
    left = [path for place in places for path in stagings_beside(place)]
    assert left and len(files_under(*left)) >= 2  # the killed move had written into its staging folders
    again = _plan(tmp_path, host, dest)
    assert isinstance(again, Plan) and all(any(str(path) in note for note in again.notes) for path in left)
    applied = _apply_again(tmp_path, host, dest)
    assert applied.returncode == 0, applied.stderr
    assert _texts(*places) == planned(plan)
    assert [path for place in places for path in stagings_beside(place)] == []


def test_a_claude_code_move_killed_between_its_two_folders_is_named_and_finished_by_a_merge(tmp_path: Path) -> None:
    demo_home(tmp_path)
    dest = tmp_path / "proj"
    plan = _plan(tmp_path, "claude-code", dest)
    assert isinstance(plan, Plan)
    memory = plan.places[Place.MEMORY]
    _kill_at(tmp_path, "rename:2", "claude-code", dest)
    assert not dest.exists(), "DEST is renamed last: it is there only when the whole move is"
    assert _texts(memory) == {path: text for path, text in planned(plan).items() if path.is_relative_to(memory)}
    refused = _apply_again(tmp_path, "claude-code", dest)
    assert refused.returncode == 2 and "the auto-memory folder" in refused.stderr
    assert "--merge writes the rest" in refused.stderr and not dest.exists()
    merged = _apply_again(tmp_path, "claude-code", dest, "--merge")
    assert merged.returncode == 0, merged.stderr
    assert _texts(dest, memory) == planned(plan)  # the rest written, nothing twice, no SOUL.incoming.md
    assert stagings_beside(dest) == [] and stagings_beside(memory) == []


def _filling(folder: Path, real=staging.sync_tree):
    """``sync_tree``, then a file of someone else's in ``folder``: a folder that fills between plan and rename."""

    def sync_then_fill(staged: Path) -> None:
        real(staged)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "notes.txt").write_text("mine\n")

    return sync_then_fill


@pytest.mark.parametrize("dest_was", ["absent", "empty"])
def test_a_dest_that_fills_between_plan_and_rename_is_refused_and_nothing_is_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dest_was: str
) -> None:
    demo_home(tmp_path)
    dest = tmp_path / "dest"
    if dest_was == "empty":
        dest.mkdir()
    plan = _plan(tmp_path, "openclaw", dest)
    assert isinstance(plan, Plan)
    monkeypatch.setattr(writing, "sync_tree", _filling(dest))
    result = apply_plan(plan)
    assert isinstance(result, Problem) and result.exit_code == 1
    assert f"DEST {dest} is no longer empty (it holds notes.txt); nothing written" in result.message
    assert _texts(dest) == {dest / "notes.txt": "mine\n"} and stagings_beside(dest) == []


def test_a_claude_code_memory_folder_that_fills_refuses_both_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every place is checked under its lock before any is renamed: DEST is not written either."""
    demo_home(tmp_path)
    dest = tmp_path / "proj"
    plan = _plan(tmp_path, "claude-code", dest)
    assert isinstance(plan, Plan)
    memory = plan.places[Place.MEMORY]
    monkeypatch.setattr(writing, "sync_tree", _filling(memory))
    result = apply_plan(plan)
    assert isinstance(result, Problem) and "the auto-memory folder" in result.message
    assert "is no longer empty" in result.message
    assert not dest.exists() and _texts(memory) == {memory / "notes.txt": "mine\n"}
    assert stagings_beside(dest) == [] and stagings_beside(memory) == []


def test_a_dest_made_and_filled_at_the_rename_itself_is_refused_by_the_kernel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past every check, the rename itself refuses a folder that holds anything (ENOTEMPTY), said in words."""
    demo_home(tmp_path)
    dest = tmp_path / "dest"
    plan = _plan(tmp_path, "openclaw", dest)
    assert isinstance(plan, Plan)
    real = staging.rename_onto

    def fill_then_rename(staged: Path, place: Path) -> None:
        place.mkdir()
        (place / "notes.txt").write_text("mine\n")
        real(staged, place)

    monkeypatch.setattr(staging, "rename_onto", fill_then_rename)
    result = apply_plan(plan)
    assert isinstance(result, Problem) and "was made or filled since the plan" in result.message
    assert _texts(dest) == {dest / "notes.txt": "mine\n"} and stagings_beside(dest) == []


def test_a_staging_folder_a_running_move_holds_is_left_alone(tmp_path: Path) -> None:
    demo_home(tmp_path)
    dest = tmp_path / "dest"
    held = tmp_path / f".dest{STAGING}running"
    held.mkdir()
    (held / "SOUL.md").write_text("a move writing now\n")
    fd = os.open(held, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        plan = _plan(tmp_path, "openclaw", dest)
        assert isinstance(plan, Plan) and isinstance(apply_plan(plan), Applied)
        assert (held / "SOUL.md").read_text() == "a move writing now\n"
    finally:
        os.close(fd)
    assert _texts(dest) == planned(plan)
    other = _plan(tmp_path, "openclaw", tmp_path / "other")
    assert isinstance(other, Plan) and isinstance(apply_plan(other), Applied)
    assert held.exists(), "only a move of that place removes its staging folders"
    merge = _plan(tmp_path, "openclaw", dest, merge=True)
    assert isinstance(merge, Plan) and any(str(held) in note for note in merge.notes)
    assert isinstance(apply_plan(merge), Applied) and not held.exists(), "unheld now: its move is gone"
