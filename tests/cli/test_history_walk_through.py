"""The history walk-through of docs/history.md, run as written on a fresh home: every command, and what each prints.

The agent is the page's own MCP snippet (a real server process, the SDK's
client); the notebook's replace is the memory tool with the notebook as the
writer, which is what its form calls; the rest are the page's shell lines.
Ids, session ids and times differ from run to run and are compared as such;
an id the page passes to a command is mapped to this run's record.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from notebook_app.core.record.log.actor import NOTEBOOK
from notebook_app.core.memory.tool import memory_tool

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "history.md").read_text(encoding="utf-8")
SECTION = PAGE[PAGE.index("\n## Walk-through\n") :].split("\n## ")[1]  # to the next section, if any
BLOCKS = re.findall(r"```(console|python)\n(.*?)```", SECTION, flags=re.DOTALL)
ID = re.compile(r"\b[wsfpr]-[0-9a-z]{6,13}\b")


def commands(block: str) -> list[tuple[str, list[str]]]:
    """(command, the lines it prints) for each ``$ `` line of a console block."""
    steps: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    return steps


def normal(lines: list[str]) -> list[str]:
    """Lines with ids, session ids and times made alike, runs of spaces as one, and no blank lines at the end."""
    out = []
    for line in lines:
        line = re.sub(r"\d{8}-\d{6}-[0-9a-f]{8}", "SESSION", line)
        line = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d", "TIME", line)  # local, with its offset
        out.append(re.sub(r" +", " ", ID.sub("ID", line)).rstrip())
    while out and not out[-1]:
        out.pop()
    return out


def test_the_walk_through_runs_as_written_on_a_fresh_home(tmp_path: Path) -> None:
    assert [kind for kind, _ in BLOCKS] == ["console", "python", "console", "console"]
    shims = tmp_path / "bin"
    shims.mkdir()
    (shims / "persona-notebook").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m notebook_app "$@"\n')
    (shims / "persona-notebook").chmod(0o755)
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "PATH": f"{shims}{os.pathsep}{os.environ['PATH']}",
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }

    def shell(command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=env, timeout=120)

    for command, _ in commands(BLOCKS[0][1]):
        assert shell(command).returncode == 0, command
    home = tmp_path / "agents" / "kip"
    (tmp_path / "agent.py").write_text(BLOCKS[1][1])
    agent = subprocess.run(
        [sys.executable, str(tmp_path / "agent.py")], capture_output=True, text=True, env=env, timeout=120
    )
    assert agent.returncode == 0, agent.stderr
    assert "ok (add → MEMORY.md)" in agent.stdout
    replaced = memory_tool(home, by=NOTEBOOK).call(
        {"action": "replace", "text": "metric units", "with": "metric units, 24-hour clock"}
    )
    assert not replaced.is_error, replaced.output
    for command, _ in commands(BLOCKS[2][1]):
        assert shell(command).returncode == 0, command

    ids: dict[str, str] = {}  # the page's id → this run's
    for command, expected in commands(BLOCKS[3][1]):
        for shown in ID.findall(command):
            full = next(documented for documented in ids if documented.startswith(shown))
            command = command.replace(shown, ids[full][: len(shown)])
        done = shell(command)
        assert (done.returncode, done.stderr) == (0, ""), command
        printed = done.stdout.splitlines()
        assert normal(printed) == normal(expected), command
        if not ids:  # the first listing: its ids in the page's order
            ids = dict(
                zip([line.split()[0] for line in expected if line], [line.split()[0] for line in printed], strict=True)
            )
    assert (
        home / "MEMORY.md"
    ).read_text() == "- prefers metric units, 24-hour clock\n- asked for weekly summaries on Fridays\n"
