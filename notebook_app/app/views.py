"""The views the notebook opens over its screen, for the app's ``app.…`` keys and the palette.

Each screen's module loads on first use, not at start-up. A view that may have
written (history, review, the doctor's fixes, tidy) hands back to the main
screen, which reads the home again.
"""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.core.hostbase.registry import host as registered

if TYPE_CHECKING:
    from notebook_app.app.app import NotebookApp
    from notebook_app.app.screens.main.screen import MainScreen


def agent_sessions(app: NotebookApp, main: MainScreen) -> None:
    from notebook_app.app.screens.agent_sessions import AgentSessionsScreen  # lazy: the agents' sessions

    notebook = main.notebook
    served = (
        (notebook.opened_as or notebook.files.host) if registered(notebook.files.host).serves_with_profile else None
    )  # as the MCP server serves it
    screen = AgentSessionsScreen(
        notebook.home,
        watch=app.watch_home,
        home_label=app.home_label,
        clock=app.clock,
        files=notebook.files,
        host=served,
    )
    app.push_screen(screen)


def history(app: NotebookApp, main: MainScreen) -> None:
    from notebook_app.app.screens.history import HistoryScreen  # lazy: the write path (the history screen)

    screen = HistoryScreen(main.notebook.home, app.clock, watch=app.watch_home, files=main.notebook.files)
    app.push_screen(screen, lambda _: main.read_again())


def review(app: NotebookApp, main: MainScreen) -> None:
    from notebook_app.app.screens.review.screen import ReviewScreen  # lazy: the write path (the review screen)

    # back from a view that may have written: a read follows, and the doctor's check (the proposal count) after it
    screen = ReviewScreen(main.notebook.home, app.clock, watch=app.watch_home, files=main.notebook.files)
    app.push_screen(screen, lambda _: main.read_again())


def doctor(app: NotebookApp, main: MainScreen) -> None:
    from notebook_app.app.screens.doctor import DoctorScreen  # lazy: the doctor

    app.push_screen(DoctorScreen(main.notebook.home, main.notebook.check), main.back_from_doctor)


def tidy(app: NotebookApp, main: MainScreen) -> None:
    from notebook_app.app.screens.tidy.screen import TidyScreen  # lazy: tidy

    notebook = main.notebook
    screen = TidyScreen(notebook.home, notebook.tidy, notebook.apply_tidy, notebook.tidy_preview, watch=app.watch_home)
    app.push_screen(screen, main.back_from_doctor)  # (file, line) to show, or None; a read follows either way


def injects(app: NotebookApp, main: MainScreen) -> None:
    from notebook_app.app.screens.injects import InjectsScreen  # lazy: a host's loader (the injects screen)

    shown = main.sessions
    app.push_screen(
        InjectsScreen(
            main.notebook.host_root,  # a Claude Code project's root, not its memory folder
            shown.host_spec,
            kind=shown.session_kind,
            home_label=app.home_label,
            standing=shown.standing_words,
            watch=app.watch_home,
        )
    )


def export(app: NotebookApp, main: MainScreen, target: str) -> None:
    """The palette's *Export to: …*: the home in view as ``target``'s home, planned by ``notebook_app.portable``."""
    from notebook_app.app.screens.export.screen import ExportScreen  # lazy: export and import
    from notebook_app.portable.model import Plan, Problem  # lazy: export and import
    from notebook_app.portable.planning import make_plan  # lazy: export and import
    from notebook_app.portable.reading import read_persona  # lazy: export and import
    from notebook_app.portable.writing import apply_plan  # lazy: export and import

    notebook = main.notebook
    source = notebook.host_root  # a Claude Code project's root, not its memory folder
    spec = notebook.files.host or registered(None).id

    def plan_for(destination: str, merge: bool) -> Plan | Problem:
        persona = read_persona(source, spec)  # read again for each plan: the home may have changed since
        return persona if isinstance(persona, Problem) else make_plan(persona, target, destination, merge=merge)

    home = re.compile(rf"(?<![\w./~-]){re.escape(str(Path.home()))}(?=/)")
    shown = partial(home.sub, "~")  # the user's home as ~, where a path begins: 80 columns hold more of a plan

    title = registered(target).title
    suggested = shown(str(source.parent / f"{source.name}-{target}"))
    command = shown(f"persona-notebook export --home {source} --to {target} DEST")
    screen = ExportScreen(title, plan_for, apply_plan, destination=suggested, command=command, shown=shown)
    app.push_screen(screen)
