"""The dry run (``preview``/``plan_edit``) and the real call are one computation."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notebook_app.core.home.files import read_file
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.home.soul import MAX_FILE_BYTES
from notebook_app.core.memory.plan import Edit, parse_request, plan_edit, preview, preview_file
from notebook_app.core.memory.tool import memory_tool


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


def naive(args: dict, text: str) -> str:
    """The contract read literally, without the core's code: the file's new text, or the error."""
    find = args["text"]
    if args["action"] == "add":
        lines = text.split("\n")
        ending = "\r\n" if len(lines) > 1 and lines[-2].endswith("\r") else "\n"
        return text + (ending if lines[-1] else "") + "- " + find + ending
    if find not in text:
        return "not found: " + find
    at = text.index(find)
    return text[:at] + (args["with"] if args["action"] == "replace" else "") + text[at + len(find) :]


words = st.lists(st.sampled_from(["- ", "tea", "UTC", "é", "☕", " ", "\r", "x"]), max_size=4).map("".join)
lines = st.tuples(words, st.sampled_from(["\n", "\r\n", ""])).map("".join)
file_texts = st.lists(lines, max_size=8).map("".join)
needles = st.lists(st.sampled_from(["tea", "UTC", "é", "x", "- ", "\n", "a\r"]), min_size=1, max_size=3).map("".join)
requests = st.one_of(
    st.builds(lambda t: {"action": "add", "text": t}, needles.filter(str.strip)),
    st.builds(lambda t, w: {"action": "replace", "text": t, "with": w}, needles.filter(str.strip), file_texts),
    st.builds(lambda t: {"action": "remove", "text": t}, needles.filter(str.strip)),
)


@settings(max_examples=300, deadline=None)
@given(text=file_texts, args=requests)
def test_dry_run_agrees_with_a_naive_reading_of_the_contract(text: str, args: dict) -> None:
    expected = naive(args, text)
    planned = preview(args, text)
    if isinstance(planned, Rejection):
        assert planned.message == expected
    else:
        assert planned.apply(text) == expected
        assert planned.outcome == "loads next session"


@settings(max_examples=150, deadline=None)
@given(text=file_texts, args=requests)
def test_dry_run_of_the_file_and_the_real_call_agree_with_the_naive_reading(text: str, args: dict) -> None:
    expected = naive(args, text)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        (home / "MEMORY.md").write_bytes(text.encode())
        planned = preview_file(args, read_file(home / "MEMORY.md", limit=MAX_FILE_BYTES + 1))
        res = memory_tool(home).call(args)
        after = (home / "MEMORY.md").read_bytes().decode()
    if expected.startswith("not found: "):
        assert isinstance(planned, Rejection) and planned.message == expected
        assert (res.output, res.is_error, after) == (expected, True, text)
    else:
        assert isinstance(planned, Edit) and planned.apply(text) == expected
        assert (res.output, res.is_error, after) == (
            f"ok ({args['action']} → MEMORY.md); loads next session",
            False,
            expected,
        )
