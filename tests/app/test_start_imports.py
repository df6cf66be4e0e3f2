"""Opening a home loads only the read half of the core: the write path loads with the first write.

Each module is work before the first frame (about a third of the start was
imports); the write path (recording, the event log, the journal's writer
slots, the memory tool, hand edits and their merge) is not needed to show a
home, which opening never writes to.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

WRITE_PATH = (
    "notebook_app.core.record.storage",
    "notebook_app.core.record.recording",
    "notebook_app.core.record.writes",
    "notebook_app.core.record.recovery",
    "notebook_app.core.record.journal",
    "notebook_app.core.record.log.store",
    "notebook_app.core.record.log.ids",
    "notebook_app.core.record.log.events",
    "notebook_app.core.record.log.append_record",
    "notebook_app.core.record.log.replay",
    "notebook_app.core.record.log.snapshots",
    "notebook_app.core.record.side_events",
    "notebook_app.core.memory.tool",
    "notebook_app.core.memory.edits.guarded_splice",
    "notebook_app.core.memory.edits.hand_edit",
    "notebook_app.core.text.merge",
)

WRITE_PACKAGES = (
    "notebook_app.core.record",
    "notebook_app.core.memory",
    "notebook_app.core.history",
    "notebook_app.core.guard",
    "notebook_app.core.doctor",
)
"""The packages of writing and of what is written (docs/architecture.md); any new module of theirs counts too."""

SHARED = (
    "notebook_app.core.record.log.actor",
    "notebook_app.core.record.log.event_action",
    "notebook_app.core.memory.dialect",
    "notebook_app.core.memory.results",
    "notebook_app.core.memory.edits.entry_plan",
    "notebook_app.core.record.notes",
)
"""All the first frame needs of those packages: who writes (the dry run's actor), the actions' words, the entry
dialect and the entry plans of the dry run, the words a result is said in, what a failed git commit said (asked
only of a write path already loaded). Pure, no I/O."""

SHARED_PACKAGES = tuple(sorted({name.rsplit(".", 1)[0] for name in SHARED} - set(WRITE_PACKAGES)))
"""The subpackages those modules sit in (``record.log``, ``memory.edits``): docstrings only, loading nothing."""

FIRST_USE = ("notebook_app.core.memory.plan", "notebook_app.core.home.search", "notebook_app.app.demo")
"""Not the write path, nor needed to show a home: the tool's planner loads with the first dry run, the
matcher with the first search, the demo when it is opened."""

DEMO = Path(__file__).resolve().parents[2] / "notebook_app" / "demo_home"

# `persona-notebook HOME` as the command runs it (cli.main), headless at 120x40; at the
# first frame that shows the home, print the modules loaded by then and leave.
PROBE = """
import json, sys
from textual.app import App
from notebook_app.app.app import NotebookApp
from notebook_app.cli.main import main

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
    # headless: a driver chosen, as serve's tabs choose theirs (with no terminal the notebook would not open)
    env = {**os.environ, "TEXTUAL_DRIVER": "textual.drivers.headless_driver:HeadlessDriver"}
    out = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    modules = json.loads(out.stdout.strip().splitlines()[-1])
    assert modules is not None, "the home never reached the screen"
    return modules


def test_the_write_path_names_real_modules() -> None:
    """Renamed or removed, a name here would make the start check pass for nothing."""
    names = (*WRITE_PATH, *WRITE_PACKAGES, *SHARED, *FIRST_USE)
    assert [name for name in names if importlib.util.find_spec(name) is None] == []


def test_opening_a_home_loads_none_of_the_write_path_before_the_first_frame(tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(DEMO, home)
    loaded = modules_at_first_frame(str(home))
    assert (
        "notebook_app.core.home.reading" in loaded and "notebook_app.app.screens.main.screen" in loaded
    )  # the probe saw the start
    assert [name for name in WRITE_PATH if name in loaded] == []
    inside = [name for name in loaded if name.startswith(tuple(f"{package}." for package in WRITE_PACKAGES))]
    assert [name for name in inside if name not in (*SHARED, *SHARED_PACKAGES)] == []
    assert [name for name in FIRST_USE if name in loaded] == []


HOST_FACTS = ("notebook_app.core.hostbase.", "notebook_app.core.hosts.toolnexus.python")
"""What a plain home's start may load of the hosts: the Host objects the registry imports (each package's
``host.py``, OpenClaw's session kinds, Hermes's rules file) and toolnexus (Python)'s one check; never a loader."""


def test_opening_a_plain_home_loads_the_host_objects_but_no_host_loader(tmp_path: Path) -> None:
    """The registry is a measured lazy edge (issue 35): asking a host its facts imports its ``host.py``, never the
    loader its goldens prove, which loads with the first load as that host."""
    home = tmp_path / "home"
    shutil.copytree(DEMO, home)
    loaded = modules_at_first_frame(str(home))
    hosts = [name for name in loaded if name.startswith("notebook_app.core.host")]
    assert "notebook_app.core.hostbase.registry" in hosts  # the probe saw the registry asked
    allowed = [
        name
        for name in hosts
        if name.startswith(HOST_FACTS)
        or name.endswith((".host", ".kinds", ".rules", ".names"))  # its object and the facts it is made of
        or f"{name}.host" in hosts  # a host package, whose host.py is loaded
        or name == "notebook_app.core.hosts"
    ]
    assert [name for name in hosts if name not in allowed] == []


def test_a_write_from_the_notebook_loads_the_write_path(tmp_path: Path) -> None:
    """The other side: the names above are what a write needs, so the check above is about the write path."""
    home = tmp_path / "home"
    shutil.copytree(DEMO, home)
    code = (
        "import sys\nfrom pathlib import Path\nfrom notebook_app.app.view_model.notebook import Notebook\n"
        f"notebook = Notebook(Path({str(home)!r}))\nnotebook.refresh()\n"
        "result, _ = notebook.write({'action': 'add', 'target': 'self', 'text': 'probe entry'})\n"
        "assert not result.is_error, result.output\n"
        f"print(','.join(name for name in {WRITE_PATH!r} if name not in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == ",".join(
        (
            "notebook_app.core.memory.edits.guarded_splice",
            "notebook_app.core.memory.edits.hand_edit",
            "notebook_app.core.text.merge",
        )
    )


def test_opening_a_home_that_holds_a_secret_loads_no_scanner_before_the_first_frame(tmp_path: Path) -> None:
    """The secret finder and detect-secrets load with the doctor's first look at a key-like line, never with the
    start: a home holding a key shows without either (issue 34: a second scanner would be held to this too)."""
    from secret_corpus import corpus

    home = tmp_path / "home"
    shutil.copytree(DEMO, home)
    with open(home / "MEMORY.md", "a", encoding="utf-8") as memory:
        memory.write("".join(f"- {case.text}\n" for case in corpus()[:12]))
    loaded = modules_at_first_frame(str(home))
    assert "notebook_app.app.screens.main.screen" in loaded  # the probe saw the start
    scanners = ("detect_secrets", "notebook_app.core.text.secrets", "notebook_app.core.doctor.rules.secrets")
    assert [name for name in loaded if name.startswith(scanners)] == []
