"""Bootstrap files that are there but cannot load: left out of the soul, never silently.

Real FIFOs, link loops, devices, directories, dangling links and a mode-000
file read by an unprivileged user (root would read it anyway). Composing
runs in a child process where a regression could hang.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hostile import MAKERS, UNREADABLE_MESSAGE, compose_in_a_child
from notebook_app.core.home.files import FileStatus, read_file
from notebook_app.core.home.soul import MAX_FILE_BYTES, SkippedFile, compose, compose_soul
from privileges import reader_home, run_as_reader, unreadable_file

SOUL = "## SOUL.md\n\nYou are Kip."


@pytest.mark.parametrize("kind", MAKERS)
def test_a_memory_file_that_cannot_load_is_left_out_of_the_soul_and_named(home: Path, kind: str) -> None:
    (home / "SOUL.md").write_text("You are Kip.\n")
    status, message = MAKERS[kind](home / "MEMORY.md")
    composed = compose_in_a_child(home)
    assert composed == {
        "soul": SOUL,
        "found": ["SOUL.md"],
        "skipped": [{"name": "MEMORY.md", "status": status.name.lower(), "message": message}],
    }


@pytest.mark.parametrize("kind", MAKERS)
def test_composing_beside_a_file_that_cannot_load_changes_nothing_on_disk(home: Path, kind: str) -> None:
    MAKERS[kind](home / "MEMORY.md")
    before = os.lstat(home / "MEMORY.md")
    compose_in_a_child(home)
    after = os.lstat(home / "MEMORY.md")
    assert (after.st_mode, after.st_ino, after.st_size) == (before.st_mode, before.st_ino, before.st_size)
    assert sorted(os.listdir(home)) == ["MEMORY.md"]


def test_an_unreadable_memory_file_is_left_out_and_named_for_an_unprivileged_reader() -> None:
    with reader_home() as home:
        (home / "SOUL.md").write_text("You are Kip.\n")
        unreadable_file(home / "MEMORY.md")

        def compose_as_reader(path: Path) -> tuple[str, list[str], tuple[SkippedFile, ...]]:
            with pytest.raises(PermissionError):  # the reader really cannot open it
                (path / "MEMORY.md").open("rb")
            composition = compose(path)
            return composition.soul, composition.found, composition.skipped

        soul, found, skipped = run_as_reader(compose_as_reader, home)
        assert (soul, found) == (SOUL, ["SOUL.md"])
        assert skipped == (SkippedFile("MEMORY.md", FileStatus.UNREADABLE, UNREADABLE_MESSAGE),)


def test_a_home_its_reader_may_enter_but_not_list_still_composes() -> None:
    """The shared lock opens the folder for reading; without that right its files still load."""
    with reader_home() as home:
        (home / "SOUL.md").write_text("You are Kip.\n")
        home.chmod(0o311)  # its owner, the reader, may enter and write, not list

        def compose_as_reader(path: Path) -> tuple[str, list[str]]:
            with pytest.raises(PermissionError):  # the reader really cannot list it
                os.listdir(path)
            return compose_soul(path)

        try:
            assert run_as_reader(compose_as_reader, home) == (SOUL, ["SOUL.md"])
        finally:
            home.chmod(0o755)


def test_a_link_to_a_regular_file_loads_like_the_file(tmp_path: Path, home: Path) -> None:
    outside = tmp_path / "kept-elsewhere.md"
    outside.write_text("- loaded through a link\n")
    (home / "MEMORY.md").symlink_to(outside)
    composition = compose(home)
    assert (composition.soul, composition.found, composition.skipped) == (
        "## MEMORY.md\n\n- loaded through a link",
        ["MEMORY.md"],
        (),
    )


def test_a_link_to_dev_zero_is_never_read(tmp_path: Path) -> None:
    link = tmp_path / "MEMORY.md"
    link.symlink_to("/dev/zero")
    read = read_file(link, limit=MAX_FILE_BYTES + 1)
    assert (read.status, read.data, read.link_target) == (FileStatus.SPECIAL, b"", "/dev/zero")


def test_a_huge_file_is_read_only_up_to_the_cap_plus_one(home: Path) -> None:
    huge = home / "MEMORY.md"
    with open(huge, "wb") as handle:
        handle.write(b"- first entry\n")
        handle.truncate(200 * 1024 * 1024)  # sparse: 200 MB on paper, nothing on disk
    read = read_file(huge, limit=MAX_FILE_BYTES + 1)
    assert (read.status, read.size, len(read.data)) == (FileStatus.REGULAR, 200 * 1024 * 1024, MAX_FILE_BYTES + 1)
    loaded = compose(home).file("MEMORY.md")
    assert loaded is not None and loaded.truncated and loaded.size == 200 * 1024 * 1024


def test_a_file_that_only_stops_loading_is_reported_the_moment_it_does(home: Path) -> None:
    """A file replaced by a directory between two composes moves from found to skipped."""
    (home / "USER.md").write_text("- name is Muthu\n")
    assert compose(home).found == ["USER.md"]
    (home / "USER.md").unlink()
    (home / "USER.md").mkdir()
    composition = compose(home)
    assert composition.found == [] and [s.name for s in composition.skipped] == ["USER.md"]


def test_skipped_files_are_listed_in_bootstrap_order(home: Path) -> None:
    (home / "MEMORY.md").mkdir()
    (home / "AGENTS.md").symlink_to("AGENTS.md")
    (home / "TOOLS.md").symlink_to("missing.md")
    assert [(s.name, s.status) for s in compose(home).skipped] == [
        ("AGENTS.md", FileStatus.LINK_LOOP),
        ("TOOLS.md", FileStatus.DANGLING_LINK),
        ("MEMORY.md", FileStatus.DIRECTORY),
    ]


def test_an_absent_file_is_neither_found_nor_skipped(home: Path) -> None:
    (home / "SOUL.md").write_text("You are Kip.\n")
    composition = compose(home)
    assert (composition.found, composition.skipped) == (["SOUL.md"], ())


def test_a_fifo_named_like_the_journal_neither_hangs_a_compose_nor_an_add(home: Path) -> None:
    from notebook_app.core.home.soul import compose
    from notebook_app.core.memory.tool import memory_tool
    from notebook_app.core.record.storage import JOURNAL_NAME
    from privileges import run_in_child

    (home / "MEMORY.md").write_text("- a\n")
    os.mkfifo(home / JOURNAL_NAME)

    def compose_and_add() -> tuple[list[str], bool]:
        found = compose(home).found
        return found, memory_tool(home).call({"action": "remove", "text": "- a\n"}).is_error

    found, _ = run_in_child(compose_and_add, timeout=20)
    assert found == ["MEMORY.md"]
