"""The app launched with ``--host`` only looks, as ``soul --host`` does: nothing is remembered for the folder,
even after a write in the app (issue 34, data item 1); a host remembered before is said at open, with when it
was chosen and what ``--host`` with the layout's host would write instead.

``launch`` opens the home through ``_opened``; the test opens it the same way and drives the app with Pilot.
The state folder is the test's (tests/app/conftest.py).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from cli_process import run
from notebook_pilot import SIZE, make_app, open_doctor, started, wait_until
from textual.widgets import OptionList, Static

from notebook_app.app.launch import _opened
from notebook_app.app.widgets.form.action_form import ActionForm
from notebook_app.core.home.remembered import remember_host, remembered_host


def hosts_file() -> Path:
    return Path(os.environ["XDG_STATE_HOME"]) / "persona-notebook" / "hosts.json"


def plain_home(tmp_path: Path) -> Path:
    home = tmp_path / "plain"
    home.mkdir()
    (home / "MEMORY.md").write_text("- tn entry\n")
    return home


async def test_launching_with_host_previews_and_remembers_nothing_even_after_a_write(tmp_path: Path) -> None:
    home = plain_home(tmp_path)
    opened = _opened(str(home), host="openclaw", agent=None, profile=None, openclaw_config=None)
    assert not isinstance(opened, int)
    path, notebook, _ = opened
    assert notebook is not None and notebook.opened_as == "openclaw"
    assert not hosts_file().exists()
    app = make_app(path)
    app._notebook = notebook
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "openclaw", "OpenClaw in view at open")
        await pilot.press("a", *"seen in the app", "enter")
        await wait_until(pilot, lambda: not app.screen.query_one(ActionForm).is_open, "the form to close")
        await wait_until(pilot, lambda: "seen in the app" in (home / "MEMORY.md").read_text(), "the add written")
    assert not hosts_file().exists()  # launching with --host is a look, as soul --host is
    again = _opened(str(home), host=None, agent=None, profile=None, openclaw_config=None)
    assert not isinstance(again, int)
    assert again[1] is not None and again[1].opened_as is None  # the next plain open goes by the layout


async def test_a_host_remembered_before_is_said_at_open_with_its_time_and_what_the_layout_would_write(
    tmp_path: Path,
) -> None:
    home = plain_home(tmp_path)
    assert remember_host(home, "hermes") is None
    opened = _opened(str(home), host=None, agent=None, profile=None, openclaw_config=None)
    assert not isinstance(opened, int)
    path, notebook, _ = opened
    assert notebook is not None
    said: list[tuple[str, str]] = []
    app = make_app(path)
    app._notebook = notebook
    notify = app.notify
    app.notify = lambda message, **kw: (said.append((kw.get("title", ""), message)), notify(message, **kw))[1]
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: any(t == "opened as Hermes" for t, _ in said), "the opening notice")
    words = next(m for t, m in said if t == "opened as Hermes")
    assert words.startswith("the host remembered for this folder since ")
    assert "`--host toolnexus` writes MEMORY.md" in words


async def test_the_doctor_view_forgets_a_stale_remembered_host_with_y_and_writes_nothing_in_the_home(
    tmp_path: Path,
) -> None:
    home = plain_home(tmp_path)
    assert remember_host(home, "hermes") is None
    opened = _opened(str(home), host=None, agent=None, profile=None, openclaw_config=None)
    assert not isinstance(opened, int)
    path, notebook, _ = opened
    before = {p: p.read_bytes() for p in home.rglob("*") if p.is_file()}
    app = make_app(path)
    app._notebook = notebook
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_doctor(pilot)
        listing = screen.query_one(OptionList)
        index = next(
            i
            for i in range(listing.option_count)
            if (key := listing.get_option_at_index(i).id) and screen._findings[key].rule == "host.remembered"
        )
        listing.highlighted = index
        detail = screen.query_one("#doctor-detail", Static)
        await wait_until(pilot, lambda: "y applies it" in str(detail.render()), "the fix's dry run")
        assert "Hermes is forgotten" in str(detail.render())
        await pilot.press("y")
        await wait_until(pilot, lambda: remembered_host(home) is None, "the host forgotten")
    assert {p: p.read_bytes() for p in home.rglob("*") if p.is_file()} == before  # the home is not written


async def test_the_apps_doctor_as_hermes_finds_what_the_clis_doctor_as_hermes_finds(tmp_path: Path) -> None:
    """One rule for the file map the doctor reads (issue 34): a plain home looked at as Hermes, with no memories/,
    has its own MEMORY.md stand for Hermes's store in the CLI's doctor and in the app's ``!`` alike."""
    home = tmp_path / "plain"
    home.mkdir()
    (home / "MEMORY.md").write_text("# MEMORY\n\n- tn entry\n")
    cli = run("doctor", "--host", "hermes", "--home", str(home), "--json", tmp=tmp_path)
    said = {(f["rule"], f["file"], f["line"]) for f in json.loads(cli.stdout)["findings"] if f["severity"] != "info"}
    assert ("hygiene.mixed-dialect", "MEMORY.md", 3) in said
    opened = _opened(str(home), host="hermes", agent=None, profile=None, openclaw_config=None)
    assert not isinstance(opened, int)
    path, notebook, _ = opened
    app = make_app(path)
    app._notebook = notebook
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_doctor(pilot)
        shown = {(f.rule, f.file, f.line) for f in screen.report.findings if f.severity.value != "info"}
    assert shown == said
