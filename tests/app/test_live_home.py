"""Other writers: changes made by separate processes reach Next, never Current.

These run with the watcher on and write through real separate processes (the
CLI, or plain Python), the way an agent or an editor would.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from notebook_pilot import MEMORY, SIZE, file_view, make_app, started, wait_until
from textual.worker import Worker, WorkerState

from notebook_app.app.widgets.home.file_list import FileList
from notebook_app.app.widgets.session.session_pane import SessionPane


def cli(home: Path, *args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "notebook_app", "memory", *args, "--home", str(home)], check=True, capture_output=True
    )


def lines_of(app, pane: str) -> list[str]:
    return list(app.screen.query_one(pane, SessionPane).document.lines)


async def watching(pilot) -> None:
    """Wait until the watcher's worker is running, so no external write is missed."""
    await started(pilot)
    await wait_until(
        pilot, lambda: any(w.group == "watch" and w.is_running for w in pilot.app.screen.workers), "the watcher"
    )


async def test_an_external_write_shows_in_next_but_not_in_current(home: Path) -> None:
    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await watching(pilot)
        cli(home, "add", "written by an agent")
        await wait_until(pilot, lambda: "- written by an agent" in lines_of(app, "#next"), "the agent's entry in Next")
        assert "- written by an agent" not in lines_of(app, "#current")
        assert str(app.screen.query_one("#next .badge").content) == "+1 line"
        view = file_view(app)
        assert "- written by an agent" in view.document.lines


async def test_a_write_made_before_the_watch_was_set_up_still_shows(home: Path, monkeypatch) -> None:
    """The watch starts after the first read: a write landing in between has
    no event, so the watch looks once itself.
    """
    from notebook_app.app.screens.main.watch import HomeWatch

    start_watch = HomeWatch._watch

    def write_then_watch(watch: HomeWatch) -> None:
        subprocess.run(
            [sys.executable, "-c", f"open({str(home / 'MEMORY.md')!r}, 'a').write('- slipped in before the watch\\n')"],
            check=True,
        )
        start_watch(watch)

    monkeypatch.setattr(HomeWatch, "_watch", write_then_watch)
    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await watching(pilot)
        await wait_until(
            pilot,
            lambda: "- slipped in before the watch" in lines_of(app, "#next"),
            "the early write in Next",
            attempts=1000,
        )
        assert "- slipped in before the watch" not in lines_of(app, "#current")


async def test_the_apps_own_write_does_not_trigger_a_second_read(home: Path) -> None:
    reads: list[Worker] = []

    def count_reads(message: object) -> None:
        """A finished "home" worker is one read of the home."""
        if (
            isinstance(message, Worker.StateChanged)
            and message.worker.group == "home"
            and message.state == WorkerState.SUCCESS
        ):
            reads.append(message.worker)

    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE, message_hook=count_reads) as pilot:
        await watching(pilot)
        assert len(reads) == 1
        await pilot.press("a", *"mine", "enter")
        await wait_until(pilot, lambda: "- mine" in lines_of(app, "#next"), "our own entry in Next")
        # A later outside write to another file: the watcher reports events in
        # order, so once this one is on screen ours has been seen and judged.
        (home / "SOUL.md").write_text("A new soul line.\n")
        await wait_until(pilot, lambda: "A new soul line." in lines_of(app, "#next"), "the outside write in Next")
        await wait_until(pilot, lambda: len(reads) >= 2, "the outside write's read to finish")
        await pilot.pause(0.2)
        assert len(reads) == 2


async def test_a_file_deleted_outside_is_shown_absent(home: Path) -> None:
    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await watching(pilot)
        subprocess.run([sys.executable, "-c", f"import os; os.remove({str(home / 'USER.md')!r})"], check=True)
        await wait_until(pilot, lambda: "## USER.md" not in lines_of(app, "#next"), "USER.md gone from Next")
        assert "## USER.md" in lines_of(app, "#current")
        assert (
            app.screen.query_one("#current", SessionPane).document.marks[lines_of(app, "#current").index("## USER.md")]
            == "removed"
        )
        prompt = app.screen.query_one(FileList).get_option("USER.md").prompt
        assert "absent" in str(prompt)


async def test_the_home_vanishing_gives_a_message_not_a_crash(home: Path) -> None:
    """Removed, then made again by someone: the new folder is not the home opened (spec §9), so the banner stays."""
    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await watching(pilot)
        shutil.rmtree(home)
        banner = app.screen.query_one("#home-banner")
        await wait_until(pilot, lambda: banner.has_class("-shown"), "the missing-home banner")
        assert "The home at test home was moved or removed since it was opened" in str(banner.content)
        await pilot.press("a", *"lost", "enter")
        assert app.screen.form.status == (
            "error",
            f"the home at {home} was moved or removed since it was opened; nothing was written",
        )
        assert not home.exists()
        await pilot.press("escape")
        home.mkdir()
        (home / "MEMORY.md").write_text(MEMORY)
        await pilot.press(
            "a", *"into the new folder", "enter"
        )  # a folder of the same name is not the home that was opened
        assert app.screen.form.status == (
            "error",
            f"the home at {home} was moved or removed since it was opened; nothing was written",
        )
        assert (home / "MEMORY.md").read_text() == MEMORY
        assert banner.has_class("-shown")
        assert "- timezone: UTC" in lines_of(app, "#next")  # the last state read, still shown
        assert app.is_running


async def test_a_watcher_that_fails_is_reported(home: Path, monkeypatch) -> None:
    async def broken(*args, **kwargs):
        raise OSError("inotify watch limit reached")
        yield

    monkeypatch.setattr("notebook_app.app.watchers.home.awatch", broken)
    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        expected = "Stopped watching the home for other writers: inotify watch limit reached"
        await wait_until(pilot, lambda: expected in [n.message for n in app._notifications], "the watcher's failure")
        assert app.is_running
