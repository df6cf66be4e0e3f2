"""Helpers shared by the app tests: the pinned app, polling, a standard home."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from notebook_app.app.app import NotebookApp
from notebook_app.app.screens.main.edits import EditorLauncher
from notebook_app.app.themes import shipped_themes_dir

SIZE = (120, 40)

SOUL = "I am Wren: curious, plain-spoken, careful with claims.\n"
USER = "- name is Priya\n- prefers metric units\n"
MEMORY = "# Notes\n\n- timezone: UTC\n- likes tide tables\n- drafts go out on Fridays\n"


def make_app(
    home: Path, *, watch: bool = False, theme: str = "dark", run_editor: EditorLauncher | None = None
) -> NotebookApp:
    """The app with its path, clock and themes pinned, so screens are reproducible; ``run_editor`` stands in for
    $EDITOR.
    """
    return NotebookApp(
        home,
        theme=theme,
        watch=watch,
        run_editor=run_editor,
        home_label="test home",
        clock=lambda _: "12:00:00",
        theme_dirs=[shipped_themes_dir()],
    )


WAIT = 30.0
"""Seconds a wait gives its condition at least: a wait is no timing assertion, and a busy 2-core machine is slow."""


async def wait_until(
    pilot: Pilot, condition: Callable[[], object], what: str, attempts: int = 500, within: float = WAIT
) -> None:
    """Poll ``condition`` between rounds of message processing; fail once ``attempts`` polls and ``within`` seconds
    have both passed (500 polls alone were about 5 s, which a loaded machine's worker could miss)."""
    deadline = time.monotonic() + within
    polls = 0
    while not condition():
        if polls >= attempts and time.monotonic() >= deadline:
            raise AssertionError(f"timed out waiting for: {what}")
        polls += 1
        await pilot.pause(0.01)


async def started(pilot: Pilot) -> None:
    """Wait until the first state of the home is on screen."""
    await wait_until(pilot, lambda: getattr(pilot.app.screen, "state", None) is not None, "the home to load")
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False


def file_view(app, name: str = "MEMORY.md"):
    """The Home column's view of ``name`` (its entry pane, or the document pane showing it)."""
    from notebook_app.app.widgets.home.home_pane import HomePane

    return app.screen.query_one(HomePane).pane(name).view


def summary_of(app, name: str = "MEMORY.md") -> str:
    """What the Home column says about ``name``: size against the cap, and any problem."""
    from notebook_app.app.widgets.home.file_summary import FileSummary
    from notebook_app.app.widgets.home.home_pane import HomePane

    return str(app.screen.query_one(HomePane).pane(name).query_one(FileSummary).content)


async def settled(pilot: Pilot) -> None:
    """Started, and the doctor's first verdict is on the health line: what a snapshot should show."""
    await started(pilot)
    from notebook_app.app.widgets.common.status_line import StatusLine

    status = pilot.app.screen.query_one(StatusLine)
    await wait_until(pilot, lambda: "not looked yet" not in str(status.content), "the doctor's first verdict")
    await pilot.pause()


KELP_ENTRY = "- the curator keeps tide tables and kelp survey notes, entry {n:05d}\n"
"""One line of :func:`two_mebibyte_home`'s MEMORY.md: ``kelp survey`` at column 36, the number at its end."""


def two_mebibyte_home(home: Path) -> int:
    """Make ``home`` with a MEMORY.md of numbered entries just under 2 MiB (the cap) and a SOUL.md; how many entries."""
    home.mkdir()
    lines, size, n = [], 0, 0
    while size < 2 * 1024 * 1024 - 200:
        line = KELP_ENTRY.format(n=n)
        lines.append(line)
        size += len(line)
        n += 1
    (home / "MEMORY.md").write_text("".join(lines))
    (home / "SOUL.md").write_text("# Wren\n")
    return n


async def open_doctor(pilot: Pilot):  # type: ignore[no-untyped-def]
    """``!`` from the notebook, then the doctor view once its first report is in: the view a test then drives."""
    from notebook_app.app.screens.doctor import DoctorScreen

    app = pilot.app
    await pilot.press("exclamation_mark")
    await wait_until(
        pilot, lambda: isinstance(app.screen, DoctorScreen) and app.screen.report is not None, "the doctor view"
    )
    return app.screen
