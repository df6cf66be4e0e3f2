"""A session's calls counted after ``history --prune``: a session that made 4 writes still says 4, never 0.

The prune is the CLI's, in its own process; the sessions are read as the agent-sessions view reads them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_process import run

from notebook_app.core.history.admin import prune
from notebook_app.core.history.query import history
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import CLI
from notebook_app.core.sessions.agents import (
    CallCounts,
    load_session,
    scan_sessions,
    session_actor,
    start_session,
)


def two_sessions_then_the_cli(home: Path) -> tuple[str, str]:
    """Session A makes 4 writes, session B 2 writes and 1 failed call, then the CLI writes 6 times."""
    (home / "MEMORY.md").write_text("- from before\n")
    first = start_session(home, client_name="kip-host", client_version="1.0")
    for i in range(4):
        assert not memory_tool(home, by=session_actor(first)).call({"action": "add", "text": f"a {i}"}).is_error
    second = start_session(home, client_name="wren", client_version="2.0")
    for i in range(2):
        assert not memory_tool(home, by=session_actor(second)).call({"action": "add", "text": f"b {i}"}).is_error
    assert memory_tool(home, by=session_actor(second)).call({"action": "remove", "text": "nowhere"}).is_error
    for i in range(6):
        assert not memory_tool(home, by=CLI).call({"action": "add", "text": f"cli {i}"}).is_error
    return first.id, second.id


def counts(home: Path) -> dict[str, CallCounts]:
    return {summary.id: summary.counts for summary in scan_sessions(home).sessions}


def test_after_a_prune_the_sessions_keep_the_counts_of_the_calls_it_took_out(home: Path, tmp_path: Path) -> None:
    first, second = two_sessions_then_the_cli(home)
    assert counts(home) == {first: CallCounts(4, 0, 0), second: CallCounts(2, 1, 0)}
    out = run("history", "--prune", "--keep", "5", "--home", str(home), tmp=tmp_path)
    assert out.returncode == 0, out.stderr
    assert [e.by.kind.value for e in history(home)] == ["cli"] * 5  # every call of both sessions is gone
    assert counts(home) == {first: CallCounts(4, 0, 0), second: CallCounts(2, 1, 0)}
    session = load_session(home, second)
    assert (session.calls, session.pruned) == ((), CallCounts(2, 1, 0))


def test_calls_after_a_prune_add_to_what_it_counted_and_a_second_prune_counts_each_call_once(
    home: Path, tmp_path: Path
) -> None:
    first, second = two_sessions_then_the_cli(home)
    assert not prune(home, keep=9).is_error  # takes both starts and A's 4 calls, keeps B's 3
    assert counts(home) == {first: CallCounts(4, 0, 0), second: CallCounts(2, 1, 0)}
    assert len(load_session(home, second).calls) == 3
    agent = memory_tool(home, by=session_actor(load_session(home, second)))
    assert not agent.call({"action": "add", "text": "b later"}).is_error
    assert counts(home)[second] == CallCounts(3, 1, 0)
    assert not prune(home, keep=1).is_error
    assert not prune(home, keep=0).is_error
    assert counts(home) == {first: CallCounts(4, 0, 0), second: CallCounts(3, 1, 0)}


def test_a_prune_that_fails_after_counting_counts_no_call_twice(home: Path, monkeypatch) -> None:
    """The counts are kept before the log is rewritten: a prune that stops between the two leaves the log
    whole, and the calls it still holds are not counted on top of the counts."""
    import notebook_app.core.history.admin as admin

    first, second = two_sessions_then_the_cli(home)

    def killed(*args, **kwargs):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(admin, "rewrite_log", killed)
    assert prune(home, keep=5).is_error
    assert len(history(home)) == 15  # the log is as it was: 2 starts, 7 calls, 6 writes by the CLI
    assert counts(home) == {first: CallCounts(4, 0, 0), second: CallCounts(2, 1, 0)}
    assert len(load_session(home, second).calls) + load_session(home, second).pruned.calls == 3


@pytest.mark.parametrize("keep", [0, 3, 12, 100])
def test_any_prune_keeps_every_sessions_total(home: Path, keep: int) -> None:
    first, second = two_sessions_then_the_cli(home)
    assert not prune(home, keep=keep).is_error
    assert counts(home) == {first: CallCounts(4, 0, 0), second: CallCounts(2, 1, 0)}
    for session in (first, second):
        loaded = load_session(home, session)
        assert loaded.pruned + CallCounts.of(loaded.calls) == counts(home)[session]


@pytest.mark.parametrize("kind", ["fifo", "link", "garbage"])
def test_a_counts_file_that_is_a_fifo_a_link_or_not_json_counts_nothing_and_never_hangs(home: Path, kind: str) -> None:
    import os

    first, second = two_sessions_then_the_cli(home)
    path = home / ".notebook" / "pruned-calls.json"
    elsewhere = home.parent / "elsewhere.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link":
        elsewhere.write_text('{"format": "persona-notebook-pruned-calls"}')
        path.symlink_to(elsewhere)
    else:
        path.write_text("{not json")
    assert counts(home) == {first: CallCounts(4, 0, 0), second: CallCounts(2, 1, 0)}
    assert not prune(home, keep=5).is_error  # the file is replaced, never followed
    assert counts(home) == {first: CallCounts(4, 0, 0), second: CallCounts(2, 1, 0)}
    assert not path.is_symlink()
