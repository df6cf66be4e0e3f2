"""The doctor reads an entry file in its host's dialect: Hermes's '§' stores as Hermes's own code judges them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notebook_app.core.doctor.check import Doctor, check_home
from notebook_app.core.doctor.fixes import FixPreview
from notebook_app.core.doctor.repair import RepairPreview
from notebook_app.core.home.layout import FLAT, Dialect, FileMap
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.hosts.choice import resolve_host
from notebook_app.core.hosts.profile import parse_profile
from notebook_app.core.memory import sections
from notebook_app.core.record.log.actor import CLI
from notebook_app.core.text.times import local_time


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def host(name: str):
    choice = resolve_host(name)
    assert choice.profile is not None, choice.error
    return choice.profile


def hermes_home(home: Path, memory: str, user: str | None = None) -> Path:
    (home / "SOUL.md").write_text("You are Kip.\n")
    (home / "memories").mkdir()
    (home / "memories" / "MEMORY.md").write_text(memory)
    if user is not None:
        (home / "memories" / "USER.md").write_text(user)
    return home


def found(
    home: Path, name: str | None = "hermes", prefix: str = "hygiene."
) -> list[tuple[str, str | None, int | None]]:
    report = check_home(home, host=host(name) if name else None)
    return [(f.rule, f.file, f.line) for f in report.findings if f.rule.startswith(prefix)]


STORE = "likes tea\n§\nworks on the reef survey\nin the mornings\n§\ntimezone: IST"
"""Three clean entries, the second of two lines: what Hermes's own tool writes."""


def test_a_hermes_store_gives_no_stray_line_notes_for_its_entries_and_separators(home: Path) -> None:
    hermes_home(home, STORE, "name is Muthu\n§\nprefers metric units")
    assert found(home) == []
    assert check_home(home, host=host("hermes")).exit_status == 0


def test_with_no_host_a_store_whose_content_is_section_separated_is_read_as_one(home: Path) -> None:
    (home / "MEMORY.md").write_text(STORE)
    assert found(home, None) == []


def test_the_doctor_reads_a_hermes_homes_stores_in_memories(home: Path) -> None:
    hermes_home(home, STORE + "\n§\napi key sk-ant-api03-" + "k" * 40)
    secrets = [(f.file, f.line) for f in check_home(home, host=host("hermes")).findings if f.rule == "security.secret"]
    assert secrets == [("MEMORY.md", 8)]


def test_a_dash_line_glued_into_a_section_entry_is_a_warning_naming_its_line(home: Path) -> None:
    (home / "MEMORY.md").write_text("A\n§\nB\n- C\n")  # what `memory add C` once made of A§B
    for name in ("hermes", None):  # the host says so, or the content, whose first entry is a '§' one
        assert found(home, name) == [("hygiene.mixed-dialect", "MEMORY.md", 4)]
    (glued,) = [f for f in check_home(home, host=host("hermes")).findings if f.rule == "hygiene.mixed-dialect"]
    assert glued.message.startswith("line 4 of MEMORY.md is a '- ' line inside '§' entry 2, which begins on line 3")
    assert check_home(home).exit_status == 1


def test_section_separators_in_a_dash_hosts_file_are_a_warning_and_no_stray_line(home: Path) -> None:
    (home / "MEMORY.md").write_text("- likes tea\n§\n- works on the reef\n§\n- timezone: IST\n")
    for name in ("openclaw", None):  # the host's dialect, or the content's first entry
        assert found(home, name) == [("hygiene.mixed-dialect", "MEMORY.md", 2)]
    (mixed,) = [f for f in check_home(home).findings if f.rule == "hygiene.mixed-dialect"]
    assert "holds only '§', Hermes's entry separator (2 such lines, the first here)" in mixed.message


def test_a_store_that_does_not_round_trip_is_a_warning_in_hermes_words_with_one_fix(home: Path) -> None:
    before = "likes tea\n§\n\n§\nworks on the\n\nreef \n§\nlikes tea\n§\n"
    hermes_home(home, before)
    report = check_home(home, host=host("hermes"))
    (drift,) = [f for f in report.findings if f.rule == "hygiene.store-drift"]
    assert (drift.file, drift.line, drift.severity.value) == ("MEMORY.md", 2, "warning")
    assert drift.message.startswith("MEMORY.md does not round-trip through Hermes's memory parser")
    assert drift.fix is not None and drift.fix.label == "normalise MEMORY.md as Hermes would"
    assert [f.fix.label for f in report.findings if f.fix is not None] == [drift.fix.label]

    preview = drift.fix.preview(home)
    assert isinstance(preview, RepairPreview)
    assert preview.words.split("\n  ") == [
        "drops the '§' on line 2 and the empty entry after it",
        "changes entry 2 (line 5): the blank lines and spaces around it go: “works on the\n\nreef”",
        "drops entry 3 (line 9), a repeat of entry 1: “likes tea”",
        "drops the '§' on line 10 and the empty entry after it",
        "MEMORY.md becomes 2 entries joined by '§' lines, 30 characters with no final newline, "
        "as Hermes's next write gives it",
    ]
    assert (home / "memories" / "MEMORY.md").read_text() == before  # the dry run writes nothing

    result = drift.fix.apply(home, by=CLI)
    assert not result.is_error, result.output
    # Hermes 0.19.0's MemoryStore.add("NEW") on this store wrote 'likes tea\n§\nworks on the\n\nreef\n§\nNEW':
    # the fix leaves what that add kept, and the add appends to it
    assert (home / "memories" / "MEMORY.md").read_bytes() == b"likes tea\n\xc2\xa7\nworks on the\n\nreef"
    assert not (home / "MEMORY.md").exists()
    assert found(home) == []


def test_the_normalise_fix_is_refused_when_the_store_changed_since_the_doctor_read_it(home: Path) -> None:
    (home / "MEMORY.md").write_text("A\n§\n\n§\nB")
    (drift,) = [f for f in check_home(home).findings if f.rule == "hygiene.store-drift"]
    assert drift.fix is not None
    (home / "MEMORY.md").write_text("A\n§\n\n§\nB\n§\nC")
    assert isinstance(drift.fix.preview(home), Rejection)
    result = drift.fix.apply(home, by=CLI)
    assert result.is_error and "changed since the doctor read it" in result.output
    assert (home / "MEMORY.md").read_text() == "A\n§\n\n§\nB\n§\nC"


def test_an_entry_longer_than_the_stores_limit_is_drift_that_no_rewrite_fixes(home: Path) -> None:
    hermes_home(home, "short\n§\n" + "a long entry " * 3)
    (home / "config.yaml").write_text("memory:\n  memory_char_limit: 30\n")
    (drift,) = [f for f in check_home(home, host=host("hermes")).findings if f.rule == "hygiene.store-drift"]
    assert drift.line == 3 and drift.fix is None
    assert drift.message.startswith("entry 2 of MEMORY.md is 38 characters, over the store's 30-character limit")


def test_a_store_over_its_config_limit_is_said_with_hermes_meter(home: Path) -> None:
    hermes_home(home, "likes tea\n§\nworks on the reef survey")
    (home / "config.yaml").write_text("memory:\n  memory_char_limit: 20\n")
    (over,) = [f for f in check_home(home, host=host("hermes")).findings if f.rule == "budget.over"]
    assert (over.file, over.severity.value) == ("MEMORY.md", "warning")
    meter = sections.usage(["likes tea", "works on the reef survey"], 20)
    assert meter == "100% — 36/20 chars"
    assert f"over Hermes's limit of 20 (its meter: {meter}): Hermes 0.19.0 loads it whole" in over.message


def test_hermes_drift_backups_are_named_and_its_locks_and_temp_files_are_not_findings(home: Path) -> None:
    hermes_home(home, STORE)
    memories = home / "memories"
    (memories / "MEMORY.md.bak.1764000000").write_text("api key sk-ant-api03-" + "k" * 40)  # never read
    (memories / "MEMORY.md.lock").write_text("")
    (memories / "USER.md.lock").write_text("")
    (memories / ".mem_k2j3.tmp").write_text("half a write")
    report = check_home(home, host=host("hermes"))
    (backup,) = [f for f in report.findings if f.rule == "hygiene.drift-backup"]
    assert (backup.file, backup.line, backup.severity.value) == ("MEMORY.md", None, "info")
    assert backup.message.startswith(
        "memories/MEMORY.md.bak.1764000000 is one of Hermes's drift backups: the copy of MEMORY.md its memory tool "
        f"saved on {local_time(datetime.fromtimestamp(1764000000, UTC))}"  # 2025-11-24 16:00:00 UTC, said here
    )
    assert not [f for f in report.findings if ".lock" in f.message or ".mem_" in f.message]
    assert not [f for f in report.findings if f.rule == "security.secret"]
    assert report.exit_status == 0


def test_a_hidden_character_in_a_store_is_fixed_by_editing_its_entry_as_hermes_would(home: Path) -> None:
    hermes_home(home, "A\n§\nline one\nline\u200b two\n§\nC")
    (hidden,) = [f for f in check_home(home, host=host("hermes")).findings if f.rule == "security.invisible"]
    assert hidden.fix is not None
    assert hidden.fix.preview(home) == FixPreview("MEMORY.md", 4, "line\u200b two", "line two")
    result = hidden.fix.apply(home, by=CLI)
    assert not result.is_error, result.output
    assert (home / "memories" / "MEMORY.md").read_text() == "A\n§\nline one\nline two\n§\nC"
    assert (home / "memories" / "MEMORY.md.lock").exists()  # written under Hermes's own lock
    assert not (home / "MEMORY.md").exists()


def test_repeated_section_entries_are_named_by_entry_with_no_line_fix(home: Path) -> None:
    (home / "MEMORY.md").write_text("likes tea\n§\nworks on the reef\n§\nlikes tea")
    (repeat,) = [f for f in check_home(home).findings if f.rule == "hygiene.duplicate"]
    assert repeat.line == 5 and repeat.fix is None
    assert repeat.message == (
        "entry 3 (line 5) of MEMORY.md repeats entry 1 (line 1): “likes tea”; "
        "Hermes keeps the first and drops this one at its next write"
    )


def test_one_doctor_reads_the_same_bytes_in_the_dialect_of_the_home_it_is_given(home: Path) -> None:
    (home / "MEMORY.md").write_text("- likes tea\n- works on the reef\n")
    doctor = Doctor()
    as_lines = doctor.check(home, files=FLAT)
    as_store = doctor.check(home, files=FileMap(host="hermes", dialect=Dialect.SECTIONS))
    assert doctor.scans == 2  # the cache knows a file by its bytes and its dialect
    assert not [f for f in as_lines.findings if f.rule.startswith("hygiene.")]
    assert [(f.rule, f.line) for f in as_store.findings if f.rule.startswith("hygiene.")] == [
        ("hygiene.mixed-dialect", 2)
    ]


def test_a_read_only_profile_names_its_files_and_the_doctor_says_writes_are_refused(home: Path) -> None:
    text = 'name = "mine"\ntitle = "Mine"\nfiles = ["SOUL.md", "MEMORY.md"]\nread_only = true\n'
    mine = parse_profile(text, "mine", "mine.toml")
    assert mine.read_only_files == ("SOUL.md", "MEMORY.md")
    assert parse_profile(text.replace("read_only = true\n", ""), "mine").read_only_files == ()
    assert host("hermes").read_only_files == ()  # its '§' stores are written as Hermes writes them
    (said,) = [f for f in check_home(home, host=mine).findings if f.rule == "host.read-only"]
    assert (said.file, said.severity.value) == (None, "info")
    assert said.message == (
        "Mine's profile says read_only = true (mine.toml): the notebook refuses every write to SOUL.md "
        "and MEMORY.md in a home opened as Mine"
    )
    assert not [f for f in check_home(home, host=host("openclaw")).findings if f.rule == "host.read-only"]


def test_a_crlf_store_is_read_and_fixed_as_hermes_reads_it_with_universal_newlines(home: Path) -> None:
    (home / "MEMORY.md").write_bytes("likes tea\r\n§\r\nline one\r\nline\u200b two\r\n§\r\ntimezone: IST".encode())
    assert found(home, None) == [] and found(home) == []
    (hidden,) = [f for f in check_home(home).findings if f.rule == "security.invisible"]
    assert hidden.fix is not None
    assert hidden.fix.preview(home) == FixPreview("MEMORY.md", 4, "line\u200b two", "line two")
    result = hidden.fix.apply(home, by=CLI)
    assert not result.is_error, result.output
    assert sections.entries((home / "MEMORY.md").read_text()) == ["likes tea", "line one\nline two", "timezone: IST"]


def _lines_from_the_start(text: str) -> list[int]:
    """Each piece's line counted from the store's start, the slow way: the oracle for the counted-on lines."""
    parts, at, lines = text.split(sections.DELIMITER), 0, []
    for index, part in enumerate(parts):
        if part.strip():
            lines.append(text.count("\n", 0, at + len(part) - len(part.lstrip())) + 1)
        elif len(parts) > 1:
            lines.append(text.count("\n", 0, at + len(part) + 1 if index == 0 else at - 2) + 1)
        at += len(part) + len(sections.DELIMITER)
    return lines


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "b c", "", " ", "\n", "x\ny", "\n\nz\n", "§", "§\n"]), max_size=12))
def test_every_piece_of_a_store_is_placed_on_the_line_it_begins_on(chunks: list[str]) -> None:
    from notebook_app.core.doctor.store_fix import pieces

    text = "\n§\n".join(chunks)
    assert [piece.line for piece in pieces(text)] == _lines_from_the_start(text)


@pytest.mark.parametrize("memory", ["Uses tabs", "Uses tabs\n§\nDeploys on Fridays", "Uses tabs\n"])
def test_a_store_in_hermes_format_is_not_flagged_for_its_format(tmp_path: Path, memory: str) -> None:
    """The lines Hermes puts around a store's entries (its rule, title, rule) are not the store's lines: a
    one-entry store was said to hold "4 lines" Hermes reads as one entry."""
    home = hermes_home(tmp_path, memory)
    rules = [(f.rule, f.file) for f in check_home(home, host=host("hermes")).findings]
    assert ("budget.format", "MEMORY.md") not in rules


def test_a_store_of_dash_lines_is_flagged_with_its_own_line_count(tmp_path: Path) -> None:
    home = hermes_home(tmp_path, "- a\n- b\n")
    said = [f.message for f in check_home(home, host=host("hermes")).findings if f.rule == "budget.format"]
    assert len(said) == 1 and "reads its 2 lines as one entry" in said[0], said
