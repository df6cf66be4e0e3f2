"""An agent session is 'connected' while its server's process lives, and 'ended' after; probing writes nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from notebook_app.core.sessions.agents import list_sessions, start_session
from notebook_app.core.sessions.presence import is_live

HOLDER = (
    "import sys, time\n"
    "from pathlib import Path\n"
    "from notebook_app.core.sessions.presence import hold\n"
    "assert hold(Path(sys.argv[1])) is not None\n"
    "print('held', flush=True)\n"
    "sys.stdin.read()\n"
)


def test_a_session_file_held_by_a_running_process_is_live_and_ended_once_it_exits(home: Path) -> None:
    session = start_session(home, client_name="kip-host")
    session_file = home / ".notebook" / "sessions" / f"{session.id}.json"
    before = session_file.read_bytes()
    assert not is_live(session_file)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(session_file)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert is_live(session_file)
        assert [s.live for s in list_sessions(home)] == [True]
    finally:
        holder.communicate("", timeout=30)
    assert not is_live(session_file)
    assert [s.live for s in list_sessions(home)] == [False]
    assert session_file.read_bytes() == before


def test_a_missing_or_strange_session_file_is_not_live(home: Path) -> None:
    assert not is_live(home / "nothing.json")
    (home / "folder.json").mkdir()
    assert not is_live(home / "folder.json")
