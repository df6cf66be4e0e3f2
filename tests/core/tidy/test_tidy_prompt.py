"""The ``tidy`` prompt's text, built in the core: the memory as it is now, tidy's rules, its dry run as hints.

The calls it gives word for word are run through the real memory tool: each
takes out exactly the lines it names and nothing else.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from hashlib import sha256
from pathlib import Path

import pytest
from test_tidy import PLANTED  # one of each kind tidy proposes, and lines that are not entries

from notebook_app.core.hosts.choice import resolve_host
from notebook_app.core.memory.tool import MemoryTool
from notebook_app.core.tidy.model import Kind, archive_for
from notebook_app.core.tidy.near import THRESHOLD
from notebook_app.core.tidy.prompt import tidy_prompt
from notebook_app.core.tidy.propose import tidy
from notebook_app.core.tidy.rules import KEY_LIMIT

DEMO = Path(__file__).resolve().parents[3] / "notebook_app" / "demo_home"
USER = "- name is Muthu\n- name is Muthu\n"


def _hex(number: int) -> str:
    """A word no other entry has."""
    return sha256(str(number).encode()).hexdigest()


def numbered(text: str) -> list[str]:
    lines = text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")
    width = len(str(len(lines)))
    return [f"{n:>{width}}\t{line}" for n, line in enumerate(lines, 1)]


def test_the_prompt_shows_each_entry_file_as_it_is_now_with_its_target_and_budget(home: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    (home / "USER.md").write_text(USER)
    text = tidy_prompt(home).text
    assert "\n".join(numbered(PLANTED)) in text
    assert "\n".join(numbered(USER)) in text
    assert '### MEMORY.md (target "self"): 18 lines, 262 of its budget of 2,097,152 bytes' in text
    assert '### USER.md (target "user"): 2 lines, 32 of its budget of 2,097,152 bytes' in text
    (home / "MEMORY.md").write_text("- written since\n")  # read when asked, never a snapshot
    assert "1\t- written since\n" in tidy_prompt(home).text


def test_the_rules_are_tidys_own_in_words(home: Path) -> None:
    text = tidy_prompt(home).text
    assert "Delete nothing but exact copies and empty lines" in text
    assert f"token_set_ratio at least {THRESHOLD}" in text
    assert f"at most {KEY_LIMIT} characters, case-folded" in text
    assert archive_for(None) in text and "do not remove entries to make room" in text
    assert "`replace`" in text and "`remove`" in text and "FIRST occurrence" in text
    assert '"target": "self"' in text and '"target": "user"' in text


def test_each_hunk_of_the_dry_run_is_a_hint_with_its_reason(home: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    (home / "USER.md").write_text(USER)
    proposal = tidy(home)
    text = tidy_prompt(home).text
    assert len(proposal.hunks) == 6
    for hunk in proposal.hunks:
        assert f"- {hunk.kind.value}, {hunk.file} (hunk {hunk.id}): {hunk.reason}." in text
    assert "2 lines are not entries" in text


def test_the_suggested_calls_take_out_exactly_the_lines_they_name(home: Path, tmp_path: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    (home / "USER.md").write_text(USER)
    prompt = tidy_prompt(home)
    named = {(s.file, line) for s in prompt.suggested for line in s.lines}
    assert named == {("MEMORY.md", 3), ("MEMORY.md", 5), ("MEMORY.md", 7), ("USER.md", 2)}
    for suggestion in prompt.suggested:
        assert json.dumps(suggestion.call, ensure_ascii=False) in prompt.text
    copy = tmp_path / "copy"
    shutil.copytree(home, copy)
    tool = MemoryTool(copy)
    for suggestion in prompt.suggested:
        result = tool.call(suggestion.call)
        assert not result.is_error, result.output
    for name, text in (("MEMORY.md", PLANTED), ("USER.md", USER)):
        kept = [line for n, line in enumerate(text.splitlines(keepends=True), 1) if (name, n) not in named]
        assert (copy / name).read_text() == "".join(kept)


def test_repeated_copies_and_blank_runs_are_taken_out_in_one_call_each(home: Path, tmp_path: Path) -> None:
    text = "- a\n- b\n- a\n- a\n- c\n\n\n\n- b\n"
    (home / "MEMORY.md").write_text(text)
    prompt = tidy_prompt(home)
    # line 9 repeats line 2: only the blank line before it tells it apart, and that one goes in the call before
    assert [s.lines for s in prompt.suggested] == [(3, 4), (7, 8)]
    assert "  - line 9: b\n" in prompt.text
    assert {hunk.kind for hunk in tidy(home).hunks} == {Kind.EXACT_DUPLICATE, Kind.EMPTY}
    copy = tmp_path / "copy"
    shutil.copytree(home, copy)
    for suggestion in prompt.suggested:
        assert not MemoryTool(copy).call(suggestion.call).is_error
    assert (copy / "MEMORY.md").read_text() == "- a\n- b\n- c\n\n- b\n"


def test_a_clean_home_gets_no_hints_and_is_told_to_make_no_calls() -> None:
    prompt = tidy_prompt(DEMO)
    assert prompt.suggested == ()
    assert "The core's dry run finds nothing to tidy" in prompt.text and "make no calls" in prompt.text


def test_building_the_prompt_writes_nothing(home: Path, snapshot_files) -> None:  # type: ignore[no-untyped-def]
    (home / "MEMORY.md").write_text(PLANTED)
    before = snapshot_files(home)
    tidy_prompt(home)
    assert snapshot_files(home) == before and not (home / ".notebook").exists()


def test_an_absent_or_unreadable_file_is_named_and_the_rest_still_shown(home: Path) -> None:
    text = tidy_prompt(home).text
    assert "MEMORY.md does not exist yet" in text and "USER.md does not exist yet" in text
    os.mkfifo(home / "MEMORY.md")
    (home / "USER.md").write_text(USER)
    text = tidy_prompt(home).text
    assert "FIFO" in text and "it cannot be read" in text
    assert "\n".join(numbered(USER)) in text


def test_an_over_budget_file_is_named_with_its_cap_but_no_entry_is_offered_for_removal(home: Path) -> None:
    (home / "MEMORY.md").write_text("".join(f"- entry {i:03d} {'x' * (i % 7)}\n" for i in range(250)))
    profile = resolve_host("claude-code").profile
    (hunk,) = tidy(home, profile=profile).hunks
    prompt = tidy_prompt(home, profile=profile)
    assert hunk.kind is Kind.OVER_BUDGET and hunk.reason in prompt.text
    assert "and 200 lines" in prompt.text and prompt.suggested == ()


def test_a_file_past_the_contracts_cap_is_shown_up_to_it(home: Path) -> None:
    lines = [f"- {_hex(i)}\n" for i in range(40_000)]  # 67 bytes a line: 2.7 MB
    (home / "MEMORY.md").write_text("".join(lines))
    text = tidy_prompt(home).text
    shown = 2 * 1024 * 1024 // 67
    assert f"{shown}\t{lines[shown - 1].rstrip()}" in text
    assert f"\t{lines[shown].rstrip()}" not in text
    assert f"lines {shown + 1:,}–40,000 are not shown" in text


@pytest.mark.serial  # measures time: "fast" is under 10 s on this machine with no other test beside it
def test_an_entry_told_apart_only_by_many_lines_before_it_is_listed_without_a_call_and_fast(home: Path) -> None:
    (home / "MEMORY.md").write_text("- a\n- b\n" * 16_000)  # every later copy needs the whole file before it
    started = time.perf_counter()
    prompt = tidy_prompt(home)
    assert time.perf_counter() - started < 10
    assert [s.lines for s in prompt.suggested] == [(3,)]  # line 3: "- b\n- a\n" first occurs at line 2
    assert "  - line 5: a\n" in prompt.text


def test_a_linked_entry_file_is_shown_but_no_call_is_offered_for_it(home: Path, tmp_path: Path) -> None:
    (tmp_path / "real.md").write_text(USER)
    (home / "USER.md").symlink_to(tmp_path / "real.md")
    prompt = tidy_prompt(home)
    assert "which the memory tool will not edit: propose nothing here" in prompt.text
    assert "\n".join(numbered(USER)) in prompt.text and prompt.suggested == ()
    assert (
        not MemoryTool(home)
        .call({"action": "remove", "target": "user", "text": "- name is Muthu\n"})
        .output.startswith("ok")
    )


def test_a_hunk_of_many_copies_lists_twenty_and_counts_the_rest(home: Path, tmp_path: Path) -> None:
    (home / "MEMORY.md").write_text("- same\n" * 500)
    prompt = tidy_prompt(home)
    assert "  - line 21: same\n" in prompt.text and "  - line 22: same" not in prompt.text
    assert "  - … and 479 more lines of this hunk, not listed" in prompt.text
    (suggestion,) = prompt.suggested  # the 499 copies are one run: one call takes them all out
    assert suggestion.lines == tuple(range(2, 501))
    copy = tmp_path / "copy"
    shutil.copytree(home, copy)
    assert not MemoryTool(copy).call(suggestion.call).is_error
    assert (copy / "MEMORY.md").read_text() == "- same\n"


def test_a_run_too_long_for_one_call_is_listed_without_one(home: Path) -> None:
    (home / "MEMORY.md").write_text("- same\n" * 2000)  # 14,000 characters to take out at once
    prompt = tidy_prompt(home)
    assert prompt.suggested == () and "  - … and 1,979 more lines of this hunk, not listed" in prompt.text
