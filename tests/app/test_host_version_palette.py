"""The palette picks the host's proven release and OpenClaw's session kind; the panes, L and the doctor follow."""

from __future__ import annotations

import shutil
from importlib.resources import files
from pathlib import Path

import pytest
from notebook_pilot import make_app, started, wait_until
from textual.widgets import OptionList, Static

from notebook_app.app.screens.injects import InjectsScreen
from notebook_app.app.widgets.session.session_pane import SessionPane


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(tmp_path / "no-openclaw.json"))
    home = tmp_path / "demo"
    shutil.copytree(str(files("notebook_app") / "demo_home"), home)
    return home


def commands(app) -> dict[str, str]:
    return {str(command.title): str(command.help) for command in app.get_system_commands(app.screen)}


async def chosen(pilot, title: str) -> None:
    """``title`` typed in the palette and the first command it finds run."""
    await pilot.press("ctrl+p", *title)
    await wait_until(pilot, lambda: any(c.option_count for c in pilot.app.screen.query("CommandList")), "results")
    await pilot.press("enter")


async def opened(pilot) -> InjectsScreen:
    await pilot.press("L")
    await wait_until(
        pilot, lambda: isinstance(pilot.app.screen, InjectsScreen) and pilot.app.screen.injects, "the host's load"
    )
    return pilot.app.screen


def pane(app, name: str) -> SessionPane:
    return app.screen.query_one(f"#{name}", SessionPane)


def listed(app) -> list[str]:
    listing = app.screen.query_one(OptionList)
    return [listing.get_option_at_index(i).id or "" for i in range(listing.option_count)]


def summary(app) -> str:
    return str(app.screen.query_one("#injects-summary", Static).content)


async def test_the_palette_offers_each_proven_release_and_keeps_the_plain_host(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await started(pilot)
        offered = commands(app)
        assert {
            "Load as: OpenClaw",
            "Load as: OpenClaw 2026.9.6 (newest)",
            "Load as: OpenClaw 2026.8.2",
            "Load as: OpenClaw 2026.4.27",
            "Load as: OpenClaw 2026.1.29",
            "Load as: Hermes 0.19.0 (newest)",
            "Load as: Claude Code 2.1.337 (newest)",
            "Load as: Claude Code 2.1.332",
        } <= set(offered)
        assert "its rules cover 2026.4.27–2026.5.6" in offered["Load as: OpenClaw 2026.4.27"]
        assert not any(title.startswith("OpenClaw session kind") for title in offered)  # only with OpenClaw in view


async def test_load_as_openclaw_2026_4_27_then_l_shows_that_release_and_its_caps(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await started(pilot)
        await chosen(pilot, "Load as: OpenClaw 2026.4.27")
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "openclaw@2026.4.27", "2026.4.27 in view")
        # "Current · OpenClaw 2026.4.27" is cut at 100 columns (a pane is 32 wide): the titles keep the host only
        await wait_until(pilot, lambda: str(pane(app, "next").border_title) == "Next · OpenClaw", "the relabel")
        assert str(pane(app, "current").border_title) == "Current · OpenClaw"
        (numbers,) = [f.message for f in app.screen.notebook.check().findings if f.rule == "host.numbers"]
        assert "OpenClaw 2026.4.27; session kind: main; in force: 12,000 characters per file, 60,000 in total" in (
            numbers
        )
        await opened(pilot)
        assert summary(app).startswith("OpenClaw 2026.4.27 · main session · ")
        assert " of 60,000 UTF-16 units, 12,000 per file · " in summary(app)
        assert "TOOLS.md" in listed(app)  # 2026.4.27 still expects TOOLS.md; 2026.8.2 retired it


async def test_a_subagent_session_of_the_newest_openclaw_leaves_only_agents_md(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await started(pilot)
        await chosen(pilot, "Load as: OpenClaw 2026.9.6 (newest)")
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "openclaw@2026.9.6", "2026.9.6 in view")
        offered = commands(app)
        assert offered["OpenClaw session kind: subagent"] == (
            "OpenClaw 2026.9.6 drops SOUL.md, IDENTITY.md, USER.md, BOOTSTRAP.md, MEMORY.md in a subagent session, "
            "keeping AGENTS.md"
        )
        assert offered["OpenClaw session kind: main"] == "OpenClaw 2026.9.6 drops no file in a main session"
        await chosen(pilot, "OpenClaw session kind: subagent")
        await wait_until(pilot, lambda: app.screen.sessions.session_kind == "subagent", "a subagent session in view")
        assert app.screen.state.preview.found == ["AGENTS.md"]
        assert app.screen.sessions.host_spec == "openclaw@2026.9.6"  # the version stays as it was chosen
        (numbers,) = [f.message for f in app.screen.notebook.check().findings if f.rule == "host.numbers"]
        assert "session kind: subagent" in numbers
        await opened(pilot)
        assert summary(app).startswith("OpenClaw 2026.9.6 · subagent session · ")
        assert listed(app)[0] == "AGENTS.md"
        load = app.screen.injects.load
        assert [part.name for part in load.parts if part.injected is not None] == ["AGENTS.md"]


async def test_a_subagent_session_of_2026_4_27_keeps_its_five_files(demo: Path) -> None:
    """The kinds are the release's rules: 2026.4.27's subagent list is AGENTS, SOUL, TOOLS, IDENTITY, USER."""
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await started(pilot)
        await app.screen.run_action("use_host('openclaw@2026.4.27')")
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "openclaw@2026.4.27", "2026.4.27 in view")
        await app.screen.run_action("use_session_kind('subagent')")
        await wait_until(pilot, lambda: app.screen.sessions.session_kind == "subagent", "a subagent session in view")
        kept = {"AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md"}
        found = set(app.screen.state.preview.found)
        assert {"AGENTS.md", "SOUL.md", "USER.md"} <= found <= kept  # the demo's HEARTBEAT.md and MEMORY.md dropped
        await app.screen.run_action("use_host('hermes')")
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "hermes", "Hermes in view")
        assert app.screen.sessions.session_kind is None
        assert not any(title.startswith("OpenClaw session kind") for title in commands(app))
