"""SVG snapshots of the screens at a fixed size: path, clock and theme pinned, no watcher.

Plain synchronous tests (snap_compare cannot run inside an async test); the
interaction each needs runs in ``run_before``. Update with --snapshot-update,
then look at the SVGs before committing them.
"""

from __future__ import annotations

import shutil
from importlib.resources import files
from pathlib import Path

import pytest
from notebook_pilot import SIZE, make_app, settled, wait_until
from textual.widgets import Input

from notebook_app.app.themes import load_themes, shipped_themes_dir
from notebook_app.app.widgets.common.line_view import LineView
from notebook_app.app.widgets.form.action_form import ActionForm
from notebook_app.app.widgets.session.session_pane import SessionPane

SHIPPED_THEMES = sorted(theme.name for theme in load_themes(shipped_themes_dir())[0])


async def submit(pilot, key: str, text: str) -> None:
    """Open the form with ``key`` and submit ``text``, set in one go: a single dry run, no typing race."""
    await pilot.press(key)
    pilot.app.screen.query_one("#form-text", Input).value = text
    await pilot.press("enter")


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """A copy of the shipped demo persona: the screen a newcomer first sees."""
    home = tmp_path / "demo"
    shutil.copytree(str(files("notebook_app") / "demo_home"), home)
    return home


def test_main_screen_in_sync(snap_compare, demo: Path) -> None:
    assert snap_compare(make_app(demo), terminal_size=SIZE, run_before=settled)


def test_main_screen_with_pending_changes(snap_compare, demo: Path) -> None:
    async def run_before(pilot) -> None:
        await settled(pilot)
        await submit(pilot, "a", "prefers tide times on a 24-hour clock")
        next_pane = pilot.app.screen.query_one("#next", SessionPane)
        await wait_until(
            pilot, lambda: "- prefers tide times on a 24-hour clock" in next_pane.document.lines, "the entry in Next"
        )
        await wait_until(
            pilot, lambda: bool(pilot.app._notifications), "the add's notification (it comes after the footer's keys)"
        )
        soul = next_pane.query_one(LineView)
        await wait_until(
            pilot,
            lambda: soul.virtual_size.height == len(soul._rows),
            "Next's height held after the form closed, given back",
        )
        await pilot.pause()
        pilot.app.clear_notifications()

    assert snap_compare(make_app(demo), terminal_size=SIZE, run_before=run_before)


def test_main_screen_with_a_miss_error(snap_compare, demo: Path) -> None:
    async def run_before(pilot) -> None:
        await settled(pilot)
        await submit(pilot, "x", "prefers imperial units")
        form = pilot.app.screen.query_one(ActionForm)
        await wait_until(pilot, lambda: form.status[0] == "error", "the miss")

    assert snap_compare(make_app(demo), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("theme", SHIPPED_THEMES)
def test_each_shipped_theme(snap_compare, demo: Path, theme: str) -> None:
    async def run_before(pilot) -> None:
        await settled(pilot)
        assert pilot.app.theme == theme

    assert snap_compare(make_app(demo, theme=theme), terminal_size=SIZE, run_before=run_before)


def test_the_three_themes_ship() -> None:
    assert SHIPPED_THEMES == ["dark", "high-contrast", "light"]
