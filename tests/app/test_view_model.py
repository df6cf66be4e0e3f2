"""The UI-free pieces under the views: wrapping, soul documents, the dry run."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from rich.cells import cell_len

from notebook_app.app.view_model.documents import soul_document
from notebook_app.app.view_model.dry_run import dry_run
from notebook_app.app.view_model.live_files import read_live_file
from notebook_app.app.view_model.notebook import Notebook
from notebook_app.app.view_model.wrapping import BANNER, split_line, wrap_rows
from notebook_app.app.watchers.home import HomeWatcher
from notebook_app.core.home.layout import hermes_files
from notebook_app.core.home.reading import JOURNAL_NAME
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.memory.plan import parse_request, plan_edit
from notebook_app.core.sessions.snapshot import Session, diff_compositions
from notebook_app.core.text.hidden import with_markers


def test_lines_wrap_at_spaces_with_a_hanging_indent_for_bullets() -> None:
    line = "- alpha beta gamma delta"
    spans = split_line(line, 12)
    assert [line[s:e] for s, e in spans] == ["- alpha beta ", "gamma ", "delta"]
    assert split_line("日本語日本語", 5) == [(0, 2), (2, 4), (4, 6)]
    rows = wrap_rows(["short", line], 12, banners={0})
    assert list(rows.line) == [0, 0, 1, 1, 1]
    assert rows.start[1] == BANNER


def test_a_banner_that_moves_among_the_same_lines_wraps_no_line_again(monkeypatch) -> None:
    from notebook_app.app.view_model import wrapping

    lines = [f"- entry {i} " + "long words to wrap " * 4 for i in range(40)]
    before = wrap_rows(lines, 20, banners={3})
    wrapped: list[str] = []
    split = wrapping.split_line
    monkeypatch.setattr(wrapping, "split_line", lambda line, width: wrapped.append(line) or split(line, width))
    moved = wrap_rows(lines, 20, banners={30}, previous=(before, lines, {3}))
    assert wrapped == []  # the rows are copied, one banner row dropped and one added
    fresh = wrap_rows(lines, 20, banners={30})
    assert (moved.line, moved.start, moved.end) == (fresh.line, fresh.start, fresh.end)


def test_hidden_characters_become_one_visible_marker_each() -> None:
    text = "a\tb\x1b[31m\u200bz\u202e\ufeff\r\n"
    assert with_markers(text) == "a→b␛[31m∙z⇆␢␍\n"
    plain = "nothing to change\n"
    assert with_markers(plain) is plain


def test_a_joiner_inside_an_emoji_sequence_is_drawn_as_the_emoji_but_a_stray_one_is_marked() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert with_markers(f"- the {family} next door\n") == f"- the {family} next door\n"
    assert with_markers("- pass\u200dword and \U0001f468\u200d x\n") == "- pass∙word and \U0001f468∙ x\n"


def test_soul_documents_mark_each_side_of_the_diff(home: Path) -> None:
    session = Session(home)
    (home / "MEMORY.md").write_text((home / "MEMORY.md").read_text().replace("UTC", "IST"))
    (home / "USER.md").unlink()
    preview = session.preview()
    diff = diff_compositions(session.current.composition, preview.composition)
    current = soul_document(session.current.composition, diff, "current")
    upcoming = soul_document(preview.composition, diff, "next")
    assert {current.lines[i] for i, m in current.marks.items() if m == "removed"} >= {"## USER.md", "- timezone: UTC"}
    assert [upcoming.lines[i] for i, m in upcoming.marks.items() if m == "added"] == ["- timezone: IST"]
    assert upcoming.lines[0] == "## SOUL.md" and upcoming.marks[0] == "heading"


@pytest.mark.parametrize(("name", "last"), [("USER.md", False), ("MEMORY.md", True)])
def test_both_sides_of_a_soul_name_where_the_first_change_is_even_the_side_without_its_lines(
    home: Path, name: str, last: bool
) -> None:
    """An add marks no line of Current: Current still says where it lands
    (the line after the file's last; the soul's last line when the file ends
    the soul), so both sides open at the change."""
    session = Session(home)
    with (home / name).open("a") as file:
        file.write("- keeps tide tables\n")
    preview = session.preview()
    diff = diff_compositions(session.current.composition, preview.composition)
    current = soul_document(session.current.composition, diff, "current")
    upcoming = soul_document(preview.composition, diff, "next")
    assert not any(mark == "removed" for mark in current.marks.values())
    assert upcoming.first_change is not None and upcoming.lines[upcoming.first_change] == "- keeps tide tables"
    section = next(s for s in session.current.composition.sections if s.name == name)
    assert current.first_change == section.last_line + (0 if last else 1)
    if not last:
        assert current.lines[current.first_change - 1] == upcoming.lines[upcoming.first_change - 1]  # the same place


def test_a_soul_whose_first_change_is_a_file_that_went_opens_at_its_heading(home: Path) -> None:
    session = Session(home)
    (home / "USER.md").unlink()
    (home / "MEMORY.md").write_text((home / "MEMORY.md").read_text().replace("UTC", "IST"))
    preview = session.preview()
    diff = diff_compositions(session.current.composition, preview.composition)
    current = soul_document(session.current.composition, diff, "current")
    upcoming = soul_document(preview.composition, diff, "next")
    assert current.lines[current.first_change] == "## USER.md"
    assert upcoming.lines[upcoming.first_change] == "- timezone: IST"  # Next has no USER.md: its first change


def test_the_dry_run_matches_what_the_tool_then_writes(home: Path) -> None:
    notebook = Notebook(home)
    state = notebook.refresh()
    args = {"action": "replace", "target": "self", "text": "Fridays", "with": "Thursdays"}
    dry = dry_run(state, args)
    assert dry.edit_line == 4
    result, after = notebook.write(args)
    assert not result.is_error
    assert dry.comparison is not None
    assert list(dry.comparison.next_doc.lines) == list(after.comparison.next_doc.lines)
    assert dry.comparison.diff == after.comparison.diff
    miss = dry_run(after, {"action": "remove", "target": "user", "text": "absent words"})
    assert miss.outcome == Rejection("not found: absent words")


def test_an_unchanged_file_is_not_read_into_a_new_document(home: Path) -> None:
    first = read_live_file(home / "MEMORY.md")
    assert read_live_file(home / "MEMORY.md", first) is first
    (home / "MEMORY.md").write_text("changed\n")
    assert read_live_file(home / "MEMORY.md", first) is not first


def test_the_watcher_counts_only_bootstrap_files(home: Path) -> None:
    watcher = HomeWatcher(home, target=None, known_digest=lambda name: None)
    assert watcher._relevant(None, str(home / "MEMORY.md"))
    assert watcher._relevant(None, str(home))
    assert not watcher._relevant(None, str(home / JOURNAL_NAME))
    assert not watcher._relevant(None, str(home / ".memory-tmp-MEMORY.md-x1"))
    assert not watcher._relevant(None, str(home / "notes.txt"))


def test_the_watcher_of_a_hermes_home_counts_its_stores_and_memories_but_never_hermes_scratch(tmp_path: Path) -> None:
    home = tmp_path / "hermes"
    watcher = HomeWatcher(home, target=None, known_digest=lambda name: None, files=hermes_files())
    assert watcher._relevant(None, str(home / "memories" / "MEMORY.md"))
    assert watcher._relevant(None, str(home / "memories"))  # it coming or going re-arms the watch
    assert watcher._relevant(None, str(home / "SOUL.md"))
    assert not watcher._relevant(None, str(home / "MEMORY.md"))  # not where Hermes keeps it
    assert not watcher._relevant(None, str(home / "memories" / ".mem_a1b2.tmp"))
    assert not watcher._relevant(None, str(home / "memories" / "MEMORY.md.lock"))
    assert not watcher._relevant(None, str(home / "memories" / "MEMORY.md.bak.20261202-101500"))
    assert not watcher._relevant(None, str(home / "memories" / "memories"))


def test_the_watchers_first_look_rechecks_the_daily_notes_there_too(tmp_path: Path) -> None:
    """A daily note written between the first read and the watch being set up is checked when the watch is."""
    from notebook_app.core.home.layout import openclaw_files

    work = tmp_path / "workspace"
    (work / "memory").mkdir(parents=True)
    (work / "memory" / "2026-12-02.md").write_text("- written before the watch was set up\n")
    watcher = HomeWatcher(work, target=None, known_digest=lambda name: None, files=openclaw_files(("AGENTS.md",)))
    names = watcher.every_file()
    assert {"AGENTS.md", "MEMORY.md", "memory/2026-12-02.md"} <= names
    assert watcher.unexpected(names) == frozenset({"memory/2026-12-02.md"})  # the only file there, never seen


def test_the_watcher_drops_changes_whose_bytes_it_already_knows(home: Path) -> None:
    notebook = Notebook(home)
    notebook.refresh()
    watcher = HomeWatcher(home, target=None, known_digest=notebook.known_digest)
    assert watcher.unexpected(["MEMORY.md", "SOUL.md"]) == frozenset()
    notebook.write({"action": "add", "text": "ours"})
    assert watcher.unexpected(["MEMORY.md"]) == frozenset()
    (home / "SOUL.md").write_text("theirs\n")
    assert watcher.unexpected(["MEMORY.md", "SOUL.md"]) == frozenset({"SOUL.md"})


def test_rewrapping_after_an_append_reuses_the_rows_it_can() -> None:
    lines = [f"- entry {i} with enough words to wrap twice at this width" for i in range(50)]
    before = wrap_rows(lines, 20)
    grown = [*lines[:30], "- a changed entry that also wraps", *lines[31:], "- appended"]
    assert wrap_rows(grown, 20, previous=(before, lines)) == wrap_rows(grown, 20)
    assert wrap_rows(lines[:10], 20, previous=(before, lines)) == wrap_rows(lines[:10], 20)
    assert wrap_rows(lines, 30, previous=(before, lines)) == wrap_rows(lines, 30)


def test_a_read_started_before_the_ui_is_handed_over_once(home: Path) -> None:
    notebook = Notebook(home)
    notebook.start_reading()
    first = notebook.refresh()  # waits for the read already running
    assert first.current.number == 1 and "MEMORY.md" in first.files
    assert notebook.take_first_state() is None  # handed over once
    assert notebook.refresh().seq == first.seq + 1  # then every refresh reads again


def test_a_finished_early_read_is_taken_without_waiting(home: Path) -> None:
    notebook = Notebook(home)
    notebook.start_reading()
    deadline = time.monotonic() + 30  # a wait, not a timing assertion: a loaded machine's read gets its time
    while (state := notebook.take_first_state()) is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert state is not None and state.seq == 1
    assert notebook.refresh().seq == 2


def test_a_dry_run_splits_only_from_the_edit_on_and_gets_the_same_lines(home: Path) -> None:
    (home / "SOUL.md").write_text("I am Wren.\tTabs\x1b and escapes stay one cell each.\n")
    (home / "MEMORY.md").write_text("# Notes\n\n- timezone: UTC\n- bell\x07 here\n- likes tide tables\n")
    state = Notebook(home).refresh()
    edits = [
        {"action": "add", "target": "self", "text": "new entry"},
        {"action": "add", "target": "user", "text": "new user fact"},
        {"action": "replace", "target": "self", "text": "timezone: UTC", "with": "timezone: IST"},
        {"action": "remove", "target": "self", "text": "likes tide tables"},
        {"action": "remove", "target": "user", "text": "name is Priya"},
    ]
    for args in edits:
        dry = dry_run(state, args)
        request = parse_request(args)
        assert not isinstance(request, Rejection)
        live = state.files[request.filename]
        outcome = plan_edit(request, live.text)
        assert not isinstance(outcome, Rejection), args
        composition = state.preview.composition.with_text(request.filename, outcome.apply(live.text))
        assert dry.comparison is not None
        assert list(dry.comparison.next_doc.lines) == with_markers(composition.soul).split("\n"), args


def test_a_dry_run_reuses_the_sessions_lines_after_the_edit_as_well_as_before_it(home: Path) -> None:
    state = Notebook(home).refresh()
    before = state.comparison.next_doc.lines
    dry = dry_run(state, {"action": "replace", "target": "self", "text": "timezone: UTC", "with": "timezone: IST"})
    assert dry.comparison is not None
    after = dry.comparison.next_doc.lines
    edited = list(after).index("- timezone: IST")
    assert after[:edited] == before[:edited] and after[edited + 1 :] == before[edited + 1 :]
    assert all(
        a is b for a, b in zip(after[edited + 1 :], before[edited + 1 :], strict=True)
    )  # kept as they were: a pane need not wrap them again


@pytest.mark.parametrize("width", range(6, 30))
def test_cjk_wrapping_never_starts_a_row_with_closing_punctuation_nor_ends_one_with_an_opening_bracket(
    width: int,
) -> None:
    line = "日本語の文章です。次の「引用」、そして終わり。"
    rows = [line[start:end] for start, end in split_line(line, width)]
    assert "".join(rows) == line
    assert all(cell_len(row) <= width for row in rows)
    assert not any(row[0] in "。、」" for row in rows[1:]), rows
    assert not any(row[-1] == "「" for row in rows[:-1]), rows


def test_an_add_to_a_3_mib_file_claims_no_line_past_what_was_read(tmp_path: Path) -> None:
    from notebook_app.app.view_model.dry_run import dry_run_status

    line = "- the curator keeps tide tables and kelp survey notes, entry 00000\n"
    count = 3 * 1024 * 1024 // len(line) + 1
    (tmp_path / "MEMORY.md").write_text(line * count)
    notebook = Notebook(tmp_path)
    dry = dry_run(notebook.refresh(), {"action": "add", "target": "self", "text": "late"})
    assert dry.edit_line is None
    kind, words = dry_run_status(dry)
    assert words.startswith(
        "dry run: appends at the end of MEMORY.md (line not counted: only its start is read); will not load"
    )
    assert "line 2" not in words and "line 3" not in words
    result, _ = notebook.write({"action": "add", "target": "self", "text": "late"})
    assert not result.is_error
    assert (tmp_path / "MEMORY.md").read_text().splitlines().index(
        "- late"
    ) == count  # where it landed: after every line


def test_an_add_after_an_unterminated_last_line_names_the_line_it_lands_on(tmp_path: Path) -> None:
    from notebook_app.app.view_model.dry_run import dry_run_status

    (tmp_path / "MEMORY.md").write_text("- a\n- b")
    notebook = Notebook(tmp_path)
    dry = dry_run(notebook.refresh(), {"action": "add", "target": "self", "text": "c"})
    assert dry_run_status(dry) == ("hint", "dry run: appends at line 3 of MEMORY.md; loads next session")
    notebook.write({"action": "add", "target": "self", "text": "c"})
    assert (tmp_path / "MEMORY.md").read_text().splitlines()[2] == "- c"
