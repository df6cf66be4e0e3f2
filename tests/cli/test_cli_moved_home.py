"""A CLI verb pins its home when it parses its arguments: moved before it writes, the write is refused.

``edit`` shows it best, since it waits for ``$EDITOR`` for as long as a person
types: real processes, the home moved by ``mv`` while the editor has its copy.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

EDITOR = """
import pathlib, sys, time
copy = pathlib.Path(sys.argv[1])
sync = pathlib.Path(sys.argv[0]).parent / "sync"
(sync / "ready").write_text(str(copy))
deadline = time.monotonic() + 60
while not (sync / "go").exists():
    if time.monotonic() > deadline:
        sys.exit(3)
    time.sleep(0.01)
copy.write_text(copy.read_text(encoding="utf-8") + "- typed while it moved\\n", encoding="utf-8")
"""


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    (path / "MEMORY.md").write_text("- tea at 4\n")
    return path


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "sync").mkdir()
    script = tmp_path / "editor.py"
    script.write_text(EDITOR)
    values = dict(os.environ)
    values.pop("VISUAL", None)
    values["EDITOR"] = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    values["XDG_STATE_HOME"] = str(tmp_path / "state")
    return values


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_an_edit_whose_home_was_moved_while_the_editor_ran_is_refused_and_no_ghost_appears(
    home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    sync, elsewhere = tmp_path / "sync", tmp_path / "moved-away"
    editor = subprocess.Popen(
        [sys.executable, "-m", "notebook_app", "edit", "MEMORY.md", "--home", str(home)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while not (sync / "ready").exists():
            assert editor.poll() is None and time.monotonic() < deadline, "the editor never started"
            time.sleep(0.01)
        subprocess.run(["mv", str(home), str(elsewhere)], check=True)
        moved_tree = tree(elsewhere)
        (sync / "go").write_text("")
        stdout, stderr = editor.communicate(timeout=120)
    finally:
        if editor.poll() is None:
            editor.kill()
    assert editor.returncode == 1
    assert stderr.startswith(
        f"the home at {home} was moved or removed since it was opened; nothing was written; your edit is kept at "
    )
    assert not home.exists(), "the old path was created again: a ghost home"
    assert tree(elsewhere) == moved_tree
    kept = Path(stderr.rstrip("\n").rsplit(" is kept at ", 1)[1])
    assert kept.read_text().endswith("- typed while it moved\n"), "the person's text is not lost"


def test_an_add_to_a_new_home_creates_it_once_and_pins_what_was_made(tmp_path: Path) -> None:
    home = tmp_path / "new" / "home"
    run = subprocess.run(
        [sys.executable, "-m", "notebook_app", "memory", "add", "first", "--home", str(home), "--create"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (run.returncode, run.stdout) == (0, "ok (add → MEMORY.md); loads next session\n"), run.stderr
    assert (home / "MEMORY.md").read_text() == "- first\n"


HOLDS_THE_LOCK = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.readline()
"""


def _waits_for_the_lock(inode: int, pid: int) -> bool:
    """Whether ``pid`` is blocked in an exclusive ``flock`` on the folder of ``inode`` (``/proc/locks``'s ``->``)."""
    for line in Path("/proc/locks").read_text().splitlines():
        words = line.split()
        if "->" in words and words[words.index("->") + 3 : words.index("->") + 5] == ["WRITE", str(pid)]:
            if words[words.index("->") + 5].rsplit(":", 1)[-1] == str(inode):
                return True
    return False


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="needs /proc/locks to see a process wait for a lock")
def test_a_home_moved_while_the_write_waits_for_its_lock_is_refused_under_the_lock_and_no_ghost_appears(
    home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """Issue 34, guard: the pin is checked again under the lock, not only before it (moved between the two)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDS_THE_LOCK, str(home)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    inode = home.stat().st_ino
    writer = subprocess.Popen(
        [sys.executable, "-m", "notebook_app", "memory", "add", "written after the move", "--home", str(home)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not _waits_for_the_lock(inode, writer.pid):  # past the check before the lock, waiting for it
        assert writer.poll() is None, writer.communicate()
        assert time.monotonic() < deadline, "the write never waited for the home's lock"
        time.sleep(0.01)
    elsewhere = tmp_path / "moved-away"
    home.rename(elsewhere)
    home.mkdir()  # a folder at the old path: a write by path would make a ghost home here
    holder.communicate("\n", timeout=30)
    out, err = writer.communicate(timeout=60)
    assert writer.returncode != 0, out
    assert "moved or removed" in err, err
    assert tree(home) == {}
    assert tree(elsewhere) == {"MEMORY.md": b"- tea at 4\n"}
