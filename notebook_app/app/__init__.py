"""The notebook app: ``launch`` is what ``persona-notebook [HOME]`` runs."""

from __future__ import annotations

import gc
import sys
from pathlib import Path


def launch(home: str | None = None, theme: str | None = None) -> int:
    """Open the notebook on ``home`` (the demo persona when None); return the exit code."""
    gc.set_threshold(*YOUNG_COLLECTIONS)  # before the imports below: they allocate much and free little
    from .view_model.notebook import Notebook

    if home is None:
        from .demo import DEMO_LABEL, demo_home_dir, ensure_demo  # importlib.resources: only the demo needs it

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
    else:
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
    if path.is_dir() and home is not None and (path.name == "memories" or (path / "memories").is_dir()):
        # the app opens only a Hermes home by its host (issue 22): a folder no Hermes layout can fit loads no
        # host rules at start (some 30 ms of imports)
        from ..core.hosts import OpeningError, open_home  # which host the home opens as: the CLI's one rule

        opening = open_home(path)
        if isinstance(opening, OpeningError):
            print(f"persona-notebook: {opening.message}", file=sys.stderr)
            return opening.exit_code
        if opening.host == "hermes":  # its files where Hermes keeps them, written in its '§' entries
            if opening.root != path:
                print(f"persona-notebook: {opening.reason}", file=sys.stderr)
            path = opening.root
            notebook = Notebook(path, files=opening.files)
    if notebook is None and path.is_dir():
        notebook = Notebook(path)
        notebook.start_reading()  # in a thread, while Textual loads below
    from .app import NotebookApp, tilde  # Textual loads only when the app really opens

    label = f"{DEMO_LABEL} · {tilde(path)}" if home is None else None
    app = NotebookApp(path, theme=theme, home_label=label, notebook=notebook)
    quiet_collector()
    app.run()
    return app.return_code or 0


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
