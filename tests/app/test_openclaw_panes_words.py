"""An OpenClaw workspace's panes say what OpenClaw does with each file, in its own units, and ``--agent`` opens
another agent's workspace, as the app's launch opens them."""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_pilot import SIZE, make_app, started, summary_of, wait_until
from openclaw_homes import openclaw_workspace, user_of

from notebook_app.app.launch import _open_by_host
from notebook_app.app.widgets.home.file_list import FileList
from notebook_app.app.widgets.home.home_pane import HomePane


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return openclaw_workspace(user_of(tmp_path, monkeypatch))


async def test_bootstrap_and_a_daily_note_say_who_reads_them_and_the_cap_is_openclaws(workspace: Path) -> None:
    where, notebook = _open_by_host(workspace)
    app = make_app(where)
    app._notebook = notebook
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app.screen.state.preview.composition.host == "openclaw", "OpenClaw's load")
        home = app.screen.query_one(HomePane)
        await pilot.press("5")
        await wait_until(pilot, lambda: home.document == "BOOTSTRAP.md", "BOOTSTRAP.md in view")
        bootstrap = summary_of(app, "BOOTSTRAP.md")
        assert "OpenClaw injects this on a new workspace's first run; the agent deletes it" in bootstrap
        assert "OpenClaw 2026.9.6 records that in its own database" in bootstrap
        assert "27 bytes · 0.13% of OpenClaw's 20,000-unit cap" in bootstrap and "2 MiB" not in bootstrap
        assert "0.62% of OpenClaw's 4,000-unit cap" in summary_of(app, "USER.md")  # USER.md's own cap
        await pilot.press("8")
        await wait_until(pilot, lambda: home.document == "memory/2026-12-01.md", "the older daily note in view")
        note = summary_of(app, "memory/2026-12-01.md")
        assert note.startswith("27 bytes\nⓘ not injected: OpenClaw's agent reads its daily notes itself")
        assert "cap" not in note


async def test_agent_second_opens_the_second_agents_workspace(workspace: Path) -> None:
    second = workspace.parent / "workspace-second"
    where, notebook = _open_by_host(None, host=None, agent="second", profile=None, openclaw_config=None)
    assert where == second
    app = make_app(where)
    app._notebook = notebook
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app.screen.state.preview.composition.host == "openclaw", "OpenClaw's load")
        assert "- second agent's note" in "\n".join(app.screen.state.files["MEMORY.md"].document.lines)
        assert "BOOTSTRAP.md" in app.screen.query_one(FileList).names  # the release's order, absent or not
    assert not (second / ".notebook").exists()
