"""The core owns the soul's layout: each section's offsets and line numbers, stated once."""

from __future__ import annotations

from pathlib import Path

from notebook_app.core.home.soul import MAX_FILE_BYTES, TRUNCATION_NOTICE, compose


def test_each_section_says_where_its_heading_and_body_are(home: Path) -> None:
    (home / "SOUL.md").write_text("I am Kip.\nTerse.\n")
    (home / "USER.md").write_text("- name is Muthu\n")
    (home / "MEMORY.md").write_text("\n\n- timezone: IST\n- likes tea\n\n")
    composition = compose(home)
    lines = composition.soul.split("\n")
    assert [s.name for s in composition.sections] == composition.found
    for section, file in zip(composition.sections, composition.files, strict=True):
        assert lines[section.heading_line] == f"## {file.name}"
        assert lines[section.heading_line + 1] == ""
        assert composition.soul[section.body_start : section.body_end] == file.body
        assert lines[section.first_body_line : section.last_line + 1] == file.body.split("\n")
        assert section.notice_line is None
    assert [s.heading_line for s in composition.sections] == [0, 5, 9]


def test_a_cut_file_s_notice_line_is_its_last(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- x\n" * (MAX_FILE_BYTES // 4 + 5))
    composition = compose(home)
    section = composition.section("MEMORY.md")
    assert section is not None and section.truncated
    assert composition.soul.split("\n")[section.notice_line] == TRUNCATION_NOTICE
