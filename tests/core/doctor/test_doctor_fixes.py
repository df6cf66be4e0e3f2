"""A finding's fix is a guarded core write with a dry run: it shows, then applies, then refuses if outrun."""

from __future__ import annotations

from pathlib import Path

from notebook_app.core.doctor.check import check_home
from notebook_app.core.doctor.fixes import FixPreview
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.record.log.actor import CLI


def fix_of(home: Path, rule: str):
    finding = next(f for f in check_home(home).findings if f.rule == rule)
    assert finding.fix is not None
    return finding.fix


def test_a_duplicate_is_deleted_after_a_dry_run_that_changes_nothing(home: Path) -> None:
    (home / "MEMORY.md").write_text("- tea\r\n- coffee\r\n- tea\r\n")
    fix = fix_of(home, "hygiene.duplicate")
    preview = fix.preview(home)
    assert preview == FixPreview("MEMORY.md", 3, "- tea", None)
    assert (home / "MEMORY.md").read_bytes() == b"- tea\r\n- coffee\r\n- tea\r\n"
    result = fix.apply(home, by=CLI)
    assert not result.is_error, result.output
    assert (home / "MEMORY.md").read_bytes() == b"- tea\r\n- coffee\r\n"
    assert [f.rule for f in check_home(home).problems] == []


def test_a_fix_is_refused_when_the_line_changed_since_the_doctor_read_it(home: Path) -> None:
    (home / "MEMORY.md").write_text("- tea\n- tea\n")
    fix = fix_of(home, "hygiene.duplicate")
    (home / "MEMORY.md").write_text("- tea\n- green tea\n")
    assert isinstance(fix.preview(home), Rejection)
    result = fix.apply(home, by=CLI)
    assert result.is_error and "changed since" in result.output
    assert (home / "MEMORY.md").read_text() == "- tea\n- green tea\n"


def test_a_secret_is_redacted_in_place(home: Path) -> None:
    key = "sk-ant-api03-" + "k" * 40
    (home / "USER.md").write_text(f"- name is Muthu\n- api key {key} for the lab\n")
    fix = fix_of(home, "security.secret")
    preview = fix.dry_run((home / "USER.md").read_text())
    assert isinstance(preview, FixPreview) and preview.after == "- api key [redacted] for the lab"
    assert not fix.apply(home, by=CLI).is_error
    assert (home / "USER.md").read_text() == "- name is Muthu\n- api key [redacted] for the lab\n"


def test_hidden_characters_in_a_file_without_entries_are_removed_by_a_splice(home: Path) -> None:
    (home / "SOUL.md").write_text("You are Kip.\nCareful \u202eand plain.\nEnd.\n")
    fix = fix_of(home, "security.bidi")
    assert fix.preview(home) == FixPreview("SOUL.md", 2, "Careful \u202eand plain.", "Careful and plain.")
    assert not fix.apply(home, by=CLI).is_error
    assert (home / "SOUL.md").read_text() == "You are Kip.\nCareful and plain.\nEnd.\n"
