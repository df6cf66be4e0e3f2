"""``--reset-demo`` says what goes, asks (or takes ``--yes``), resets and exits; it never opens the app.

Real processes: with stdin not a terminal, a pipe; for the question, a real pty.
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest
from terminal import Terminal

from notebook_app.core.record.log.actor import CLI
from notebook_app.core.memory.tool import memory_tool

REPO = Path(__file__).resolve().parents[2]


def shipped() -> dict[str, bytes]:
    return {e.name: e.read_bytes() for e in (files("notebook_app") / "demo_home").iterdir() if e.name.endswith(".md")}


def contents(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    return {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "PYTHONPATH": path,
    }


@pytest.fixture
def used_demo(env: dict[str, str]) -> Path:
    """The demo as a person left it: one add (so a history of one record) and a file of their own."""
    demo = Path(env["XDG_DATA_HOME"]) / "persona-notebook" / "demo"
    demo.mkdir(parents=True)
    for name, data in shipped().items():
        (demo / name).write_bytes(data)
    assert not memory_tool(demo, by=CLI).call({"action": "add", "text": "kept from last time"}).is_error
    (demo / "NOTES.md").write_text("mine\n")
    return demo


def reset(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "notebook_app", "--reset-demo", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_with_no_terminal_and_no_yes_it_exits_two_and_changes_nothing(env: dict[str, str], used_demo: Path) -> None:
    before = contents(used_demo)
    out = reset(env)
    assert out.returncode == 2
    assert out.stderr == (
        "persona-notebook: --reset-demo asks before it removes anything: run it in a terminal, or add --yes; "
        "nothing was changed\n"
    )
    assert "MEMORY.md: changed since it was shipped" in out.stdout
    assert contents(used_demo) == before


def test_yes_says_what_went_resets_and_exits_without_opening_the_app(env: dict[str, str], used_demo: Path) -> None:
    out = reset(env, "--yes")
    assert (out.returncode, out.stderr) == (0, "")
    assert out.stdout == (
        f"Resetting the demo persona in {used_demo} removes:\n"
        "  MEMORY.md: changed since it was shipped\n"
        "  .memory.journal: the write journal (each file as last recorded)\n"
        "  .notebook/: the demo's history (1 record), its snapshots and agent sessions\n"
        "  NOTES.md: not shipped\n"
        f"The demo persona in {used_demo} is as shipped again.\n"
    )  # plain lines and the exit: no terminal escape, so the app never started
    assert contents(used_demo) == shipped()
    again = reset(env)
    assert (again.returncode, again.stdout) == (
        0,
        f"The demo persona in {used_demo} is already as shipped; nothing was changed.\n",
    )


@pytest.mark.parametrize(("answer", "code"), [("y", 0), ("n", 1)])
def test_in_a_terminal_it_asks_and_does_what_the_answer_says(
    env: dict[str, str], used_demo: Path, answer: str, code: int
) -> None:
    before = contents(used_demo)
    terminal = Terminal(["--reset-demo"], env=env)
    try:
        assert terminal.read_until("Reset it? [y/N] "), terminal.output
        assert b"the demo's history (1 record)" in terminal.output
        terminal.send(answer + "\r")
        assert terminal.wait(30) == code
    finally:
        terminal.close()
    assert contents(used_demo) == (shipped() if answer == "y" else before)
    said = b"is as shipped again." if answer == "y" else b"The demo persona was not reset; nothing was changed."
    assert said in terminal.output
    assert b"\x1b[?1049h" not in terminal.output  # the app's alternate screen never opened
