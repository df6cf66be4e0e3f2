"""The dry run over a file as read refuses, places and words everything as the real call does."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from unprivileged import as_unprivileged, listing

from notebook_app.core.home.files import FileRead, FileStatus, read_file
from notebook_app.core.home.refusals import Rejection, edit_refusal
from notebook_app.core.home.soul import MAX_FILE_BYTES
from notebook_app.core.memory.plan import Edit, preview_file
from notebook_app.core.memory.tool import memory_tool

READ_LIMIT = MAX_FILE_BYTES + 64 * 1024  # what the app reads: the cap and a margin
ACTIONS = [
    {"action": "add", "text": "new"},
    {"action": "replace", "text": "caf", "with": "tea"},
    {"action": "remove", "text": "caf"},
]


def memory_read(home: Path, limit: int = READ_LIMIT) -> FileRead:
    return read_file(home / "MEMORY.md", limit=limit)


def _directory(home: Path, outside: Path) -> None:
    (home / "MEMORY.md").mkdir()


def _link(home: Path, outside: Path) -> None:
    (outside / "real.md").write_text("- caf\n")
    (home / "MEMORY.md").symlink_to(outside / "real.md")


def _dangling(home: Path, outside: Path) -> None:
    (home / "MEMORY.md").symlink_to(outside / "gone.md")


def _loop(home: Path, outside: Path) -> None:
    (home / "MEMORY.md").symlink_to(home / "MEMORY.md")


def _link_to_a_folder(home: Path, outside: Path) -> None:
    (home / "MEMORY.md").symlink_to(outside)


def _fifo(home: Path, outside: Path) -> None:
    os.mkfifo(home / "MEMORY.md")


def _not_utf8_far_from_the_end(home: Path, outside: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- caf\xe9\n" + b"- fine\n" * 40)


HOSTILE: dict[str, Callable[[Path, Path], None]] = {
    "directory": _directory,
    "link": _link,
    "dangling link": _dangling,
    "link loop": _loop,
    "link to a folder": _link_to_a_folder,
    "fifo": _fifo,
    "not utf-8": _not_utf8_far_from_the_end,
}


@pytest.mark.parametrize("args", ACTIONS, ids=lambda a: a["action"])
@pytest.mark.parametrize("state", HOSTILE)
def test_dry_run_refuses_in_the_calls_own_words(tmp_path: Path, home: Path, state: str, args: dict) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    HOSTILE[state](home, outside)
    before = listing(home)
    planned = preview_file(args, memory_read(home))
    res = memory_tool(home).call(args)
    assert isinstance(planned, Rejection)
    assert res.is_error and res.output == planned.message
    assert listing(home) == before


def test_the_words_name_what_is_wrong(tmp_path: Path, home: Path) -> None:
    _dangling(home, tmp_path)
    assert edit_refusal(memory_read(home)) == Rejection(
        f"MEMORY.md is a symbolic link (to {tmp_path / 'gone.md'}); the memory tool edits only regular files "
        "inside the home, so nothing was written"
    )
    (home / "MEMORY.md").unlink()
    _not_utf8_far_from_the_end(home, tmp_path)
    assert edit_refusal(memory_read(home)) == Rejection(
        "MEMORY.md is not valid UTF-8 (byte 0xe9 at offset 5); fix or remove the file first, nothing was written"
    )


def dry_run_and_call(home: str, args: dict) -> list:
    planned = preview_file(args, read_file(Path(home) / "MEMORY.md", limit=READ_LIMIT))
    res = memory_tool(home).call(args)
    return [getattr(planned, "message", None), res.output, res.is_error]


def test_dry_run_of_an_unreadable_file_says_what_the_call_says(open_home: Path) -> None:
    path = open_home / "MEMORY.md"
    path.write_text("- caf\n")
    path.chmod(0o000)
    for args in ACTIONS:
        planned, output, is_error = as_unprivileged(dry_run_and_call, str(open_home), args)
        assert is_error
        assert planned == output == "MEMORY.md cannot be read (Permission denied); nothing was written"


def test_a_read_cut_short_refuses_a_miss_in_what_it_read_and_names_the_bytes(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- near\n" + b"- filler\n" * 20 + b"- far\n")
    read = memory_read(home, limit=100)
    assert not read.complete
    planned = preview_file({"action": "remove", "text": "- far\n"}, read)
    assert planned == Rejection(
        "not found in the first 100 bytes of MEMORY.md: - far\n (the file is 193 bytes; the tool searches all of it)"
    )
    assert not memory_tool(home).call({"action": "remove", "text": "- far\n"}).is_error


def test_a_read_cut_inside_a_character_still_plans_what_it_holds(home: Path) -> None:
    text = "- é near\n" + "é" * 60
    (home / "MEMORY.md").write_text(text)
    read = memory_read(home, limit=41)  # stops inside an é: not an error, not a character
    assert read.data[-1] == 0xC3
    planned = preview_file({"action": "replace", "text": "near", "with": "close"}, read)
    assert isinstance(planned, Edit)
    assert memory_tool(home).call({"action": "replace", "text": "near", "with": "close"}).output == (
        f"ok (replace → MEMORY.md); {planned.outcome}"
    )
    assert (home / "MEMORY.md").read_text() == planned.apply(text)


@pytest.mark.parametrize(
    ("size", "args"),
    [
        (MAX_FILE_BYTES - 100, {"action": "add", "text": "fits"}),
        (MAX_FILE_BYTES - 6, {"action": "add", "text": "crosses the cut"}),
        (MAX_FILE_BYTES, {"action": "add", "text": "at the cut"}),
        (MAX_FILE_BYTES + 5000, {"action": "add", "text": "past the cut"}),
        (READ_LIMIT + 5000, {"action": "add", "text": "past what the app reads"}),
        (MAX_FILE_BYTES + 10, {"action": "replace", "text": "head", "with": "HEAD"}),
        (MAX_FILE_BYTES - 10, {"action": "replace", "text": "head", "with": "a much longer head"}),
        (MAX_FILE_BYTES + 40, {"action": "replace", "text": "tail", "with": "TAIL"}),
    ],
)
def test_what_the_cap_does_to_an_edit_is_said_alike_by_dry_run_and_call(home: Path, size: int, args: dict) -> None:
    head, tail = b"- head\n", b"- tail\n"
    (home / "MEMORY.md").write_bytes(head + b"x" * (size - len(head) - len(tail) - 1) + b"\n" + tail)
    planned = preview_file(args, memory_read(home))
    assert isinstance(planned, Edit), planned
    assert memory_tool(home).call(args).output == f"ok ({args['action']} → MEMORY.md); {planned.outcome}"


def test_the_cap_outcome_says_how_far_past_the_cut(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"x" * (MAX_FILE_BYTES + 4999) + b"\n")
    planned = preview_file({"action": "add", "text": "late"}, memory_read(home))
    assert isinstance(planned, Edit)
    assert planned.outcome == (
        "will not load: MEMORY.md is cut at the 2,097,152-byte bootstrap cap and this starts 5,000 bytes past the cut"
    )
    (home / "MEMORY.md").write_bytes(b"x" * (MAX_FILE_BYTES - 3) + b"\n")
    planned = preview_file({"action": "add", "text": "late"}, memory_read(home))
    assert isinstance(planned, Edit)
    assert planned.outcome == (
        "will not load: MEMORY.md is cut at the 2,097,152-byte bootstrap cap and this crosses the cut; "
        "its last 5 of 7 bytes fall past it"
    )


def test_dry_run_given_the_other_file_says_so(home: Path) -> None:
    read = read_file(home / "USER.md", limit=READ_LIMIT)
    assert read.status is FileStatus.ABSENT
    assert preview_file({"action": "add", "text": "x"}, read) == Rejection(
        "this call writes MEMORY.md, but the dry run was given USER.md"
    )


def test_the_dry_run_names_the_line_an_edit_begins_on_only_where_it_counted_the_lines(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- head\n" + b"- filler line of memory\n" * 140_000)  # 3.4 MB: read in part
    read = memory_read(home)
    assert not read.complete
    add = preview_file({"action": "add", "text": "late"}, read)
    assert isinstance(add, Edit) and add.line is None
    replace = preview_file({"action": "replace", "text": "filler", "with": "FILLER"}, read)
    assert isinstance(replace, Edit) and replace.line == 1
    (home / "MEMORY.md").write_bytes(b"- a\n- b")
    add = preview_file({"action": "add", "text": "c"}, memory_read(home))
    assert isinstance(add, Edit) and add.line == 2
