"""Bytes that are not UTF-8: the doctor names each run and repairs them with U+FFFD, guarded, recorded, undoable."""

from __future__ import annotations

from pathlib import Path

from notebook_app.core.doctor.check import check_home
from notebook_app.core.doctor.repair import RepairPreview, Utf8Fix
from notebook_app.core.history.query import history
from notebook_app.core.history.undo_restore import undo
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.memory.edits.guarded_splice import edit_entry
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import CLI, NOTEBOOK

BROKEN = b"- caf\xc3\xa9\n- ok\n- caf\xe9 au lait\n- cut \xe2\x82 here\n- two \xff\xfe end\n"


def utf8_finding(home: Path):
    return next(f for f in check_home(home).findings if f.rule == "load.not-utf8")


def test_the_finding_names_every_run_of_bad_bytes_with_its_line_offset_and_hex(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(BROKEN)
    finding = utf8_finding(home)
    assert finding.line == 3
    assert finding.message == (
        "MEMORY.md is not UTF-8 at byte 18 (0xe9) and in 2 more places: a session "
        "loads U+FFFD in its place, and the memory tool refuses to edit the file. Bad "
        "bytes: line 3, byte 18: e9; line 4, byte 34: e2 82; line 5, byte 48: ff fe"
    )
    assert isinstance(finding.fix, Utf8Fix)
    assert finding.fix.label == "replace the bytes that are not UTF-8, in 3 places, with U+FFFD"


def test_the_dry_run_says_what_becomes_u_fffd_and_writes_nothing(home: Path, snapshot_files) -> None:
    (home / "MEMORY.md").write_bytes(BROKEN)
    before = snapshot_files(home)
    preview = utf8_finding(home).fix.preview(home)
    assert preview == RepairPreview(
        "MEMORY.md", "3 places become U+FFFD (�): line 3, byte 18: e9; line 4, byte 34: e2 82; line 5, byte 48: ff fe"
    )
    assert snapshot_files(home) == before  # no .notebook/ either


def test_the_repair_writes_what_a_session_loaded_and_the_file_can_be_edited_again(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(BROKEN)
    assert memory_tool(home, by=CLI).call({"action": "add", "text": "x"}).is_error  # refused before the repair
    result = utf8_finding(home).fix.apply(home, by=NOTEBOOK)
    assert (result.output, result.is_error) == (
        "ok (replace 3 places of bytes that are not UTF-8 with U+FFFD → MEMORY.md); loads next session",
        False,
    )
    assert (home / "MEMORY.md").read_bytes() == BROKEN.decode("utf-8", "replace").encode("utf-8")
    assert [f.rule for f in check_home(home).problems] == []
    assert not edit_entry(home, "MEMORY.md", 3, "- caf\ufffd au lait", "- café au lait", by=NOTEBOOK).is_error


def test_the_repair_is_recorded_and_undone_byte_for_byte(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(BROKEN)
    utf8_finding(home).fix.apply(home, by=NOTEBOOK)
    (record,) = history(home)
    assert (record.file, record.by.kind.value, record.applied) == ("MEMORY.md", "notebook", True)
    undone = undo(home, record.id, by=CLI)
    assert not undone.is_error, undone.output
    assert (home / "MEMORY.md").read_bytes() == BROKEN


def test_the_repair_is_refused_when_the_file_changed_since_the_doctor_read_it(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(BROKEN)
    fix = utf8_finding(home).fix
    changed = BROKEN + b"- \xff another\n"
    (home / "MEMORY.md").write_bytes(changed)
    assert fix.preview(home) == Rejection("MEMORY.md changed since the doctor read it; nothing was changed")
    result = fix.apply(home, by=CLI)
    assert (result.output, result.is_error) == ("MEMORY.md changed since the doctor read it; nothing was changed", True)
    assert (home / "MEMORY.md").read_bytes() == changed
    assert not (home / ".notebook").exists()


def test_a_file_with_thousands_of_bad_runs_lists_twenty_and_counts_the_rest(home: Path) -> None:
    (home / "SOUL.md").write_bytes(b"You are Kip.\n" + b"a\xff" * 5000 + b"\n")
    finding = utf8_finding(home)
    assert finding.message.endswith("; and 4,980 more")
    assert finding.fix.apply(home, by=CLI).is_error is False
    assert (home / "SOUL.md").read_bytes() == b"You are Kip.\n" + "a\ufffd".encode() * 5000 + b"\n"
