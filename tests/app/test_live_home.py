"""LiveHome: the one watch a view that writes nothing gets, with real files and the real watchers."""

from __future__ import annotations

import shutil
from pathlib import Path

from notebook_pilot import wait_until
from textual import on
from textual.app import App, ComposeResult

from notebook_app.app.watchers.home import HomeWatcher
from notebook_app.app.watchers.home_and_log import LiveHome
from notebook_app.core.memory.tool import memory_tool


class Watching(App[None]):
    def __init__(self, home: Path) -> None:
        super().__init__()
        self.home = home
        self.seen: list[LiveHome.Changed] = []
        self.missing = 0

    def compose(self) -> ComposeResult:
        yield LiveHome(self.home, watch=True, group="test-watch")

    @on(LiveHome.Changed)
    def _changed(self, event: LiveHome.Changed) -> None:
        self.seen.append(event)

    @on(HomeWatcher.HomeMissing)
    def _missing(self) -> None:
        self.missing += 1  # must never arrive: the notebook's own screen reports a missing home


async def test_a_file_change_and_a_log_change_each_reach_the_view_and_a_missing_home_does_not(home: Path) -> None:
    app = Watching(home)
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: any(e.log for e in app.seen), "the log watch's first word on start")
        app.seen.clear()
        (home / "USER.md").write_text("- name is Priya\n")
        await wait_until(pilot, lambda: any(e.files for e in app.seen), "the file change", attempts=1000)
        app.seen.clear()
        memory_tool(home).call({"action": "add", "text": "recorded in the log"})  # MEMORY.md and the log
        await wait_until(pilot, lambda: any(e.log for e in app.seen), "the log change", attempts=1000)
        app.seen.clear()
        saved = home.parent / "saved"
        shutil.copytree(home, saved)
        app.seen.clear()
        shutil.rmtree(home)
        await pilot.pause(1.0)  # the home watcher says HomeMissing at once, then polls every 0.25 s
        assert app.missing == 0  # its files' deletion may be said; the home gone is the notebook screen's to say
        app.seen.clear()
        shutil.copytree(saved, home)  # back: its files are to be read again
        await wait_until(pilot, lambda: any(e.files for e in app.seen), "the home back", attempts=1000)
        assert app.screen.query_one(LiveHome).display is False
