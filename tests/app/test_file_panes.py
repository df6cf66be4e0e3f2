"""The Home pane: sizes against the cap, truncation, unreadable files, absent ones."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import MEMORY, SIZE, file_view, make_app, started, summary_of, wait_until

from notebook_app.app.widgets.form.action_form import ActionForm
from notebook_app.app.widgets.home.file_list import FileList
from notebook_app.app.widgets.home.home_pane import HomePane
from notebook_app.app.widgets.session.session_pane import SessionPane
from notebook_app.core.home.soul import MAX_FILE_BYTES, TRUNCATION_NOTICE


def summary_text(app, name: str = "MEMORY.md") -> str:
    return summary_of(app, name)


async def test_an_unreadable_file_shows_its_error_and_the_app_keeps_running(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- caf\xe9 au lait\n")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        text = summary_text(app)
        assert "✖ bad bytes MEMORY.md is not valid UTF-8 (byte 0xe9 at offset 5)" in text
        assert "✖" in str(app.screen.query_one(FileList).get_option("MEMORY.md").prompt)
        await pilot.press("a", *"more", "enter")
        form = app.screen.query_one(ActionForm)
        await wait_until(pilot, lambda: form.status[0] == "error", "the tool's refusal")
        assert form.status[1].startswith("MEMORY.md is not valid UTF-8 (byte 0xe9 at offset 5)")
        assert (home / "MEMORY.md").read_bytes() == b"- caf\xe9 au lait\n"
        assert app.is_running


async def test_a_file_over_the_cap_warns_and_marks_the_cut(home: Path) -> None:
    line = "- " + "x" * 97 + "\n"
    body = line * (MAX_FILE_BYTES // len(line) + 10)
    (home / "MEMORY.md").write_text(body)
    dropped = len(body) - MAX_FILE_BYTES
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        text = summary_text(app)
        assert f"does not see the last {dropped:,} bytes" in text
        cut_line = MAX_FILE_BYTES // len(line)
        assert f"(cut marked after line {cut_line + 1:,})" in text
        view = file_view(app)
        await wait_until(pilot, lambda: view.visible_document is view.document, "the big file to be wrapped")
        assert list(view.document.banners) == [cut_line]
        assert "inside this line" in view.document.banners[cut_line]
        assert "✂" in str(app.screen.query_one(FileList).get_option("MEMORY.md").prompt)
        next_doc = app.screen.query_one("#next", SessionPane).document
        notice = len(next_doc.lines) - 1
        assert next_doc.lines[notice] == TRUNCATION_NOTICE and next_doc.marks[notice] == "notice"


async def test_absent_files_are_marked_and_the_memory_list_can_be_moved_through(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        files = app.screen.query_one(FileList)
        assert "absent" in str(files.get_option("IDENTITY.md").prompt)
        assert "absent" not in str(files.get_option("SOUL.md").prompt)
        assert summary_text(app).startswith(f"{len(MEMORY.encode()):,} bytes · ")
        assert summary_text(app).endswith(" of the 2 MiB cap")
        assert summary_text(app, "SOUL.md").startswith("55 bytes · ")  # the document pane shows SOUL.md first
        await pilot.press("3")  # IDENTITY.md, third in load order
        await wait_until(
            pilot, lambda: "absent" in summary_text(app, "IDENTITY.md"), "IDENTITY.md in the document pane"
        )
        assert summary_text(app, "IDENTITY.md").startswith("IDENTITY.md: absent")


async def test_file_text_and_errors_with_markup_are_shown_literally(home: Path) -> None:
    (home / "MEMORY.md").write_text("- [x] done [/b] [bold]not bold[/bold]\n")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert file_view(app).document.lines == ["- [x] done [/b] [bold]not bold[/bold]"]
        app.screen.query_one(FileList).focus()
        await pilot.press("x", *"[/b] gone", "enter")
        form = app.screen.query_one(ActionForm)
        await wait_until(pilot, lambda: form.status[0] == "error", "the miss")
        assert form.status == ("error", "not found: [/b] gone")
        rendered = "".join(segment.text for segment in app.screen.query_one("#form-status").render_line(0))
        assert "not found: [/b] gone" in rendered


async def test_an_absent_file_is_said_once_and_an_empty_entry_file_says_how_to_add(tmp_path: Path) -> None:
    home = tmp_path / "new"
    home.mkdir()
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        for name in ("SOUL.md", "USER.md", "MEMORY.md"):
            assert summary_text(app, name) == f"{name}: absent · the next session skips it"
        pane = app.screen.query_one(HomePane)
        assert pane.pane("SOUL.md").view.placeholder == ""
        assert pane.pane("MEMORY.md").view.placeholder == "no entries yet · a adds one"
        assert pane.pane("USER.md").view.placeholder == "no entries yet · t, then a"
        await pilot.press("t")  # USER.md becomes the target: its hint follows
        await wait_until(
            pilot, lambda: pane.pane("USER.md").view.placeholder == "no entries yet · a adds one", "USER.md's hint"
        )
        assert pane.pane("MEMORY.md").view.placeholder == "no entries yet · t, then a"


async def test_a_crlf_file_says_its_line_ending_once_and_marks_only_a_lone_carriage_return(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- one\r\n- two\rthree\r\n")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert summary_text(app).count("Windows line endings (CR LF), shown without ␍.") == 1
        assert list(file_view(app).document.lines) == ["- one ", "- two␍three "]
        upcoming = app.screen.query_one("#next", SessionPane).document
        assert "- two␍three" in upcoming.lines and not any(line.endswith("␍") for line in upcoming.lines)


async def test_a_miss_that_only_a_hidden_character_causes_names_the_near_match_before_and_after_enter(
    home: Path,
) -> None:
    (home / "MEMORY.md").write_text("# Notes\n- tea\u200bat 4 on Fridays\n")
    near = "near match on line 2 of MEMORY.md: “tea∙at 4”, the same but for U+200B ZERO WIDTH SPACE in the file"
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        app.screen.query_one(FileList).focus()
        await pilot.press("x", *"teaat 4")
        form = app.screen.query_one(ActionForm)
        await wait_until(pilot, lambda: form.status[0] == "flag", "the dry run's miss")
        assert form.status == ("flag", f"not found: teaat 4; {near}")  # what the CLI says on its second line
        await pilot.press("enter")
        await wait_until(pilot, lambda: form.status[0] == "error", "the tool's miss")
        assert form.status == ("error", f"not found: teaat 4; {near}")
        assert (home / "MEMORY.md").read_text() == "# Notes\n- tea\u200bat 4 on Fridays\n"
