"""The shell around the notebook: help, the command palette, bindings, opening a home."""

from __future__ import annotations

import inspect
import os
from pathlib import Path

from notebook_pilot import SIZE, make_app, started, wait_until
from textual.binding import Binding

from notebook_app.app.app import NotebookApp
from notebook_app.app.keys import ALL_KEYS, KEY_GROUPS, NOTEBOOK_KEYS
from notebook_app.app.launch import launch
from notebook_app.app.screens.create_home import CreateHomeScreen
from notebook_app.app.screens.help import HelpScreen
from notebook_app.app.screens.main.screen import MainScreen
from notebook_app.app.view_model.notebook import Notebook
from notebook_app.app.widgets.home.entry_view import EntryView


async def test_question_mark_opens_help_with_every_key(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        shown = [str(label.content) for label in app.screen.query(".help-key")]
        everywhere, *views = KEY_GROUPS
        assert shown == [k.display for k in everywhere.keys] + ["ctrl+p"] + [k.display for g in views for k in g.keys]
        headings = [str(h.content) for h in app.screen.query(".help-heading")]
        assert headings == [g.title for g in KEY_GROUPS] + ["How sessions work"]
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_every_action_is_in_the_command_palette(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        names = {command.title for command in app.get_system_commands(app.screen)}
        assert {k.command for k in NOTEBOOK_KEYS if k.command} <= names
        assert {"Help", "Quit", "Theme"} <= names
        await pilot.press("ctrl+p", *"Start the next session")
        await wait_until(pilot, lambda: any(c.option_count for c in app.screen.query("CommandList")), "palette results")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen.state.current.number == 2, "session 2 from the palette")


def test_every_binding_we_declare_has_a_unique_id() -> None:
    from notebook_app.app.screens.agent_sessions import AgentSessionsScreen
    from notebook_app.app.screens.conflict import ConflictScreen
    from notebook_app.app.screens.doctor import DoctorScreen
    from notebook_app.app.screens.editor.screen import EditorScreen
    from notebook_app.app.screens.export.screen import ExportScreen
    from notebook_app.app.screens.history import HistoryScreen
    from notebook_app.app.screens.injects import InjectsScreen
    from notebook_app.app.screens.panes import PaneScreen
    from notebook_app.app.screens.review.screen import ReviewScreen
    from notebook_app.app.screens.tidy.screen import TidyScreen
    from notebook_app.app.widgets.find.find_bar import FindBar

    classes = (
        NotebookApp,
        PaneScreen,
        MainScreen,
        AgentSessionsScreen,
        DoctorScreen,
        TidyScreen,
        ExportScreen,
        HistoryScreen,
        InjectsScreen,
        ReviewScreen,
        EditorScreen,
        ConflictScreen,
        HelpScreen,
        CreateHomeScreen,
        EntryView,
        FindBar,
    )
    declared = [b for cls in classes for b in cls.__dict__.get("BINDINGS", [])]
    assert {b.id for b in declared} >= {k.id for k in ALL_KEYS}
    assert all(isinstance(b, Binding) and b.id for b in declared)
    assert len({b.id for b in declared}) == len(declared)


async def test_q_quits(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running, "the app to quit")


async def test_a_missing_home_is_offered_not_made(tmp_path: Path) -> None:
    missing = tmp_path / "new-home"
    app = make_app(missing)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, CreateHomeScreen), "the question")
        assert not missing.exists()
        await pilot.press("y")
        await wait_until(pilot, lambda: getattr(app.screen, "state", None) is not None, "the new home open")
        assert missing.is_dir()
        assert app.screen.state.preview.found == []


async def test_declining_to_create_quits_with_code_1(tmp_path: Path) -> None:
    missing = tmp_path / "never"
    app = make_app(missing)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, CreateHomeScreen), "the question")
        await pilot.press("n")
        await wait_until(pilot, lambda: not app.is_running, "the app to quit")
    assert app.return_code == 1
    assert not missing.exists()


def test_launch_refuses_a_file_as_home(tmp_path: Path, capsys) -> None:
    not_a_dir = tmp_path / "file.md"
    not_a_dir.write_text("x")
    assert launch(home=str(not_a_dir)) == 2
    assert "not a directory" in capsys.readouterr().err


def test_without_a_terminal_the_notebook_says_so_and_ends_instead_of_spinning(home: Path) -> None:
    """A real process with its input at an end (``< /dev/null``) and its output a pipe: refused at once, in words,
    with nothing written; before, it read the end of input at full speed and outlived SIGTERM."""
    import subprocess
    import sys

    before = sorted(path.name for path in home.iterdir())
    done = subprocess.run(
        [sys.executable, "-m", "notebook_app", str(home)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env={key: value for key, value in os.environ.items() if key != "TEXTUAL_DRIVER"},
    )
    assert done.returncode == 2
    assert done.stderr.startswith("persona-notebook: the notebook needs a terminal")
    assert done.stdout == ""
    assert sorted(path.name for path in home.iterdir()) == before


def test_reset_demo_needs_the_demo(tmp_path: Path, capsys) -> None:
    from notebook_app.cli.main import main

    assert main([str(tmp_path), "--reset-demo"]) == 2
    assert "--reset-demo" in capsys.readouterr().err


async def test_an_unknown_theme_is_reported_and_the_default_used(home: Path) -> None:
    app = make_app(home, theme="no-such-theme")
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert app.theme == "dark"
        messages = [n.message for n in app._notifications]
        assert any(m.startswith("unknown theme 'no-such-theme'; using dark.") for m in messages)


async def test_the_palette_switches_theme_live(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        before = app.screen.query_one("#home").styles.background
        app.theme = "light"
        await pilot.pause()
        assert app.screen.query_one("#home").styles.background != before


def test_the_app_module_stays_small() -> None:
    source = Path(NotebookApp.__module__.replace(".", "/") + ".py")
    assert len((Path(__file__).parents[2] / source).read_text().splitlines()) < 300


async def test_the_read_started_before_the_app_is_the_one_it_shows(home: Path) -> None:
    notebook = Notebook(home)
    notebook.start_reading()
    app = NotebookApp(home, watch=False, home_label="test home", notebook=notebook)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.screen.state is not None and app.screen.state.seq == 1  # not read a second time
        assert "MEMORY.md" in app.screen.state.files


def test_times_say_the_date_when_it_is_not_today_and_always_their_offset() -> None:
    from datetime import UTC, datetime, timedelta

    from notebook_app.app.app import NotebookApp
    from notebook_app.core.text.times import clock_time, offset

    assert inspect.signature(NotebookApp).parameters["clock"].default is clock_time  # the core's one rule
    now = datetime(2026, 11, 30, 15, 0, tzinfo=UTC)
    zone = offset((now - timedelta(minutes=5)).astimezone())
    assert clock_time(now - timedelta(minutes=5), now) == (now - timedelta(minutes=5)).astimezone().strftime(
        f"%H:%M:%S {zone}"
    )
    last_week = now - timedelta(days=7)
    assert clock_time(last_week, now) == last_week.astimezone().strftime(
        f"%Y-%m-%d %H:%M {offset(last_week.astimezone())}"
    )


async def test_the_current_sessions_head_says_its_time_by_the_one_rule_with_its_offset(home: Path) -> None:
    """The app as launched (no pinned clock): Current's head says when the session began as every other time is said,
    local with its offset (core/text/times.py), the same words clock_time gives for that moment."""
    from textual.widgets import Label

    from notebook_app.app.widgets.session.session_pane import SessionPane
    from notebook_app.core.text.times import clock_time

    app = NotebookApp(home, watch=False, home_label="test home")
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        head = app.screen.query_one("#current", SessionPane).query_one(".session-meta", Label)
        began = app.screen.state.current.taken_at
        assert str(head.render()) == f"#{app.screen.state.current.number} · began {clock_time(began)}"
