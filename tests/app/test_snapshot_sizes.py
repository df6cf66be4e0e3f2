"""Every view at the sizes people use: 80×24, 100×30 and 160×45.

Snapshots of the main screen, the form open with its dry run, help, and
agent sessions. Update with --snapshot-update, then look at the SVGs.
"""

from __future__ import annotations

import shutil
from importlib.resources import files
from pathlib import Path

import pytest
from notebook_pilot import make_app, settled, wait_until
from test_agent_sessions_view import fixed_sessions, journal_rows
from textual.widgets import Input

from notebook_app.app.screens.help import HelpScreen
from notebook_app.app.widgets.session.session_pane import SessionPane

SIZES = [(80, 24), (100, 30), (160, 45)]
IDS = ["80x24", "100x30", "160x45"]


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    home = tmp_path / "demo"
    shutil.copytree(str(files("notebook_app") / "demo_home"), home)
    return home


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_main_screen(snap_compare, demo: Path, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(demo), terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_main_screen_of_a_home_with_two_broken_files(snap_compare, home: Path, size: tuple[int, int]) -> None:
    from test_layout_sizes import broken_home

    broken_home(home)  # MEMORY.md not UTF-8, SOUL.md a FIFO: warnings folded to one row each
    assert snap_compare(make_app(home), terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_form_open_with_its_dry_run(snap_compare, demo: Path, size: tuple[int, int]) -> None:
    async def run_before(pilot) -> None:
        await settled(pilot)
        await pilot.press("a")
        pilot.app.screen.query_one("#form-text", Input).value = "prefers tide times on a 24-hour clock"
        upcoming = pilot.app.screen.query_one("#next", SessionPane)
        await wait_until(
            pilot, lambda: "- prefers tide times on a 24-hour clock" in upcoming.document.lines, "the dry run"
        )
        await pilot.pause()

    assert snap_compare(make_app(demo), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_help(snap_compare, demo: Path, size: tuple[int, int]) -> None:
    async def run_before(pilot) -> None:
        await settled(pilot)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), "the help screen")

    assert snap_compare(make_app(demo), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_agent_sessions(snap_compare, home: Path, size: tuple[int, int]) -> None:
    fixed_sessions(home)

    async def run_before(pilot) -> None:
        await settled(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: getattr(pilot.app.screen, "view", None) is not None, "the newest session shown")
        await pilot.press("down")
        await wait_until(
            pilot, lambda: pilot.app.screen.view.session.id == "20261129-100000-0000aaaa", "the older session"
        )
        await wait_until(pilot, lambda: len(journal_rows(pilot.app)) == 3, "its journal")
        await pilot.pause()

    assert snap_compare(make_app(home), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [SIZES[0], SIZES[2]], ids=[IDS[0], IDS[2]])
def test_history(snap_compare, home: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    import random
    from types import SimpleNamespace

    from notebook_app.app.screens.history import HistoryScreen
    from notebook_app.core.record.log import ids as event_ids
    from notebook_app.core.record.log.actor import CLI
    from notebook_app.core.memory.tool import memory_tool

    monkeypatch.setattr(event_ids, "_time", SimpleNamespace(time=lambda: 1_796_000_000.0))  # ids on screen: pinned
    monkeypatch.setattr(event_ids, "_random", random.Random(7))
    memory_tool(home, by=CLI).call({"action": "add", "text": "prefers tide times on a 24-hour clock"})

    async def run_before(pilot) -> None:
        await settled(pilot)
        await pilot.press("h")
        await wait_until(
            pilot, lambda: isinstance(pilot.app.screen, HistoryScreen) and pilot.app.screen.records, "the records"
        )
        detail = pilot.app.screen.query_one("#history-detail")
        await wait_until(pilot, lambda: "24-hour" in str(detail.content), "the diff")
        await pilot.pause()

    app = make_app(home)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [SIZES[0], SIZES[2]], ids=[IDS[0], IDS[2]])
def test_doctor(snap_compare, home: Path, size: tuple[int, int]) -> None:
    from notebook_app.app.screens.doctor import DoctorScreen

    (home / "MEMORY.md").write_text(
        "# Notes\n\n- timezone: UTC\n- timezone: IST\n- likes tide tables\n- likes tide tables\n"
    )

    async def run_before(pilot) -> None:
        await settled(pilot)
        await pilot.press("exclamation_mark")
        await wait_until(
            pilot,
            lambda: isinstance(pilot.app.screen, DoctorScreen) and pilot.app.screen.report is not None,
            "the findings",
        )
        await pilot.pause()

    assert snap_compare(make_app(home), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [SIZES[0], SIZES[2]], ids=[IDS[0], IDS[2]])
def test_review(snap_compare, home: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    import random
    from types import SimpleNamespace

    from notebook_app.app.screens.review.screen import ReviewScreen
    from notebook_app.core.record.log import ids as event_ids
    from notebook_app.core.record.log.actor import Actor
    from notebook_app.core.memory.review.decisions import propose

    monkeypatch.setattr(event_ids, "_time", SimpleNamespace(time=lambda: 1_796_000_000.0))  # ids on screen: pinned
    monkeypatch.setattr(event_ids, "_random", random.Random(7))
    kip = Actor.mcp("20261130-210000-0000abcd", "kip-host", "1.4")
    claude = Actor.mcp("20261130-211500-0000beef", "claude-code", "2.0.1")
    propose(home, {"action": "replace", "text": "timezone: UTC", "with": "timezone: IST"}, by=kip)
    propose(home, {"action": "add", "target": "user", "text": "prefers tide times on a 24-hour clock"}, by=claude)
    propose(home, {"action": "remove", "text": "drafts go out on Fridays"}, by=kip)
    (home / "MEMORY.md").write_text((home / "MEMORY.md").read_text().replace("- drafts go out on Fridays\n", ""))

    async def run_before(pilot) -> None:
        await settled(pilot)
        await pilot.press("p")
        await wait_until(
            pilot, lambda: isinstance(pilot.app.screen, ReviewScreen) and pilot.app.screen.listed, "the queue"
        )
        pilot.app.clear_notifications()  # the "3 proposals" toast would cover the rows this snapshot is for
        await pilot.pause()

    assert snap_compare(make_app(home), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [SIZES[0], SIZES[2]], ids=[IDS[0], IDS[2]])
def test_find_bar_with_highlighted_matches(snap_compare, demo: Path, size: tuple[int, int]) -> None:
    async def run_before(pilot) -> None:
        await settled(pilot)
        await pilot.press("slash", *"kelp")
        count = pilot.app.screen.query_one("#find-count")
        await wait_until(pilot, lambda: str(count.content) == "2 of 6", "the count")
        await pilot.press("down")
        await wait_until(pilot, lambda: str(count.content) == "3 of 6", "the next match")
        pilot.app.screen.query_one("#find-input", Input).cursor_blink = False
        await pilot.pause()

    assert snap_compare(make_app(demo), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_tidy_with_two_hunks_accepted_and_the_next_session_if_applied(
    snap_compare, home: Path, size: tuple[int, int]
) -> None:
    from notebook_app.app.screens.tidy.screen import TidyScreen

    (home / "MEMORY.md").write_text("# notes\n\n- prefers tea\n- timezone: UTC\n- prefers tea\n-\n- Timezone: IST\n")

    async def run_before(pilot) -> None:
        await settled(pilot)
        await pilot.press("T")
        await wait_until(
            pilot,
            lambda: isinstance(pilot.app.screen, TidyScreen) and pilot.app.screen.proposal is not None,
            "the hunks",
        )
        await pilot.press("space", "down", "space")
        pane = pilot.app.screen.query_one("#tidy-next", SessionPane)
        await wait_until(
            pilot, lambda: sum(1 for mark in pane.document.marks.values() if mark == "removed") == 2, "the preview"
        )
        await pilot.pause()

    assert snap_compare(make_app(home), terminal_size=size, run_before=run_before)


def test_the_tidy_confirmation_at_80x24_shows_every_entry_a_y_applies(snap_compare, home: Path) -> None:
    from notebook_app.app.screens.tidy.screen import TidyScreen

    (home / "MEMORY.md").write_text(
        "# notes\n\n- prefers tea\n- timezone: UTC\n- prefers tea\n-\n- Timezone: IST\n- Prefers tea\n"
    )

    async def run_before(pilot) -> None:
        await settled(pilot)
        await pilot.press("T")
        await wait_until(
            pilot,
            lambda: isinstance(pilot.app.screen, TidyScreen) and pilot.app.screen.proposal is not None,
            "the hunks",
        )
        screen = pilot.app.screen
        await pilot.press("A")
        await wait_until(pilot, lambda: len(screen.accepted) == len(screen.proposal.hunks), "every hunk accepted")
        await pilot.press("y")
        await wait_until(pilot, lambda: screen.confirming, "the confirmation")
        await pilot.pause()

    assert snap_compare(make_app(home), terminal_size=(80, 24), run_before=run_before)
