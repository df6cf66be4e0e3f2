"""A reader that goes away (``| head -1``) ends a command quietly: no traceback, for every verb."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

BIG = "".join(f"- entry {n:06d} with enough words to make the line long\n" for n in range(20_000))
"""About 1 MiB: far more than a pipe holds, so the writer is still writing when ``head`` leaves."""


def _piped_to_head(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = " ".join(shlex.quote(part) for part in (sys.executable, "-m", "notebook_app", *args, "--home", str(home)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)}
    return subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command} | head -1"], capture_output=True, text=True, env=env, timeout=120
    )


def _record_id(home: Path) -> str:
    from notebook_app.core.history.query import history

    return history(home)[0].id


@pytest.mark.parametrize("verb", ["soul", "blame", "history", "restore-dry-run"])
def test_a_closed_pipe_ends_the_command_quietly(tmp_path: Path, verb: str) -> None:
    from notebook_app.core.record.log.actor import CLI
    from notebook_app.core.memory.tool import memory_tool

    (tmp_path / "MEMORY.md").write_text(BIG)
    if verb == "soul":
        args: tuple[str, ...] = ("soul",)
    elif verb == "blame":
        args = ("blame", "MEMORY.md")
    elif verb == "history":
        tool = memory_tool(tmp_path, by=CLI)
        for n in range(1200):
            assert not tool.call({"action": "add", "target": "self", "text": f"fact {n} " + "x" * 40}).is_error
        args = ("history",)
    else:
        assert not memory_tool(tmp_path, by=CLI).call({"action": "add", "target": "self", "text": "last"}).is_error
        (tmp_path / "MEMORY.md").write_text("")
        args = ("restore", "MEMORY.md", "--to", _record_id(tmp_path), "--dry-run")
    before = (tmp_path / "MEMORY.md").read_bytes()
    out = _piped_to_head(tmp_path, *args)
    assert out.stderr == ""
    assert len(out.stdout.splitlines()) == 1
    assert out.returncode == 141  # SIGPIPE's status, as for any tool whose reader left; not 1 (refused)
    assert (tmp_path / "MEMORY.md").read_bytes() == before
