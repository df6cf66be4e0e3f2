"""An OpenClaw workspace at the sizes people use: 80×24, 100×30 and 160×45.

OpenClaw's default workspace in the 2026.9.6 layout (AGENTS, SOUL, IDENTITY,
USER, BOOTSTRAP and MEMORY.md injected, TOOLS.md retired, two daily notes read
on demand) with a config naming agents main and second, opened as the launch
path opens it, BOOTSTRAP.md's pane in view (what OpenClaw does with it, its
cap). Update with --snapshot-update, then look at the SVGs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_pilot import make_app, settled, wait_until
from openclaw_homes import openclaw_workspace, user_of

from notebook_app.app.view_model.notebook import Notebook
from notebook_app.app.widgets.home.home_pane import HomePane
from notebook_app.core.hosts.opening.choose import open_home

SIZES = [(80, 24), (100, 30), (160, 45)]
IDS = ["80x24", "100x30", "160x45"]


async def bootstrap_in_view(pilot) -> None:
    await settled(pilot)
    await pilot.press("5")
    await wait_until(pilot, lambda: pilot.app.screen.query_one(HomePane).document == "BOOTSTRAP.md", "BOOTSTRAP.md")
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_an_openclaw_workspace_shows_its_files_marks_and_bootstrap_in_openclaws_words(
    snap_compare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    work = openclaw_workspace(user_of(tmp_path, monkeypatch))
    opening = open_home(work)  # as launch opens it: the host from its config, the newest proven release
    assert (opening.host, opening.agent) == ("openclaw", "main")
    app = make_app(work)
    app._notebook = Notebook(opening.root, files=opening.files, opened_as=opening.spec)  # no notice: it names tmp
    assert snap_compare(app, terminal_size=size, run_before=bootstrap_in_view)
