"""Tidy reads the history for when each entry was written: the newer fact is kept, the least recent move first."""

from __future__ import annotations

from hashlib import sha256
from pathlib import Path

from notebook_app.core.hosts.choice import resolve_host
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.tidy.model import Kind
from notebook_app.core.tidy.propose import tidy


def _call(home: Path, **args: str) -> None:
    result = memory_tool(home).call(args)
    assert not result.is_error, result.output


def test_the_fact_written_last_is_kept_even_on_an_earlier_line(home: Path) -> None:
    _call(home, action="add", text="timezone: IST")
    _call(home, action="add", text="timezone: UTC")
    _call(home, action="replace", text="timezone: IST", **{"with": "timezone: CET"})  # line 1, now the newest
    assert (home / "MEMORY.md").read_text() == "- timezone: CET\n- timezone: UTC\n"
    (hunk,) = tidy(home).hunks
    assert hunk.kind is Kind.SUPERSEDED
    assert [entry.line for entry in hunk.entries] == [2]
    evidence = dict(hunk.evidence)
    assert evidence["kept"] == "line 1: timezone: CET"
    assert evidence["newer by"].startswith("its write time, 20")
    assert "line 1, written last (20" in hunk.reason


def test_without_a_history_the_later_line_is_the_newer(home: Path) -> None:
    (home / "MEMORY.md").write_text("- timezone: CET\n- timezone: UTC\n")
    (hunk,) = tidy(home).hunks
    assert [entry.line for entry in hunk.entries] == [1]
    assert dict(hunk.evidence)["newer by"] == "the later line"


def test_over_its_cap_the_least_recently_written_entries_move_first(home: Path) -> None:
    facts = [sha256(str(i).encode()).hexdigest()[:20] for i in range(230)]  # over Claude Code's 200 lines
    for fact in facts:
        _call(home, action="add", text=fact)
    _call(home, action="replace", text=facts[0], **{"with": "the first fact, rewritten just now"})
    profile = resolve_host("claude-code").profile
    (hunk,) = tidy(home, profile=profile).hunks
    assert hunk.kind is Kind.OVER_BUDGET
    moved = [entry.line for entry in hunk.entries]
    assert 1 not in moved  # line 1 was written last: it stays
    assert moved == list(range(2, 2 + len(moved)))  # the rest in the order they were written
    assert dict(hunk.evidence)["oldest by"] == "write time, then line order"
    assert "least recently written" in hunk.reason


def test_an_over_cap_file_without_history_moves_its_earliest_lines(home: Path) -> None:
    (home / "MEMORY.md").write_text("".join(f"- {sha256(str(i).encode()).hexdigest()[:20]}\n" for i in range(230)))
    (hunk,) = tidy(home, profile=resolve_host("claude-code").profile).hunks
    assert [entry.line for entry in hunk.entries][:2] == [1, 2]
    assert dict(hunk.evidence)["oldest by"] == "line order"
