"""The doctor scans the history too: a secret removed from a file may still be in the log (spec §7, issue 12)."""

from __future__ import annotations

from pathlib import Path

from notebook_app.core.doctor.check import Doctor, check_home
from notebook_app.core.doctor.fixes import RedactFix, RedactPreview
from notebook_app.core.history.query import history
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.memory.edits.guarded_splice import delete_entry
from notebook_app.core.memory.tool import MemoryTool
from notebook_app.core.record.log.actor import CLI, NOTEBOOK

KEY = "sk-ant-api03-" + "Qx7vT2mN9pL4rK8sW1yZ3bH6" * 2
GITHUB = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def everything_under(folder: Path) -> bytes:
    """Every byte the history keeps, decompressed: the log and each snapshot."""
    import zlib

    data = (folder / "events.jsonl").read_bytes()
    for snap in sorted((folder / "snapshots").glob("*.z")) if (folder / "snapshots").is_dir() else ():
        data += zlib.decompress(snap.read_bytes())
    return data


def history_findings(home: Path, doctor: Doctor | None = None):
    report = (doctor or Doctor()).check(home)
    return [f for f in report.findings if f.rule == "security.secret-history"]


def added_then_deleted(home: Path) -> tuple[str, str]:
    """An agent's add holding a key, then a person's delete of that entry: the file is clean, the log is not."""
    tool = MemoryTool(home, by=CLI)
    tool.call({"action": "add", "text": "likes tide tables"})
    assert not tool.call({"action": "add", "text": f"deploy key {KEY}"}).is_error
    tool.call({"action": "add", "text": "timezone: UTC"})
    assert not delete_entry(home, "MEMORY.md", 2, f"- deploy key {KEY}", by=NOTEBOOK).is_error
    add, delete = history(home, file="MEMORY.md")[2], history(home, file="MEMORY.md")[0]
    assert (add.action, delete.action) == ("add", "entry-delete")
    return add.id, delete.id


def test_a_secret_removed_from_the_file_is_found_in_the_records_that_carry_it(home: Path) -> None:
    add, delete = added_then_deleted(home)
    assert KEY not in (home / "MEMORY.md").read_text()
    report = check_home(home)
    assert [f.rule for f in report.findings if f.rule.startswith("security.secret")] == ["security.secret-history"] * 2
    found = {f.record: f for f in history_findings(home)}
    assert set(found) == {add, delete}
    for record, item in found.items():
        assert (item.file, item.line, item.severity.value) == (None, None, "error")
        assert record in item.message and "Anthropic API key" in item.message
        assert KEY not in item.message and KEY[:8] in item.message
        assert item.fix == RedactFix(record)
        assert item.to_json()["record"] == record and item.to_json()["fix"].startswith(f"history --redact {record}")
    assert "its arguments" in found[add].message
    assert report.exit_status == 1


def test_the_fix_is_a_redaction_whose_dry_run_writes_nothing(home: Path, snapshot_files) -> None:
    add, delete = added_then_deleted(home)
    fix = next(f.fix for f in history_findings(home) if f.record == add)
    before = snapshot_files(home)
    preview = fix.preview(home)
    assert isinstance(preview, RedactPreview)
    assert preview.words.startswith(f"would redact {add}") and delete in preview.words
    assert snapshot_files(home) == before
    result = fix.apply(home, by=NOTEBOOK)
    assert not result.is_error, result.output
    assert [f.record for f in history_findings(home)] == [delete]
    next(f.fix for f in history_findings(home)).apply(home, by=NOTEBOOK)
    assert history_findings(home) == []
    assert KEY.encode() not in everything_under(home / ".notebook")
    assert check_home(home).exit_status == 0


def test_an_outside_write_seen_by_the_next_write_is_scanned_in_its_record(home: Path) -> None:
    tool = MemoryTool(home, by=CLI)
    tool.call({"action": "add", "text": "likes tide tables"})
    with open(home / "MEMORY.md", "a") as handle:
        handle.write(f"- token {GITHUB}\n")
    tool.call({"action": "add", "text": "timezone: UTC"})  # records the outside change first
    (home / "MEMORY.md").write_text("- likes tide tables\n- timezone: UTC\n")
    tool.call({"action": "add", "text": "prefers metric"})
    outside = [e for e in history(home) if e.action == "outside"]
    found = history_findings(home)
    assert outside[-1].id in {f.record for f in found}
    assert all(GITHUB not in f.message for f in found)


def test_a_large_edit_kept_as_a_blob_is_scanned(home: Path) -> None:
    tool = MemoryTool(home, by=CLI)
    tool.call({"action": "add", "text": "likes tide tables"})
    padding = "".join(f"- note {i} about kelp forests and tide tables\n" for i in range(200))
    (home / "MEMORY.md").write_text("- likes tide tables\n" + padding + "- pass" + f"word = hunter2-{KEY[-12:]}\n")
    tool.call({"action": "add", "text": "timezone: UTC"})
    record = next(e for e in history(home) if e.action == "outside")
    assert record.edit is not None and record.edit[0].inserted.blob is not None
    found = history_findings(home)
    assert [f.record for f in found] == [record.id]
    assert "the bytes its edit inserted" in found[0].message and KEY[-12:] not in found[0].message


def test_a_secret_older_than_the_history_is_found_in_the_copy_where_it_begins(home: Path) -> None:
    (home / "MEMORY.md").write_text(f"- deploy key {KEY}\n- likes tide tables\n")
    tool = MemoryTool(home, by=CLI)
    tool.call({"action": "add", "text": "timezone: UTC"})
    first = history(home)[-1]
    assert first.base is not None
    [found] = history_findings(home)
    assert found.record == first.id and found.fix == RedactFix(first.id)
    assert "where its history begins" in found.message and "redacting this record replaces it" in found.message
    file_fix = next(f.fix for f in check_home(home).findings if f.rule == "security.secret")
    assert not file_fix.apply(home, by=NOTEBOOK).is_error
    [copy] = history_findings(home)  # the fix's own record holds no secret: only the copy where the history begins
    assert copy.record == first.id
    assert not copy.fix.apply(home, by=NOTEBOOK).is_error
    assert history_findings(home) == []
    assert KEY.encode() not in everything_under(home / ".notebook")


def test_a_kept_doctor_reads_only_the_records_appended_since(home: Path) -> None:
    added_then_deleted(home)
    doctor = Doctor()
    assert len(history_findings(home, doctor)) == 2
    log = home / ".notebook" / "events.jsonl"
    read, size = doctor.history.bytes_read, log.stat().st_size
    assert 0 < read < size
    MemoryTool(home, by=CLI).call({"action": "add", "text": f"again {GITHUB}"})
    assert len(history_findings(home, doctor)) == 3
    assert doctor.history.bytes_read - read == log.stat().st_size - size
    assert len(history_findings(home, doctor)) == 3
    assert doctor.history.bytes_read - read == log.stat().st_size - size


def test_a_log_rewritten_by_a_redaction_is_read_again(home: Path) -> None:
    add, delete = added_then_deleted(home)
    doctor = Doctor()
    assert len(history_findings(home, doctor)) == 2
    RedactFix(add).apply(home, by=NOTEBOOK)
    assert [f.record for f in history_findings(home, doctor)] == [delete]


def test_a_home_without_history_has_no_history_finding_and_stays_without_one(home: Path) -> None:
    (home / "MEMORY.md").write_text(f"- deploy key {KEY}\n")
    assert history_findings(home) == []
    assert not (home / ".notebook").exists()


def test_a_new_process_reads_only_what_was_appended_since_the_last_run(home: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    add, delete = added_then_deleted(home)
    first = Doctor(remember=True)
    assert {f.record for f in history_findings(home, first)} == {add, delete}
    assert first.history.bytes_read > 0
    again = Doctor(remember=True)  # what a second `persona-notebook doctor` does
    assert {f.record for f in history_findings(home, again)} == {add, delete}
    assert again.history.bytes_read == 0
    log = home / ".notebook" / "events.jsonl"
    size = log.stat().st_size
    MemoryTool(home, by=CLI).call({"action": "add", "text": "likes kelp"})
    later = Doctor(remember=True)
    assert len(history_findings(home, later)) == 2
    assert later.history.bytes_read == log.stat().st_size - size
    memo = next((tmp_path / "state").rglob("*.json")).read_text()
    assert KEY[:8] not in memo and "Anthropic" not in memo


def test_what_was_remembered_is_not_trusted_once_the_log_changed_under_it(
    home: Path, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    add, delete = added_then_deleted(home)
    assert len(history_findings(home, Doctor(remember=True))) == 2
    RedactFix(add).apply(home, by=NOTEBOOK)
    assert [f.record for f in history_findings(home, Doctor(remember=True))] == [delete]
    log = home / ".notebook" / "events.jsonl"
    data = log.read_bytes()
    planted = data.replace(b'"likes tide tables"', f'"likes {GITHUB[:20]}"'.encode()[: len(b'"likes tide tables"')], 1)
    assert planted != data and len(planted) == len(data)
    with open(log, "r+b") as handle:  # the same inode and size: only the bytes say it changed
        handle.write(planted)
    scan = Doctor(remember=True)
    history_findings(home, scan)
    assert scan.history.bytes_read == len(data) - data.index(b"\n") - 1


def test_after_a_redaction_every_state_is_rebuilt_and_a_state_that_held_the_secret_gives_back_the_marker(
    home: Path,
) -> None:
    from notebook_app.core.history.query import check, find, state_after
    from notebook_app.core.history.undo_restore import restore

    add, delete = added_then_deleted(home)
    MemoryTool(home, by=CLI).call({"action": "add", "text": "prefers metric"})
    records = [e.id for e in reversed(history(home, file="MEMORY.md"))]
    before = {record: state_after(home, "MEMORY.md", find(home, record)) for record in records}
    preview = RedactFix(add).preview(home)
    assert isinstance(preview, RedactPreview)
    assert "an Anthropic API key in its arguments" in preview.words and "the bytes its edit inserted" in preview.words
    assert f"{len(KEY)} bytes" in preview.words and "would become a marker of the same length" in preview.words
    assert "every state stays rebuildable" in preview.words
    assert not RedactFix(add).apply(home, by=NOTEBOOK).is_error
    assert not RedactFix(delete).apply(home, by=NOTEBOOK).is_error
    assert KEY.encode() not in everything_under(home / ".notebook")
    assert check(home) == []
    marker = "*" * len(KEY)
    for record in records:
        after = state_after(home, "MEMORY.md", find(home, record))
        assert after == before[record].replace(KEY.encode(), marker.encode())
        result = restore(home, "MEMORY.md", record, by=CLI, dry_run=True)
        assert not result.is_error, result.output
        assert ("the marker, *, comes back" in result.output) == (marker.encode() in after)
    held = restore(home, "MEMORY.md", add, by=CLI)
    assert not held.is_error and "redacted from the history" in held.output
    assert f"- deploy key {marker}\n" in (home / "MEMORY.md").read_text()
    assert not restore(home, "MEMORY.md", records[-1], by=CLI).is_error
    assert KEY not in (home / "MEMORY.md").read_text() and check(home) == [] and digests_agree(home) == []


def test_redacting_a_record_twice_is_refused_in_words(home: Path, snapshot_files) -> None:
    add, _ = added_then_deleted(home)
    assert not RedactFix(add).apply(home, by=NOTEBOOK).is_error
    before = snapshot_files(home)
    again = RedactFix(add).apply(home, by=NOTEBOOK)
    assert (
        again.is_error
        and again.output == f"{add} is already redacted: its secrets are markers now; nothing was changed"
    )
    assert isinstance(RedactFix(add).preview(home), Rejection)
    assert snapshot_files(home) == before


def secret_fix(home: Path, name: str = "MEMORY.md"):
    return next(f.fix for f in check_home(home).findings if f.rule == "security.secret" and f.file == name)


def test_the_fix_for_a_secret_records_only_where_it_was_and_cannot_be_undone(home: Path) -> None:
    from notebook_app.core.history.query import check
    from notebook_app.core.history.undo_restore import undo

    tool = MemoryTool(home, by=CLI)
    tool.call({"action": "add", "text": "likes tide tables"})
    tool.call({"action": "add", "text": f"deploy key {KEY} for the lab"})
    add = history(home)[0]
    start = (home / "MEMORY.md").read_bytes().index(KEY.encode())
    assert not secret_fix(home).apply(home, by=NOTEBOOK).is_error
    assert (home / "MEMORY.md").read_text().endswith("- deploy key [redacted] for the lab\n")
    fix = history(home)[0]
    line = next(
        line for line in (home / ".notebook" / "events.jsonl").read_bytes().splitlines() if fix.id.encode() in line
    )
    assert KEY.encode() not in line and KEY[13:].encode() not in line
    assert [s.to_json() for s in fix.secrets] == [
        {"rule": "security.secret", "kind": "Anthropic API key", "start": start, "length": len(KEY)}
    ]
    refused = undo(home, fix.id, by=CLI)
    assert refused.is_error and "would restore a secret" in refused.output
    assert [f.record for f in history_findings(home)] == [add.id]  # only the add that wrote it: one fix removes it
    assert not next(f.fix for f in history_findings(home)).apply(home, by=NOTEBOOK).is_error
    assert history_findings(home) == [] and check(home) == []
    assert KEY.encode() not in everything_under(home / ".notebook")


def test_a_secret_older_than_the_history_is_never_copied_into_it_by_its_fix(home: Path) -> None:
    (home / "SOUL.md").write_text(f"You are Kip.\nUse {GITHUB} for the wiki.\n")
    assert not secret_fix(home, "SOUL.md").apply(home, by=NOTEBOOK).is_error
    assert (home / "SOUL.md").read_text() == "You are Kip.\nUse [redacted] for the wiki.\n"
    assert GITHUB.encode() not in everything_under(home / ".notebook")
    assert history_findings(home) == []
    (record,) = history(home)
    assert [(s.start, s.length) for s in record.secrets] == [(len("You are Kip.\nUse "), len(GITHUB))]


def test_a_pending_proposal_whose_secret_was_redacted_is_never_approved_with_the_marker(home: Path) -> None:
    from notebook_app.core.memory.review.decisions import approve, propose
    from notebook_app.core.record.log.actor import Actor

    agent = Actor.mcp("20261130-210000-0000abcd", "kip-host", "1.4")
    pid = propose(home, {"action": "add", "text": f"deploy key {KEY}"}, by=agent).output.split("(id ")[1][:15]
    before = (home / "MEMORY.md").read_bytes() if (home / "MEMORY.md").exists() else None
    assert not RedactFix(pid).apply(home, by=NOTEBOOK).is_error
    refused = approve(home, pid, by=NOTEBOOK)
    assert refused.outcome == "refused" and "was redacted" in refused.message
    assert ((home / "MEMORY.md").read_bytes() if (home / "MEMORY.md").exists() else None) == before


def digests_agree(home: Path) -> list[str]:
    """Records whose file digest does not describe the state the history rebuilds for them."""
    import hashlib

    from notebook_app.core.history.query import find, state_after

    wrong = []
    for event in history(home, file="MEMORY.md"):
        if event.is_write and event.after is not None and event.after.sha256 is not None:
            after = state_after(home, "MEMORY.md", find(home, event.id)) or b""
            if hashlib.sha256(after).hexdigest() != event.after.sha256:
                wrong.append(event.id)
    return wrong


def test_a_redacted_outside_change_masks_its_blob_and_the_copies_holding_it_and_every_state_rebuilds(
    home: Path,
) -> None:
    from notebook_app.core.history.query import check, find, state_after

    tool = MemoryTool(home, by=CLI)
    tool.call({"action": "add", "text": "likes tide tables"})
    padding = "".join(f"- note {i} about kelp forests and tide tables\n" for i in range(200))
    (home / "MEMORY.md").write_text("- likes tide tables\n" + padding + f"- deploy {KEY}\n")
    tool.call({"action": "add", "text": "timezone: UTC"})
    assert not secret_fix(home).apply(home, by=NOTEBOOK).is_error
    tool.call({"action": "add", "text": "after"})
    outside = next(e for e in history(home) if e.action == "outside")
    assert outside.edit is not None and outside.edit[0].inserted.blob is not None and outside.snap is not None
    assert [f.record for f in history_findings(home)] == [outside.id]
    words = RedactFix(outside.id).preview(home).words
    assert "2 snapshots holding it would be kept with the marker instead" in words
    assert not RedactFix(outside.id).apply(home, by=NOTEBOOK).is_error
    assert KEY.encode() not in everything_under(home / ".notebook")
    assert history_findings(home) == [] and check(home) == [] and digests_agree(home) == []
    held = state_after(home, "MEMORY.md", find(home, outside.id))
    assert held is not None and held.endswith(f"- deploy {'*' * len(KEY)}\n".encode())


def test_a_failed_approval_of_a_proposal_holding_a_secret_keeps_only_where_it_was(home: Path) -> None:
    from notebook_app.core.memory.review.decisions import approve, propose
    from notebook_app.core.record.log.actor import Actor

    agent = Actor.mcp("20261130-210000-0000abcd", "kip-host", "1.4")
    (home / "MEMORY.md").write_text("- likes tide tables\n")
    pid = propose(home, {"action": "replace", "text": "tide tables", "with": f"key {KEY}"}, by=agent).output.split(
        "(id "
    )[1][:15]
    (home / "MEMORY.md").write_text("- likes sea shanties\n")
    assert approve(home, pid, by=NOTEBOOK).outcome == "failed"
    (failed,) = [e for e in history(home) if e.action == "failed"]
    line = next(
        line for line in (home / ".notebook" / "events.jsonl").read_bytes().splitlines() if failed.id.encode() in line
    )
    assert KEY.encode() not in line and [(s.field, s.start, s.length) for s in failed.secrets] == [
        ("with", 4, len(KEY))
    ]


def test_a_secret_planted_from_outside_is_kept_out_of_the_history_by_the_fix_that_records_it(home: Path) -> None:
    from notebook_app.core.history.query import check

    tool = MemoryTool(home, by=CLI)
    tool.call({"action": "add", "text": "likes tide tables"})
    with open(home / "MEMORY.md", "a") as editor:
        editor.write(f"- token {GITHUB} for ci\n")
    assert not secret_fix(home).apply(home, by=NOTEBOOK).is_error  # records the outside change first, then the fix
    assert [e.action for e in history(home)][:2] == ["entry-edit", "outside"]
    assert GITHUB.encode() not in everything_under(home / ".notebook")
    assert history_findings(home) == [] and check(home) == [] and digests_agree(home) == []
