"""The dry run (``preview``/``plan_edit``) and the real call are one computation."""

from __future__ import annotations

from pathlib import Path

import pytest

from notebook_app.core import Edit, Rejection, memory_tool, parse_request, plan_edit, preview


def test_add_plans_an_append_at_the_end() -> None:
    edit = preview({"action": "add", "text": "likes tea"}, "- a\n")
    assert isinstance(edit, Edit)
    assert (edit.start, edit.removed, edit.inserted) == (4, "", "- likes tea\n")
    assert edit.is_append
    assert edit.apply("- a\n") == "- a\n- likes tea\n"


def test_add_to_absent_file_is_exactly_one_entry() -> None:
    edit = preview({"action": "add", "text": "x"}, None)
    assert isinstance(edit, Edit) and edit.apply("") == "- x\n"


def test_replace_plans_a_splice_at_the_first_occurrence() -> None:
    edit = preview({"action": "replace", "text": "UTC", "with": "IST"}, "- UTC\n- UTC\n")
    assert isinstance(edit, Edit)
    assert (edit.start, edit.removed, edit.inserted, edit.is_append) == (2, "UTC", "IST", False)


def test_miss_is_the_tools_exact_error() -> None:
    assert preview({"action": "remove", "text": "gone"}, "- here\n") == Rejection("not found: gone")


def test_bad_input_is_rejected_before_any_text_is_needed() -> None:
    assert parse_request({"action": "add", "text": ""}) == Rejection("'text' must not be empty or only whitespace")


@pytest.mark.parametrize(
    "args",
    [
        {"action": "add", "text": "new entry"},
        {"action": "add", "target": "user", "text": "a user fact"},
        {"action": "replace", "text": "tea", "with": "coffee"},
        {"action": "replace", "text": "tea", "with": ""},
        {"action": "remove", "text": "- likes tea\n"},
        {"action": "remove", "text": "absent"},
        {"action": "replace", "text": "x", "target": "nobody", "with": "y"},
    ],
)
def test_dry_run_predicts_the_real_call_exactly(home: Path, args: dict) -> None:
    (home / "MEMORY.md").write_text("- likes tea\n- tea at 4")
    (home / "USER.md").write_text("- name is Muthu\n")
    request = parse_request(args)
    filename = request.filename if not isinstance(request, Rejection) else "MEMORY.md"
    before = (home / filename).read_text()
    planned = preview(args, before)

    result = memory_tool(home).call(args)

    if isinstance(planned, Rejection):
        assert result.is_error and result.output == planned.message
        assert (home / filename).read_text() == before
    else:
        assert not result.is_error
        assert (home / filename).read_text() == planned.apply(before)


def test_plan_edit_never_touches_disk(home: Path) -> None:
    request = parse_request({"action": "add", "text": "x"})
    assert not isinstance(request, Rejection)
    plan_edit(request, "")
    assert list(home.iterdir()) == []
