"""``L``: what the chosen host injects next session, file by file, with its cut, from the core's one loader."""

from __future__ import annotations

import shutil
from importlib.resources import files
from pathlib import Path

import pytest
from notebook_pilot import make_app, settled, started, wait_until
from textual.widgets import OptionList, Static

from notebook_app.app.screens.injects import InjectsScreen
from notebook_app.app.screens.main.screen import MainScreen
from notebook_app.core.home.soul import compose
from notebook_app.core.hosts.named import load_as


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(tmp_path / "no-openclaw.json"))
    home = tmp_path / "demo"
    shutil.copytree(str(files("notebook_app") / "demo_home"), home)
    return home


def listed(app) -> list[str]:
    listing = app.screen.query_one(OptionList)
    return [listing.get_option_at_index(i).id or "" for i in range(listing.option_count)]


def shown(app, part: str) -> str:
    return str(app.screen.query_one(f"#injects-{part}", Static).content)


async def opened(pilot) -> InjectsScreen:
    await pilot.press("L")
    await wait_until(
        pilot, lambda: isinstance(pilot.app.screen, InjectsScreen) and pilot.app.screen.injects, "the host's load"
    )
    return pilot.app.screen


async def test_l_lists_each_file_of_the_demo_as_the_contract_loads_it(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await started(pilot)
        screen = await opened(pilot)
        assert listed(app) == compose(demo).found
        assert shown(app, "summary").startswith("toolnexus · 1,993 bytes · ")
        assert "(o200k_base)\ntest home read as the toolnexus home" in shown(app, "summary")
        assert "## AGENTS.md" in shown(app, "head") and not app.screen.query_one("#injects-cut").display
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen) and screen is not app.screen


async def test_after_load_as_openclaw_l_shows_its_entries_and_where_a_cut_falls(demo: Path) -> None:
    (demo / "SOUL.md").write_text("a line of the soul\n" * 2000)
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await started(pilot)
        assert "Load as: OpenClaw" in {command.title for command in app.get_system_commands(app.screen)}
        await app.screen.run_action("use_host('openclaw')")
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "openclaw", "OpenClaw in view")
        await opened(pilot)
        load = load_as(demo, "openclaw")
        assert not isinstance(load, str)
        assert listed(app) == [part.name for part in load.parts]
        assert "IDENTITY.md" in listed(app) and shown(app, "summary").startswith("OpenClaw 2026.9.6 · ")
        (soul,) = [part for part in load.parts if part.name == "SOUL.md"]
        assert soul.cut is not None
        app.screen.query_one(OptionList).highlighted = listed(app).index("SOUL.md")
        await wait_until(pilot, lambda: app.screen.query_one("#injects-cut").display, "the ✂ row")
        assert shown(app, "cut") == f"✂ {soul.cut['dropped']:,} UTF-16 units dropped"
        assert shown(app, "tail").startswith("[...truncated, read SOUL.md for full content...]")
        kept = soul.injected[: soul.injected.index("[...truncated")].rstrip("\n")
        assert shown(app, "head").rstrip("\n").endswith(kept[-60:])  # the head as OpenClaw cut it, mid-line
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_a_host_that_loads_nothing_from_the_home_says_so_in_words(tmp_path: Path, monkeypatch) -> None:
    """Claude Code on a home with no CLAUDE.md, an AGENTS.md that is a link loop and no auto memory: no part."""
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    home = tmp_path / "home"
    home.mkdir()
    (home / "SOUL.md").write_text("You are Kip.\n")
    (home / "AGENTS.md").symlink_to("loop")
    (home / "loop").symlink_to("AGENTS.md")
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await app.screen.run_action("use_host('claude-code')")
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "claude-code", "Claude Code in view")
        await opened(pilot)
        assert listed(app) == []
        assert shown(app, "head") == (
            "Claude Code 2.1.337 loads nothing from this home next session: "
            "none of the files it reads is there and readable."
        )


async def test_the_view_reads_again_when_the_home_changes(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await started(pilot)
        screen = await opened(pilot)
        (demo / "IDENTITY.md").write_text("I am Wren.\n")
        screen._home_changed()  # the watcher is off in tests: its message is what would call this
        await wait_until(pilot, lambda: "IDENTITY.md" in listed(app), "IDENTITY.md listed")
        assert (demo / "IDENTITY.md").read_text() == "I am Wren.\n"


@pytest.mark.parametrize("size", [(80, 24), (160, 45)], ids=["80x24", "160x45"])
def test_what_the_host_injects(snap_compare, demo: Path, size: tuple[int, int]) -> None:
    async def run_before(pilot) -> None:
        await settled(pilot)
        await opened(pilot)
        await pilot.pause()

    assert snap_compare(make_app(demo), terminal_size=size, run_before=run_before)
