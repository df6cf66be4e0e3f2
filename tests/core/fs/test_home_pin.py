"""Every write of the core checks the home's pin under the lock (spec §9): a moved home is refused, nothing is made.

The home is pinned as a shell pins it, then moved (or removed) by ``mv``/``rm``
in a separate process; each of the core's write entry points must then refuse
in words and leave the old path absent and the moved home as it was.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from notebook_app.core.fs.home_pin import READ_ONLY_ENV, pin_home, served_read_only, write_refusal
from notebook_app.core.history.admin import prune, redact
from notebook_app.core.history.query import history
from notebook_app.core.history.undo_restore import restore, undo
from notebook_app.core.memory.edits.guarded_splice import delete_entry, edit_entry, splice
from notebook_app.core.memory.edits.hand_edit import text_digest, write_file
from notebook_app.core.memory.review.decisions import ReviewError, approve, propose, reject
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import CLI, NOTEBOOK, Actor
from notebook_app.core.record.settings import set_review
from notebook_app.core.record.side_events import record_failed
from notebook_app.core.sessions.agents import new_session, write_session_file
from notebook_app.core.sessions.records import AgentSessionError


def files_of(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()
    }


MOVED = "was moved or removed since it was opened; nothing was written"
AGENT = Actor.mcp("s-1", "kip", "1.0")


def _message(result: object) -> str:
    if isinstance(result, str | None):
        return result or ""
    if hasattr(result, "output"):
        return result.output  # type: ignore[no-any-return]
    return str(getattr(result, "message", result))


def _decided(decide: Callable[[], object]) -> object:
    """approve and reject raise ReviewError for a proposal they cannot name: its words are the answer."""
    try:
        return decide()
    except ReviewError as error:
        return str(error)


def _session(home: Path) -> str:
    """write_session_file raises AgentSessionError when it cannot record (the server logs it and serves on)."""
    try:
        write_session_file(home, new_session(home))
    except AgentSessionError as error:
        return str(error)
    return "recorded"


WRITERS: dict[str, Callable[[Path, dict[str, str]], object]] = {
    "memory add": lambda home, ids: memory_tool(home, by=CLI).call({"action": "add", "text": "ghost"}),
    "memory replace": lambda home, ids: memory_tool(home, by=CLI).call(
        {"action": "replace", "text": "tea", "with": "coffee"}
    ),
    "splice": lambda home, ids: splice(home, "MEMORY.md", 0, b"", b"- first\n", by=NOTEBOOK),
    "entry delete": lambda home, ids: delete_entry(home, "MEMORY.md", 1, "- tea at 4", by=NOTEBOOK),
    "entry edit": lambda home, ids: edit_entry(home, "MEMORY.md", 1, "- tea at 4", "- tea at 5", by=NOTEBOOK),
    "hand edit": lambda home, ids: write_file(
        home, "SOUL.md", "new soul\n", base_text="", base_digest=text_digest(""), by=NOTEBOOK
    ),
    "undo": lambda home, ids: undo(home, ids["write"], by=CLI),
    "restore": lambda home, ids: restore(home, "MEMORY.md", ids["write"], by=CLI),
    "redact": lambda home, ids: redact(home, ids["write"]),
    "prune": lambda home, ids: prune(home, keep=0),
    "review setting": lambda home, ids: set_review(home, True, by=CLI),
    "propose": lambda home, ids: propose(home, {"action": "add", "text": "queued"}, by=AGENT),
    "approve": lambda home, ids: _decided(lambda: approve(home, ids["proposal"], by=NOTEBOOK)),
    "reject": lambda home, ids: _decided(lambda: reject(home, ids["proposal"], by=NOTEBOOK)),
    "failed call": lambda home, ids: record_failed(home, AGENT, {"action": "nope"}, "unknown action"),
    "session record": lambda home, ids: _session(home),
}


def _prepared(home: Path) -> dict[str, str]:
    (home / "MEMORY.md").write_text("- tea at 4\n")
    assert not memory_tool(home, by=CLI).call({"action": "add", "text": "rain"}).is_error
    proposal = propose(home, {"action": "add", "text": "pending"}, by=AGENT)
    assert not proposal.is_error, proposal.output
    records = history(home)
    return {
        "write": next(e.id for e in records if e.action == "add"),
        "proposal": next(e.id for e in records if e.action == "proposed"),
    }


@pytest.mark.parametrize("writer", WRITERS)
def test_every_write_to_a_home_moved_after_it_was_pinned_is_refused_and_makes_no_ghost(
    home: Path, tmp_path: Path, writer: str
) -> None:
    ids = _prepared(home)
    pin_home(home)
    elsewhere = tmp_path / "moved-away"
    subprocess.run(["mv", str(home), str(elsewhere)], check=True)
    before = files_of(elsewhere)
    result = WRITERS[writer](home, ids)
    assert MOVED in _message(result), _message(result)
    assert f"the home at {home} " in _message(result)
    assert not home.exists(), f"{writer} created the old path again: a ghost home"
    assert files_of(elsewhere) == before, f"{writer} wrote through the moved home"


@pytest.mark.parametrize("writer", ["memory add", "splice", "propose", "session record"])
def test_a_folder_made_again_at_the_old_path_is_not_the_pinned_home(home: Path, writer: str) -> None:
    ids = _prepared(home)
    pin_home(home)
    subprocess.run(["rm", "-rf", str(home)], check=True)
    home.mkdir()
    result = WRITERS[writer](home, ids)
    assert MOVED in _message(result), _message(result)
    assert list(home.iterdir()) == []


def test_a_home_absent_when_pinned_is_created_once_then_pinned(tmp_path: Path) -> None:
    home = tmp_path / "new"
    pin_home(home)
    assert (
        memory_tool(home, by=CLI).call({"action": "add", "text": "first"}).output
        == "ok (add → MEMORY.md); loads next session"
    )
    subprocess.run(["mv", str(home), str(tmp_path / "moved")], check=True)
    result = memory_tool(home, by=CLI).call({"action": "add", "text": "second"})
    assert result.is_error and MOVED in result.output
    assert not home.exists()


def test_a_home_removed_and_made_again_at_its_path_is_not_the_home_pinned_though_its_inode_number_is_free(
    tmp_path: Path,
) -> None:
    """ext4 hands a removed folder's inode number to the next folder made (50 of 50 here): the pin holds it."""
    from notebook_app.core.fs.home_pin import moved, pin_home, unpin_home

    home = tmp_path / "home"
    for round_ in range(20):
        home.mkdir()
        (home / "MEMORY.md").write_text("- kept\n")
        pin_home(home)
        shutil.rmtree(home)
        home.mkdir()
        (home / "MEMORY.md").write_text("- impostor\n")
        assert moved(home) is not None, f"round {round_}: the new folder passed for the pinned one"
        result = memory_tool(home, by=CLI).call({"action": "add", "text": "lost"})
        assert result.is_error and "was moved or removed since it was opened" in result.output
        assert (home / "MEMORY.md").read_text() == "- impostor\n"
        unpin_home(home)
        shutil.rmtree(home)


@pytest.mark.parametrize("writer", WRITERS)
def test_every_write_of_a_process_started_read_only_is_refused_in_words_and_changes_nothing(
    home: Path, monkeypatch: pytest.MonkeyPatch, writer: str
) -> None:
    """serve --read-only sets READ_ONLY_ENV for the notebooks it serves: the one lock refuses each write."""
    ids = _prepared(home)
    before = files_of(home)
    monkeypatch.setenv(READ_ONLY_ENV, "1")
    result = WRITERS[writer](home, ids)
    assert "served read-only" in _message(result), _message(result)
    assert files_of(home) == before, f"{writer} wrote in a read-only process"
    assert write_refusal(home) == served_read_only()  # what the dry run says before a write is tried


def test_a_read_only_process_creates_no_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(READ_ONLY_ENV, "1")
    result = memory_tool(tmp_path / "new", by=CLI).call({"action": "add", "text": "x"})
    assert result.is_error and "served read-only" in result.output
    assert not (tmp_path / "new").exists()


def test_a_read_only_flag_of_0_or_empty_leaves_writes_as_they_are(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for value in ("", "0"):
        monkeypatch.setenv(READ_ONLY_ENV, value)
        assert not memory_tool(home, by=CLI).call({"action": "add", "text": f"kept {value!r}"}).is_error
