"""Opening the notebook: ``launch`` is what ``persona-notebook [HOME]`` runs."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.app.app import NotebookApp, project_label, tilde  # Textual loads only when the app really opens
from notebook_app.app.view_model.notebook import Notebook
from notebook_app.core.home.signs import may_be_host_home
from notebook_app.core.hostbase.registry import host as registered

if TYPE_CHECKING:
    from notebook_app.app.view_model.notebook import Notebook


def launch(
    home: str | None = None,
    theme: str | None = None,
    *,
    host: str | None = None,
    agent: str | None = None,
    profile: str | None = None,
    openclaw_config: str | None = None,
) -> int:
    """Open the notebook on ``home`` (the demo persona when None and no host is named); return the exit code.

    The home opens as its host has it (:func:`..core.hosts.open_home`, the CLI's one rule): ``host``,
    ``agent`` (OpenClaw), ``profile`` (Hermes) name it, else the host remembered for the folder, else its
    layout's; with no ``home``, a named host's own home.
    """
    gc.set_threshold(*YOUNG_COLLECTIONS)  # before the imports below: they allocate much and free little
    opened = _opened(home, host=host, agent=agent, profile=profile, openclaw_config=openclaw_config)
    if isinstance(opened, int):
        return opened
    path, notebook, demo = opened
    if (refusal := _no_terminal()) is not None:
        print(refusal, file=sys.stderr)
        return 2
    if notebook is not None:
        notebook.start_reading()  # in a thread, while Textual loads below

    label = None
    if demo:
        from notebook_app.app.demo import DEMO_LABEL  # lazy: the demo

        label = f"{DEMO_LABEL} · {tilde(path)}"
    elif notebook is not None and notebook.host_root != path:  # a Claude Code project: its memory is elsewhere
        label = project_label(notebook.opened_as or "", notebook.host_root, path)
    app = NotebookApp(path, theme=theme, home_label=label, notebook=notebook)
    quiet_collector()
    app.run()
    for note in app.exit_notes:  # an editor's unsaved buffer kept as the notebook ended: said once the screen is back
        print(f"persona-notebook: {note}", file=sys.stderr)
    return app.return_code or 0


def _no_terminal() -> str | None:
    """Why the notebook cannot open here, in words: its input or output is no terminal; None when both are.

    Without one, Textual's terminal driver reads an endless end of input (``< /dev/null``) at full speed and
    writes escape codes into a pipe or a file, and the process outlives SIGTERM; a chosen driver
    (``TEXTUAL_DRIVER``: ``serve`` runs each tab so) brings its own input and output.
    """
    if os.environ.get("TEXTUAL_DRIVER") or (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    return (
        "persona-notebook: the notebook needs a terminal, and its input or output is not one; nothing was opened. "
        "Scripts and agents have the CLI (persona-notebook --help lists its verbs) and the MCP server "
        "(persona-notebook mcp HOME); a browser has persona-notebook serve"
    )


def check_home(
    home: str | None = None,
    *,
    host: str | None = None,
    agent: str | None = None,
    profile: str | None = None,
    openclaw_config: str | None = None,
) -> int | None:
    """The exit code :func:`launch` would end with before opening anything, said on stderr; None: it would open.

    ``serve`` asks before it listens, so that a home the app refuses is refused at the command line, not in
    every browser tab.
    """
    opened = _opened(home, host=host, agent=agent, profile=profile, openclaw_config=openclaw_config)
    return opened if isinstance(opened, int) else None


def _opened(
    home: str | None, *, host: str | None, agent: str | None, profile: str | None, openclaw_config: str | None
) -> tuple[Path, Notebook | None, bool] | int:
    """The folder, its notebook (None: no folder there yet) and whether it is the demo; or the exit code, said."""

    named = any(v is not None for v in (host, agent, profile, openclaw_config))
    path: Path | None = None
    if home is None and not named:
        from notebook_app.app.demo import (  # lazy: the demo; importlib.resources: only the demo needs it
            demo_home_dir,
            ensure_demo,
        )

        try:
            path = ensure_demo()  # a reset is the CLI's --reset-demo, which asks first and never opens the app
        except OSError as error:
            print(
                f"persona-notebook: cannot set up the demo persona in {demo_home_dir()}: "
                f"{error.strerror or error}. Make that folder writable (or point "
                "XDG_DATA_HOME at one that is), or open a home: persona-notebook HOME",
                file=sys.stderr,
            )
            return 1
    elif home is not None:
        path = Path(home).expanduser().absolute()
        try:
            found = path.lstat() and path.is_dir()
        except FileNotFoundError:
            found = None
        except OSError as error:  # a parent folder this user may not enter, say
            print(f"persona-notebook: cannot open {home}: {error.strerror or error}", file=sys.stderr)
            return 2
        if found is False:
            print(f"persona-notebook: not a directory: {home}", file=sys.stderr)
            return 2
    notebook = None
    if named or (path is not None and home is not None and path.is_dir() and _may_be_host_home(path)):
        opened = _open_by_host(path, host=host, agent=agent, profile=profile, openclaw_config=openclaw_config)
        if isinstance(opened, int):
            return opened
        path, notebook = opened
    assert path is not None
    if notebook is None and path.is_dir():
        notebook = Notebook(path)
    return path, notebook, home is None and not named


def _may_be_host_home(path: Path) -> bool:

    return may_be_host_home(path)


def _open_by_host(
    path: Path | None,
    *,
    host: str | None = None,
    agent: str | None = None,
    profile: str | None = None,
    openclaw_config: str | None = None,
) -> tuple[Path, Notebook] | int:
    """The folder the notebook works on and a notebook reading it as its host has it (and its host's root); or the
    exit code.

    A Claude Code project's notebook works on its auto-memory folder (where MEMORY.md and our own files are,
    never the project's tree); a Hermes home's ``memories/`` opens the home. A host named only looks, as
    ``soul --host`` does: it is not remembered (only the palette's release choice is, issue 34); what decided
    the host is said in the app when it opens.
    """
    from notebook_app.core.hosts.opening.choose import open_home  # lazy: a host's loader
    from notebook_app.core.hosts.opening.result import Chosen, OpeningError  # lazy: a host's loader

    opening = open_home(path, host=host, agent=agent, profile=profile, openclaw_config=openclaw_config)
    if isinstance(opening, OpeningError):
        print(f"persona-notebook: {opening.message}", file=sys.stderr)
        return opening.exit_code
    if path is not None and opening.root != path:  # said before the app takes the screen, and kept after it
        print(f"persona-notebook: {opening.reason}", file=sys.stderr)
    if registered(opening.host).fallback:
        return opening.root.absolute(), Notebook(opening.root.absolute())
    told = opening.chosen is not Chosen.FALLBACK
    instead = opening.instead("MEMORY.md")  # a host remembered that is not the layout's: the notice says so
    words = (opening.reason, *((instead,) if instead else ()), *opening.notes) if told else ()
    where = opening.entry_home.absolute()
    notebook = Notebook(
        where, files=opening.files, opened_as=opening.spec, opening_words=words, host_root=opening.root.absolute()
    )
    return where, notebook


YOUNG_COLLECTIONS = (10_000, 10, 10)
"""The cycle collector's thresholds while the notebook runs (see :func:`quiet_collector`)."""


def quiet_collector() -> None:
    """Keep the cycle collector off the objects that live as long as the app, and run it less often.

    What the imports made (some 40,000 tracked objects: modules, classes,
    functions) lives until exit; frozen, a full collection no longer walks it
    (full collections took 40-70 ms, now and then in the middle of an add).
    Young collections run every 10,000 allocations instead of 700: a frame
    allocates tens of thousands of short-lived objects, which reference
    counting frees anyway.
    """
    gc.freeze()
    gc.set_threshold(*YOUNG_COLLECTIONS)
