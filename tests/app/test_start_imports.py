"""Opening a home loads only the read half of the core: the write path loads with the first write.

Each module is work before the first frame (about a third of the start was
imports); the write path (recording, the event log, the journal's writer
slots, the memory tool, hand edits and their merge) is not needed to show a
home, which opening never writes to.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

WRITE_PATH = (
    "notebook_app.core.storage",
    "notebook_app.core.recording",
    "notebook_app.core.writes",
    "notebook_app.core.recovery",
    "notebook_app.core.journal",
    "notebook_app.core.event_store",
    "notebook_app.core.event_ids",
    "notebook_app.core.events",
    "notebook_app.core.append_record",
    "notebook_app.core.replay",
    "notebook_app.core.snapshots",
    "notebook_app.core.side_events",
    "notebook_app.core.memory",
    "notebook_app.core.splice",
    "notebook_app.core.hand_edit",
    "notebook_app.core.merge",
)

FIRST_USE = ("notebook_app.core.actions", "notebook_app.core.find", "notebook_app.app.demo")
"""Not the write path, nor needed to show a home: the tool's planner loads with the first dry run, the
matcher with the first search, the demo when it is opened."""

DEMO = Path(__file__).resolve().parents[2] / "notebook_app" / "demo_home"

# `persona-notebook HOME` as the command runs it (cli.main), headless at 120x40; at the
# first frame that shows the home, print the modules loaded by then and leave.
PROBE = """
import json, sys
from textual.app import App
from notebook_app.app.app import NotebookApp
from notebook_app.cli import main

seen = []

def display(self, screen, update):
    App._display(self, screen, update)
    if not seen and getattr(screen, "state", None) is not None:
        seen.append(sorted(sys.modules))
        self.exit()

run = NotebookApp.run
NotebookApp._display = display
NotebookApp.run = lambda self, **_: run(self, headless=True, size=(120, 40))
main(sys.argv[1:])
print(json.dumps(seen[0] if seen else None))
"""


def modules_at_first_frame(*argv: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    modules = json.loads(out.stdout.strip().splitlines()[-1])
    assert modules is not None, "the home never reached the screen"
    return modules


def test_the_write_path_names_real_modules() -> None:
    """Renamed or removed, a name here would make the start check pass for nothing."""
    assert [name for name in (*WRITE_PATH, *FIRST_USE) if importlib.util.find_spec(name) is None] == []


def test_opening_a_home_loads_none_of_the_write_path_before_the_first_frame(tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(DEMO, home)
    loaded = modules_at_first_frame(str(home))
    assert "notebook_app.core.reading" in loaded and "notebook_app.app.screens.main" in loaded  # the probe saw the start
    assert [name for name in WRITE_PATH if name in loaded] == []
    assert [name for name in FIRST_USE if name in loaded] == []


def test_a_write_from_the_notebook_loads_the_write_path(tmp_path: Path) -> None:
    """The other side: the names above are what a write needs, so the check above is about the write path."""
    home = tmp_path / "home"
    shutil.copytree(DEMO, home)
    code = (
        "import sys\nfrom pathlib import Path\nfrom notebook_app.app.model import Notebook\n"
        f"notebook = Notebook(Path({str(home)!r}))\nnotebook.refresh()\n"
        "result, _ = notebook.write({'action': 'add', 'target': 'self', 'text': 'probe entry'})\n"
        "assert not result.is_error, result.output\n"
        f"print(','.join(name for name in {WRITE_PATH!r} if name not in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "notebook_app.core.splice,notebook_app.core.hand_edit,notebook_app.core.merge"
