"""The history in the notebook: records newest first, a record's diff, undo and restore with a dry run first."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import MEMORY, SIZE, make_app, started, wait_until
from real_git import plain_git

from notebook_app.app.screens.history import HistoryScreen
from notebook_app.core.record.log.actor import CLI
from notebook_app.core.memory.tool import memory_tool


async def open_history(pilot) -> HistoryScreen:
    await pilot.press("h")
    await wait_until(
        pilot, lambda: isinstance(pilot.app.screen, HistoryScreen) and pilot.app.screen.records, "the records"
    )
    return pilot.app.screen


async def test_undo_shows_its_dry_run_and_writes_only_on_y(home: Path) -> None:
    memory_tool(home, by=CLI).call({"action": "add", "text": "from the command line"})
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_history(pilot)
        newest = screen.records[0]
        assert (newest.action, newest.by.kind.value, newest.file) == ("add", "cli", "MEMORY.md")
        detail = screen.query_one("#history-detail")
        await wait_until(pilot, lambda: "+- from the command line" in str(detail.content), "the record's diff")
        await pilot.press("u")
        await wait_until(pilot, lambda: screen.pending is not None, "the undo's dry run")
        assert "y applies it" in str(detail.content)
        assert (home / "MEMORY.md").read_text() == MEMORY + "- from the command line\n"
        await pilot.press("y")
        await wait_until(pilot, lambda: (home / "MEMORY.md").read_text() == MEMORY, "the undo to land")
        await wait_until(pilot, lambda: screen.records and screen.records[0].action == "undo", "the undo recorded")
        assert screen.records[0].by.kind.value == "notebook"


async def test_the_who_filter_keeps_only_that_writer(home: Path) -> None:
    memory_tool(home, by=CLI).call({"action": "add", "text": "by the cli"})
    memory_tool(home).call({"action": "add", "text": "by a script"})
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_history(pilot)
        assert {event.by.kind.value for event in screen.records} >= {"cli", "library"}
        await pilot.press("w", "w")  # all -> notebook -> cli
        await wait_until(
            pilot,
            lambda: screen.by == "cli" and screen.records and all(e.by.kind.value == "cli" for e in screen.records),
            "only the cli's",
        )
        await pilot.press("escape")
        assert not isinstance(app.screen, HistoryScreen)


async def test_b_shows_who_last_wrote_each_line_in_a_gutter(home: Path) -> None:
    from notebook_pilot import file_view

    memory_tool(home, by=CLI).call({"action": "add", "text": "from the command line"})
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        view = file_view(app, "MEMORY.md")
        await pilot.press("b")
        last = len(view.document.lines) - 1
        await wait_until(pilot, lambda: view._notes.get(last) == "cli 12:00:00", "the blame of the new line")
        assert view._notes[0] == "before history"
        await pilot.press("b")
        await wait_until(pilot, lambda: view._note_width == 0, "the gutter gone")


async def test_b_labels_a_recorded_line_with_the_apps_own_clock_and_reads_no_widget_off_the_event_loop(
    home: Path, monkeypatch
) -> None:
    """The real clock takes a datetime; the worker that computes
    the labels gets plain data and never queries a widget."""
    import threading

    from notebook_pilot import file_view
    from textual.dom import DOMNode
    from textual.widgets import Static

    from notebook_app.app.app import NotebookApp
    from notebook_app.app.themes import shipped_themes_dir
    from notebook_app.core.history.query import history
    from notebook_app.core.text.times import clock_time

    memory_tool(home, by=CLI).call({"action": "add", "text": "from the command line"})
    (record,) = history(home, limit=1)
    queried_from: set[str] = set()
    query_one = DOMNode.query_one

    def watched_query_one(self, *args, **kwargs):
        queried_from.add(threading.current_thread().name)
        return query_one(self, *args, **kwargs)

    monkeypatch.setattr(DOMNode, "query_one", watched_query_one)
    app = NotebookApp(home, theme="dark", watch=False, home_label="test home", theme_dirs=[shipped_themes_dir()])
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        view = file_view(app, "MEMORY.md")
        queried_from.clear()
        await pilot.press("b")
        last = len(view.document.lines) - 1
        banner = app.screen.query_one("#home-banner", Static)
        await wait_until(pilot, lambda: view._notes.get(last) or banner.has_class("-shown"), "the blame, or a failure")
        assert not banner.has_class("-shown"), str(banner.content)
        assert view._notes[last] == f"cli {clock_time(record.time)}"
        assert queried_from == {threading.main_thread().name}


async def test_a_blame_that_fails_says_so_turns_the_gutter_off_and_the_next_read_clears_the_banner(
    home: Path, monkeypatch
) -> None:
    from notebook_pilot import file_view
    from textual.widgets import Static

    import notebook_app.core.history as core_history  # the face the app asks for blame

    def broken(home, name, **_):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(core_history, "blame", broken)
    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        banner = app.screen.query_one("#home-banner", Static)
        await pilot.press("b")
        await wait_until(pilot, lambda: banner.has_class("-shown"), "the failure in the banner")
        assert str(banner.content) == "⚠ Could not show who wrote each line: Input/output error. b tries again."
        assert file_view(app, "MEMORY.md")._note_width == 0
        (home / "USER.md").write_text("- name is Priya\n")  # the next read of the home
        await wait_until(pilot, lambda: not banner.has_class("-shown"), "the banner cleared by the read")
        await pilot.pause(0.3)
        assert not banner.has_class("-shown")


async def test_the_open_history_shows_an_undo_made_from_the_cli_and_u_names_it_from_the_list(
    home: Path, tmp_path: Path
) -> None:
    import subprocess
    import sys

    memory_tool(home, by=CLI).call({"action": "add", "text": "from the command line"})
    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_history(pilot)
        added = screen.records[0]
        env = {"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
        done = subprocess.run(
            [sys.executable, "-m", "notebook_app", "undo", added.id, "--home", str(home)],
            capture_output=True,
            text=True,
            env={**__import__("os").environ, **env},
        )
        assert done.returncode == 0, done.stderr
        await wait_until(
            pilot, lambda: screen.records and screen.records[0].action == "undo", "the CLI's undo in the open list"
        )
        undone_by = screen.records[0]
        assert (
            screen.selected is not None and screen.selected.id == added.id
        )  # the selection stays on the record it was on
        await pilot.press("u")
        detail = screen.query_one("#history-detail")
        await wait_until(pilot, lambda: "undone by" in str(detail.content), "the undo's refusal")
        assert f"it was undone by {undone_by.id}" in str(detail.content)
        assert undone_by.id in {event.id for event in screen.records}


async def test_a_long_action_keeps_a_space_before_the_file_and_an_approval_names_its_approver_once(home: Path) -> None:
    from notebook_app.core.memory.edits.guarded_splice import delete_entry
    from notebook_app.core.record.log.actor import Actor
    from notebook_app.core.memory.review.decisions import approve, pending, propose

    agent = Actor.mcp("20261201-101010-0badc0de", "kip-host", "4.5.6")
    assert not delete_entry(home, "MEMORY.md", 1, MEMORY.splitlines()[0], by=CLI).is_error
    assert not propose(home, {"action": "add", "text": "queued by the agent"}, by=agent).is_error
    [proposal] = pending(home)
    assert approve(home, proposal.id, by=CLI).done
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_history(pilot)
        prompts = {
            event.action: str(screen.query_one("OptionList").get_option(event.id).prompt) for event in screen.records
        }
        assert "entry-delete  MEMORY.md" in prompts["entry-delete"], prompts["entry-delete"]
        approved = next(event for event in screen.records if event.action == "approved")
        screen.query_one("OptionList").highlighted = screen.records.index(approved)
        detail = screen.query_one("#history-detail")
        await wait_until(pilot, lambda: approved.id in str(detail.content), "the approval's detail")
        head = str(detail.content).splitlines()[0]
        assert head.count("approved") == 2 and " · approved · mcp:kip-host 4.5.6 approved by cli · " in head, head


async def test_a_records_diff_arriving_after_u_does_not_replace_the_dry_run(home: Path, monkeypatch) -> None:
    """The diff of the selected record is read in a worker; ``u`` pressed before it lands shows the dry run, and the
    late diff must not paint over it (the race CI met when the CLI's undo refreshed the list just before ``u``)."""
    import threading

    from notebook_app.app.screens import history as history_screen

    memory_tool(home, by=CLI).call({"action": "add", "text": "from the command line"})
    release = threading.Event()
    slow = history_screen.record_diff

    def late_diff(*args, **kwargs):
        release.wait(5)
        return slow(*args, **kwargs)

    monkeypatch.setattr(history_screen, "record_diff", late_diff)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_history(pilot)
        await pilot.press("u")
        await wait_until(pilot, lambda: screen.pending is not None, "the undo's dry run")
        detail = screen.query_one("#history-detail")
        release.set()
        await pilot.pause(0.3)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "y applies it" in str(detail.content)
        assert screen.pending is not None


async def test_with_git_on_each_write_shows_its_commit(home: Path, tmp_path: Path, monkeypatch) -> None:
    import subprocess

    from notebook_app.core.record.git.mode import git_on

    plain_git(monkeypatch, tmp_path)
    assert not git_on(home, by=CLI, add_ignore=True).is_error
    memory_tool(home, by=CLI).call({"action": "add", "text": "committed"})
    commit = subprocess.run(["git", "-C", str(home), "log", "-1", "--format=%h"], capture_output=True, text=True)
    short = commit.stdout.strip()
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_history(pilot)
        newest = screen.records[0]
        await wait_until(pilot, lambda: screen.commits.get(newest.id) == short, "the write's commit")
        listing = screen.query_one("#history-records")
        assert short in str(listing.get_option_at_index(0).prompt)
        detail = screen.query_one("#history-detail")
        await wait_until(pilot, lambda: f"git commit {short}" in str(detail.content), "the commit in the detail")
        setting = screen.records[1]
        assert setting.action == "setting" and setting.id not in screen.commits  # git on itself commits nothing
