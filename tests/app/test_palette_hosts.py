"""The palette offers the hosts whose layout fits the home, and remembers a release of the host it opened as.

Real homes in temp folders, the real app driven by Pilot; the user's state is the test's XDG_STATE_HOME
(tests/app/conftest.py), so what the palette remembers lands there and is read back by the real open_home.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from notebook_pilot import SIZE, make_app, started, wait_until

from notebook_app.app.view_model.notebook import Notebook
from notebook_app.core.home.layout import hermes_files, host_files
from notebook_app.core.hosts.opening.choose import open_home
from notebook_app.core.hosts.opening.result import Opening


@pytest.fixture(autouse=True)
def no_openclaw_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(tmp_path / "no-openclaw.json"))


def hermes_home(tmp_path: Path) -> Path:
    home = tmp_path / "hermes"
    (home / "memories").mkdir(parents=True)
    (home / "SOUL.md").write_text("You are Hermes, terse and exact.\n")
    (home / "memories" / "MEMORY.md").write_text("likes tide tables\n§\ndrafts go out")
    return home


def tree(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def load_as(app) -> set[str]:
    return {str(c.title) for c in app.get_system_commands(app.screen) if str(c.title).startswith("Load as: ")}


def hosts_file() -> Path:
    return Path(os.environ["XDG_STATE_HOME"]) / "persona-notebook" / "hosts.json"


def kept_notices(app) -> list[tuple[str, str]]:
    """Every notice the app says, kept: notifications expire after seconds, and a loaded machine can take that long."""
    said: list[tuple[str, str]] = []
    notify = app.notify
    app.notify = lambda message, **kw: (said.append((kw.get("title", ""), message)), notify(message, **kw))[1]
    return said


async def chosen(pilot, title: str) -> None:
    """``title`` typed in the palette and the first command it finds run."""
    await pilot.press("ctrl+p", *title)
    await wait_until(pilot, lambda: any(c.option_count for c in pilot.app.screen.query("CommandList")), "results")
    await pilot.press("enter")


async def test_a_hermes_home_offers_the_hermes_releases_and_no_other_host(tmp_path: Path) -> None:
    home = hermes_home(tmp_path)
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        offered = load_as(app)
        assert {"Load as: Hermes", "Load as: Hermes 0.19.0 (newest)"} <= offered
        assert not any(
            t.startswith(("Load as: OpenClaw", "Load as: Claude Code", "Load as: toolnexus")) for t in offered
        )
        helps = {str(c.title): str(c.help) for c in app.get_system_commands(app.screen)}
        assert helps["Hosts not offered for this home"].startswith("Claude Code, OpenClaw, toolnexus (the contract)")


async def test_a_toolnexus_home_offers_every_host_and_its_releases(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        offered = load_as(app)
        assert {
            "Load as: OpenClaw",
            "Load as: OpenClaw 2026.4.27",
            "Load as: Hermes 0.19.0 (newest)",
            "Load as: Claude Code",
            "Load as: Claude Code 2.1.337 (newest)",
            "Load as: Claude Code 2.1.332",
            "Load as: toolnexus (the contract)",
        } <= offered
        titles = {str(c.title) for c in app.get_system_commands(app.screen)}
        assert "Hosts not offered for this home" not in titles


async def test_choosing_a_release_on_a_hermes_home_remembers_it_in_the_state_and_writes_nothing_in_the_home(
    tmp_path: Path,
) -> None:
    home = hermes_home(tmp_path)
    before = tree(home)
    app = make_app(home)
    said = kept_notices(app)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "hermes", "Hermes in view at open")
        assert not hosts_file().exists()  # opening as Hermes remembers nothing: only a person's choice is kept
        await chosen(pilot, "Load as: Hermes 0.19.0 (newest)")
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "hermes@0.19.0", "0.19.0 in view")
        await wait_until(pilot, lambda: hosts_file().exists(), "the choice remembered")
        kept = json.loads(hosts_file().read_text())
        assert kept.keys() == {os.path.realpath(home)}
        assert kept[os.path.realpath(home)].keys() == {"host", "version", "since"}  # chosen when: issue 34
        assert kept[os.path.realpath(home)]["host"] == "hermes"
        assert kept[os.path.realpath(home)]["version"] == "0.19.0"
        await wait_until(
            pilot,
            lambda: ("host", "hermes@0.19.0 is remembered for this folder: the next open keeps it") in said,
            "the choice said",
        )
    assert tree(home) == before
    again = open_home(home)
    assert isinstance(again, Opening) and (again.host, again.version) == ("hermes", "0.19.0")


async def test_choosing_a_release_on_an_openclaw_workspace_keeps_that_version_for_the_next_open(tmp_path: Path) -> None:
    work = tmp_path / "claw" / "workspace"
    work.mkdir(parents=True)
    (tmp_path / "claw" / "openclaw.json").write_text("{}")
    (work / "MEMORY.md").write_text("- likes tide tables\n")
    before = tree(tmp_path / "claw")
    app = make_app(work)
    app._notebook = Notebook(work, files=host_files("openclaw"))
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert not any(t.startswith(("Load as: Hermes", "Load as: Claude Code")) for t in load_as(app))
        await chosen(pilot, "Load as: OpenClaw 2026.4.27")
        await wait_until(pilot, lambda: hosts_file().exists(), "the choice remembered")
    kept = json.loads(hosts_file().read_text())
    assert kept.keys() == {os.path.realpath(work)}
    assert {k: v for k, v in kept[os.path.realpath(work)].items() if k != "since"} == {
        "host": "openclaw",
        "version": "2026.4.27",
    }
    assert kept[os.path.realpath(work)]["since"].endswith("Z")
    assert tree(tmp_path / "claw") == before
    again = open_home(work)
    assert isinstance(again, Opening) and again.spec == "openclaw@2026.4.27"


async def test_previewing_a_toolnexus_home_as_another_host_is_not_remembered(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await chosen(pilot, "Load as: OpenClaw 2026.4.27")
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "openclaw@2026.4.27", "2026.4.27 in view")
        await pilot.pause()
        await app.workers.wait_for_complete()
    assert not hosts_file().exists()
    again = open_home(home)
    assert isinstance(again, Opening) and again.host == "toolnexus"


async def test_a_host_not_offered_is_refused_with_its_reason_and_the_host_in_view_kept(tmp_path: Path) -> None:
    home = hermes_home(tmp_path)
    app = make_app(home)
    said = kept_notices(app)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "hermes", "Hermes in view at open")
        await app.screen.run_action("use_host('openclaw@2026.9.6')")
        reason = "this is a Hermes home: its stores are in memories/; OpenClaw does not read them"
        assert ("host not offered here", reason) in said
        await app.workers.wait_for_complete()
        assert app.screen.sessions.host_spec == "hermes"
    assert not hosts_file().exists()


async def test_a_choice_that_cannot_be_remembered_is_said_and_the_host_still_in_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "state-is-a-file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocked))
    home = hermes_home(tmp_path)
    app = make_app(home)
    said = kept_notices(app)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await chosen(pilot, "Load as: Hermes 0.19.0 (newest)")
        await wait_until(pilot, lambda: any(t == "host" and "is not remembered" in m for t, m in said), "said")
        assert app.screen.sessions.host_spec == "hermes@0.19.0"
        assert app.is_running
