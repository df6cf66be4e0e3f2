"""The app launched with ``--host`` only looks, as ``soul --host`` does: nothing is remembered for the folder,
even after a write in the app (issue 34, data item 1); a host remembered before is said at open, with when it
was chosen and what ``--host`` with the layout's host would write instead.

``launch`` opens the home through ``_opened``; the test opens it the same way and drives the app with Pilot.
The state folder is the test's (tests/app/conftest.py).
"""

from __future__ import annotations

import os
from pathlib import Path

from notebook_pilot import SIZE, make_app, started, wait_until

from notebook_app.app import _opened
from notebook_app.app.widgets.form.action_form import ActionForm
from notebook_app.core.home.remembered import remember_host


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
