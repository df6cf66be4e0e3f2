"""A built-in editor's unsaved buffer kept as an editing copy in the state directory, found again per home."""

from __future__ import annotations

import os
from pathlib import Path

from home_bytes import files_of

from notebook_app.core.memory.edits.copies import keep_buffer, kept_copies, kept_dir, mark_told
from notebook_app.core.memory.edits.hand_edit import text_digest, write_file
from notebook_app.core.record.log.actor import NOTEBOOK

BASE = "# Notes\n\n- timezone: UTC\n"
TYPED = BASE + "- typed, never saved\n"


def test_a_kept_buffer_is_the_typed_text_with_its_base_beside_it_and_the_home_is_untouched(
    home: Path, tmp_path: Path
) -> None:
    (home / "MEMORY.md").write_text(BASE)
    before = files_of(home)
    copy = keep_buffer(home, "MEMORY.md", TYPED, BASE, edits_dir=tmp_path / "edits")
    assert isinstance(copy, Path)
    assert copy.name == "MEMORY.md" and copy.read_text() == TYPED
    assert copy.with_name("MEMORY.md.base").read_text() == BASE
    assert copy.parent.parent == kept_dir(home, tmp_path / "edits")
    assert (copy.parent.parent / "home").read_text() == os.path.realpath(home) + "\n"
    assert oct(copy.parent.stat().st_mode & 0o777) == "0o700"
    assert files_of(home) == before


def test_a_kept_copy_saves_back_through_the_guarded_hand_edit_with_its_base(home: Path, tmp_path: Path) -> None:
    (home / "MEMORY.md").write_text(BASE)
    copy = keep_buffer(home, "MEMORY.md", TYPED, BASE, edits_dir=tmp_path / "edits")
    assert isinstance(copy, Path)
    base = copy.with_name("MEMORY.md.base").read_text()
    result = write_file(home, "MEMORY.md", copy.read_text(), base_text=base, base_digest=text_digest(base), by=NOTEBOOK)
    assert not result.is_error, result.output
    assert (home / "MEMORY.md").read_text() == TYPED


def test_kept_copies_are_listed_per_home_oldest_first_and_said_once(home: Path, tmp_path: Path) -> None:
    edits, other = tmp_path / "edits", tmp_path / "other"
    other.mkdir()
    first = keep_buffer(home, "MEMORY.md", "one\n", "", edits_dir=edits)
    second = keep_buffer(home, "memories/USER.md", "two\n", "", edits_dir=edits)  # a Hermes home's path: its name
    keep_buffer(other, "MEMORY.md", "elsewhere\n", "", edits_dir=edits)
    assert isinstance(first, Path) and isinstance(second, Path)
    os.utime(first.with_name("MEMORY.md.base"), (1, 1))  # kept first, whatever the clock's resolution
    found = kept_copies(home, edits_dir=edits)
    assert [(k.path, k.name, k.told) for k in found] == [(first, "MEMORY.md", False), (second, "USER.md", False)]
    link = tmp_path / "link"
    link.symlink_to(home)
    assert kept_copies(link, edits_dir=edits) == found  # one home, however it was named
    mark_told(found[0])
    assert [k.told for k in kept_copies(home, edits_dir=edits)] == [True, False]


def test_no_kept_copies_when_there_are_none_or_the_state_folder_is_missing(home: Path, tmp_path: Path) -> None:
    assert kept_copies(home, edits_dir=tmp_path / "nowhere") == []


def test_a_buffer_that_cannot_be_kept_says_why(home: Path, tmp_path: Path) -> None:
    blocked = tmp_path / "edits"
    blocked.write_text("a file where the folder would be")
    said = keep_buffer(home, "MEMORY.md", TYPED, BASE, edits_dir=blocked)
    assert isinstance(said, str) and said.startswith("could not keep the unsaved MEMORY.md in ")
