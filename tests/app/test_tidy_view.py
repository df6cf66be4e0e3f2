"""The Tidy view: the core's proposal as hunks by file, accepted in parts, jumping to a line, applied as one write."""

from __future__ import annotations

import shutil
from importlib.resources import files
from pathlib import Path

from notebook_pilot import SIZE, file_view, make_app, started, wait_until
from textual.widgets import OptionList

from notebook_app.app.screens.main.screen import MainScreen
from notebook_app.app.screens.tidy.screen import TidyScreen
from notebook_app.app.view_model.file_rows import FileRow, Part, file_rows
from notebook_app.app.widgets.session.session_pane import SessionPane

PLANTED = "# notes\n\n- prefers tea\n- timezone: UTC\n- prefers tea\n-\n- Timezone: IST\n"
"""An exact duplicate (line 5), an empty bullet (line 6), and a superseded timezone (line 4 by line 7)."""


def summary(screen: TidyScreen) -> str:
    return str(screen.query_one("#tidy-summary").content)


def detail(screen: TidyScreen) -> str:
    return str(screen.query_one("#tidy-detail").content)


def rows(screen: TidyScreen) -> list[str]:
    listing = screen.query_one(OptionList)
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


async def open_tidy(pilot) -> TidyScreen:
    await started(pilot)
    await pilot.press("T")
    app = pilot.app
    await wait_until(
        pilot, lambda: isinstance(app.screen, TidyScreen) and app.screen.proposal is not None, "the tidy view"
    )
    return app.screen


async def test_the_demo_has_nothing_to_tidy_and_says_so(tmp_path: Path) -> None:
    home = tmp_path / "demo"
    shutil.copytree(str(files("notebook_app") / "demo_home"), home)
    async with make_app(home).run_test(size=SIZE) as pilot:
        screen = await open_tidy(pilot)
        assert summary(screen).startswith("Nothing to tidy in MEMORY.md, USER.md as toolnexus loads them")
        assert not any(row.startswith("[") for row in rows(screen))


async def test_each_hunk_is_listed_by_file_and_none_is_accepted_until_asked(home: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    async with make_app(home).run_test(size=SIZE) as pilot:
        screen = await open_tidy(pilot)
        hunks = [row for row in rows(screen) if row.startswith("[")]
        assert rows(screen)[0] == "MEMORY.md · 3"
        assert [row[4:].split("line")[0].strip() for row in hunks] == ["superseded", "exact duplicate", "empty"]
        assert all(row.startswith("[ ] ") for row in hunks)
        assert "none accepted" in summary(screen)
        assert "not an entry" in rows(screen)[-1] and "# notes" in rows(screen)[-1]


async def test_space_accepts_and_declines_and_the_summary_follows(home: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    async with make_app(home).run_test(size=SIZE) as pilot:
        screen = await open_tidy(pilot)
        hunk = screen.selected
        assert hunk is not None and hunk.kind.code == "superseded"
        assert "each entry below is moved to memory/ARCHIVE.md:\n  line 4: timezone: UTC" in detail(screen)
        await pilot.press("space")
        await wait_until(pilot, lambda: screen.accepted == {hunk.id}, "the hunk accepted")
        assert "1 accepted: 1 entry moves to memory/ARCHIVE.md · y applies" in summary(screen)
        assert rows(screen)[1].startswith("[✓] ")
        await pilot.press("space")
        await wait_until(pilot, lambda: not screen.accepted, "the hunk declined")
        assert "none accepted" in summary(screen)
        await pilot.press("A")
        await wait_until(pilot, lambda: len(screen.accepted) == 3, "every hunk accepted")
        assert "3 accepted: 1 entry moves to memory/ARCHIVE.md, 2 removed · y applies" in summary(screen)


async def test_y_with_nothing_accepted_writes_nothing_and_says_why(home: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    async with make_app(home).run_test(size=SIZE) as pilot:
        screen = await open_tidy(pilot)
        await pilot.press("y")
        await pilot.press("y")
        await pilot.pause()
        assert screen.confirming is False
        assert (home / "MEMORY.md").read_text() == PLANTED
        assert not (home / "memory").exists() and not (home / ".notebook").exists()


async def test_enter_goes_to_the_hunks_line_in_the_notebook(home: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tidy(pilot)
        listing = screen.query_one(OptionList)
        listing.highlighted = next(i for i, row in enumerate(rows(screen)) if "superseded" in row)
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen)
        view = file_view(app, "MEMORY.md")
        await wait_until(pilot, lambda: view.cursor == 3, "the cursor on line 4, the older timezone")


async def test_the_archive_is_listed_in_the_home_pane_as_not_loaded(home: Path) -> None:
    (home / "memory").mkdir()
    (home / "memory" / "ARCHIVE.md").write_text("## 2026-12-06 tidy 01J\n\n- moved out by tidy\n")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        rows = file_rows(app.screen.state)
        assert rows[-1] == FileRow("memory/ARCHIVE.md", Part.NOT_LOADED, "tidy's archive: the host does not load it")
        assert "moved out by tidy" not in app.screen.state.preview.composition.soul


def notes(app) -> list[str]:
    return [str(notification.message) for notification in app._notifications]


async def test_y_then_y_applies_the_accepted_hunks_as_one_write_and_says_how_to_undo(home: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tidy(pilot)
        await pilot.press("A")
        await wait_until(pilot, lambda: len(screen.accepted) == 3, "every hunk accepted")
        await pilot.press("y")
        await wait_until(pilot, lambda: "y again applies 3 hunks" in detail(screen), "the dry run to confirm")
        assert "move to memory/ARCHIVE.md: MEMORY.md line 4: timezone: UTC" in detail(screen)
        assert (home / "MEMORY.md").read_text() == PLANTED  # nothing yet
        await pilot.press("y")
        await wait_until(pilot, lambda: (home / "MEMORY.md").read_text() != PLANTED, "the apply to land")
        assert (home / "MEMORY.md").read_text() == "# notes\n\n- prefers tea\n- Timezone: IST\n"
        assert "- timezone: UTC\n" in (home / "memory" / "ARCHIVE.md").read_text()
        await wait_until(pilot, lambda: any("undo" in note for note in notes(app)), "the words after the apply")
        await wait_until(pilot, lambda: "Nothing to tidy" in summary(screen), "the proposal read again")
        assert not screen.accepted


async def test_esc_cancels_the_confirmation_and_writes_nothing(home: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tidy(pilot)
        await pilot.press("space", "y")
        await wait_until(pilot, lambda: screen.confirming, "the confirmation")
        await pilot.press("escape")
        assert isinstance(app.screen, TidyScreen) and not screen.confirming
        await pilot.press("y", "escape", "escape")
        assert isinstance(app.screen, MainScreen)
        assert (home / "MEMORY.md").read_text() == PLANTED


async def test_an_accepted_hunk_an_agent_changed_goes_stale_and_is_never_applied(home: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tidy(pilot)
        hunk = screen.selected
        assert hunk is not None and hunk.kind.code == "superseded"
        await pilot.press("space")
        await wait_until(pilot, lambda: screen.accepted == {hunk.id}, "the hunk accepted")
        changed = PLANTED.replace("- timezone: UTC\n", "- timezone: PST\n")
        (home / "MEMORY.md").write_text(changed)  # an agent's write to the bytes the hunk names
        await wait_until(pilot, lambda: hunk.id in screen.stale, "the hunk gone stale")
        assert not screen.accepted
        assert any(row == "stale · never applied" for row in rows(screen))
        await pilot.press("y", "y")
        await pilot.pause()
        assert (home / "MEMORY.md").read_text() == changed
        assert not (home / "memory").exists()


def preview_lines(screen: TidyScreen) -> list[tuple[str, str | None]]:
    """The preview's lines with their marks: ``removed`` on each line the accepted hunks take out."""
    document = screen.query_one("#tidy-next", SessionPane).document
    return [(line, getattr(document.marks.get(index), "value", None)) for index, line in enumerate(document.lines)]


async def test_the_next_session_preview_follows_what_is_accepted(home: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    async with make_app(home).run_test(size=SIZE) as pilot:
        screen = await open_tidy(pilot)
        await wait_until(pilot, lambda: "- timezone: UTC" in [line for line, _ in preview_lines(screen)], "a preview")
        assert not [line for line, mark in preview_lines(screen) if mark == "removed"]
        await pilot.press("space")  # the superseded timezone
        await wait_until(pilot, lambda: any(mark == "removed" for _, mark in preview_lines(screen)), "the preview")
        assert [line for line, mark in preview_lines(screen) if mark == "removed"] == ["- timezone: UTC"]
        await pilot.press("A")
        await wait_until(
            pilot,
            lambda: (
                [line for line, mark in preview_lines(screen) if mark == "removed"]
                == ["- timezone: UTC", "- prefers tea", "-"]
            ),
            "the preview of every hunk",
        )
        assert (home / "MEMORY.md").read_text() == PLANTED  # a preview writes nothing


def on_screen(app) -> str:
    """The text the terminal shows now, row by row (the screenshot's text, without its markup)."""
    import html
    import re

    svg = app.export_screenshot()
    rows = re.findall(r'<text class="[^"]*" x="[^"]*" y="([^"]*)"[^>]*>(.*?)</text>', svg)
    lines: dict[float, str] = {}
    for y, text in rows:
        lines[float(y)] = lines.get(float(y), "") + html.unescape(text).replace("\xa0", " ")
    return "\n".join(lines[y] for y in sorted(lines))


async def test_at_80_by_24_the_confirmation_shows_every_entry_before_the_final_y(home: Path) -> None:
    """Issue 34: at 80×24 the confirmation showed 2 of the 4 entries a y would apply."""
    (home / "MEMORY.md").write_text(PLANTED + "- Prefers tea\n- prefers tea\n")
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_tidy(pilot)
        await pilot.press("A")
        await wait_until(pilot, lambda: len(screen.accepted) == len(screen.proposal.hunks), "every hunk accepted")
        await pilot.press("y")
        await wait_until(pilot, lambda: "y again applies" in detail(screen), "the dry run to confirm")
        await pilot.pause()
        entries = [line.strip() for line in detail(screen).splitlines()[1:]]
        assert len(entries) >= 4, entries
        shown = on_screen(app)
        assert [entry for entry in entries if entry not in shown] == [], shown


async def test_at_80_by_24_a_confirmation_longer_than_the_view_scrolls_to_its_every_entry(home: Path) -> None:
    """Twelve entries to move at 80×24: the confirmation showed the first nine and cut the rest, with no way to read
    them before the final y. It takes the keys while it waits, so every entry can be brought on screen."""
    notes = "".join(f"- note {n} about the deploy process and the staging rules {'x' * 40}\n" for n in range(12))
    (home / "MEMORY.md").write_text("# MEMORY\n\n" + notes)
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_tidy(pilot)
        await pilot.press("A")
        await wait_until(pilot, lambda: len(screen.accepted) == len(screen.proposal.hunks), "every hunk accepted")
        await pilot.press("y")
        await wait_until(pilot, lambda: "y again applies" in detail(screen), "the dry run to confirm")
        await pilot.pause()
        entries = [line.split(": ")[-1] for line in detail(screen).splitlines()[1:]]
        assert len(entries) == 11, entries
        seen = on_screen(app)
        for _ in range(12):
            await pilot.press("down")
            await pilot.pause()
            seen += on_screen(app)
        assert [entry for entry in entries if entry.split(" about")[0] + " about" not in seen] == [], seen
        assert screen.confirming and (home / "MEMORY.md").read_text() == "# MEMORY\n\n" + notes  # nothing applied
