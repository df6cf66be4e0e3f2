"""An OpenClaw workspace in the app with OpenClaw installed as a global npm package (issue 36): the header names
the installed release, Current, Next and ``L`` load as it (or as the proven release standing in for it), and
nothing runs the installed ``openclaw``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fake_installs import npm_global
from notebook_pilot import SIZE, make_app, started, wait_until
from openclaw_homes import openclaw_workspace, user_of

from notebook_app.app.launch import _opened
from notebook_app.app.screens.injects import InjectsScreen
from notebook_app.core.hostbase.installed import DETECT_OFF


def opened_with_openclaw(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: str):
    """The workspace opened as the notebook opens it, ``openclaw`` ``version`` on PATH, detection on; the app, what
    it said, and the marker a run of ``openclaw`` would leave."""
    work = openclaw_workspace(user_of(tmp_path, monkeypatch))
    marker = tmp_path / "openclaw-ran"
    bin_folder = npm_global(tmp_path / "npm", "openclaw", version, "openclaw", "openclaw.mjs", marker)
    monkeypatch.setenv("PATH", f"{bin_folder}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv(DETECT_OFF, raising=False)
    opened = _opened(str(work), host=None, agent=None, profile=None, openclaw_config=None)
    assert not isinstance(opened, int)
    path, notebook, _ = opened
    assert notebook is not None and notebook.opened_as == "openclaw"
    app = make_app(path)
    app._notebook = notebook
    said: list[str] = []
    notify = app.notify
    app.notify = lambda message, **kw: (said.append(message), notify(message, **kw))[1]
    return app, said, marker


async def test_an_installed_openclaw_newer_than_the_newest_proven_is_named_and_shown_as_the_newest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, said, marker = opened_with_openclaw(tmp_path, monkeypatch, "2026.99.1")
    sentence = "your OpenClaw 2026.99.1 is newer than the newest proven, 2026.9.6: shown as 2026.9.6 loads it"
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: "2026.99.1" in app.screen.sub_title, "the installed release in the header")
        assert app.screen.sub_title == "OpenClaw 2026.99.1 (shown as 2026.9.6) · test home"
        await wait_until(pilot, lambda: sentence in said, "the stand-in said")
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "openclaw@2026.9.6", "2026.9.6 in view")
        await pilot.press("L")
        await wait_until(pilot, lambda: isinstance(app.screen, InjectsScreen) and app.screen.injects, "the load")
        assert app.screen.injects.load.version == "2026.9.6"
        summary = str(app.screen.query_one("#injects-summary").content)
        assert summary.endswith(f"\nY{sentence[1:]}")
    assert not marker.exists(), "detection ran the host"


async def test_an_installed_openclaw_inside_a_proven_range_is_loaded_as_itself_and_said_no_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, said, marker = opened_with_openclaw(tmp_path, monkeypatch, "2026.5.2")
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: "2026.5.2" in app.screen.sub_title, "the installed release in the header")
        assert app.screen.sub_title == "OpenClaw 2026.5.2 · test home"
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "openclaw@2026.5.2", "2026.5.2 in view")
        await pilot.press("L")
        await wait_until(pilot, lambda: isinstance(app.screen, InjectsScreen) and app.screen.injects, "the load")
        summary = str(app.screen.query_one("#injects-summary").content)
        assert "Your OpenClaw" not in summary and "2026.4.27" in summary  # the rules of 2026.4.27's range
    assert not any("newest proven" in words for words in said) and not marker.exists()
