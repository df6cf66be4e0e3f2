"""The doctor view lists a finding in tidy's archive under its path, and enter shows the archive at that line."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import SIZE, file_view, make_app, open_doctor, started, wait_until
from textual.widgets import OptionList

from notebook_app.app.screens.main.screen import MainScreen
from notebook_app.app.widgets.home.home_pane import HomePane

KEY = "sk-ant-api03-" + "a1B2" * 20


async def test_a_secret_in_the_archive_is_listed_under_its_path_and_enter_shows_its_line(home: Path) -> None:
    (home / "MEMORY.md").write_text("- tz: IST\n")
    (home / "memory").mkdir()
    (home / "memory" / "ARCHIVE.md").write_text(f"## 2026-12-06 tidy 01J\n\n- moved out\n- old key {KEY}\n")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_doctor(pilot)
        listing = screen.query_one(OptionList)
        prompts = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert "memory/ARCHIVE.md · 1" in prompts  # its own group, named by its path
        index = next(i for i, option in enumerate(listing.options) if (option.id or "").startswith("memory/ARCHIVE.md"))
        finding = screen._findings[listing.get_option_at_index(index).id or ""]
        assert (finding.rule, finding.line, finding.fix) == ("security.secret", 4, None)
        listing.highlighted = index
        await pilot.pause()
        detail = str(screen.query_one("#doctor-detail").content)
        assert "offers no fix in tidy's archive" in detail and "y applies it" not in detail
        await pilot.press("y")  # no fix: it says so, and nothing is written
        await pilot.pause()
        assert any("no fix to apply" in str(n.message) for n in app._notifications)
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen)
        assert app.screen.query_one(HomePane).document == "memory/ARCHIVE.md"
        view = file_view(app, "memory/ARCHIVE.md")
        # the document pane shows it (not an entry pane: no cursor; the line is scrolled into view) and flags line 4
        await wait_until(pilot, lambda: view._flags == {3: "error"}, "the archive's line 4 flagged")
        assert app.screen.query_one(HomePane).pane("memory/ARCHIVE.md").name_shown == "memory/ARCHIVE.md"
        assert len(view.visible_document.lines) == 4
    assert (home / "memory" / "ARCHIVE.md").read_text().endswith(f"- old key {KEY}\n")
