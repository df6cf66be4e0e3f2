"""The peers' virtual environments: made by the runner, one per peer, reused after.

Each peer gets ``benchmarks/.peers/<name>/``, built with the standard ``venv``
module and ``pip install <pinned spec>``. A stamp file holding the spec marks a
finished build, so a later run reuses it and a changed pin rebuilds it. A lock
file keeps two runs (say a full run and the smoke test) from building the same
venv at once. A peer that cannot be built is reported with pip's own words,
never silently dropped.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

PEERS: dict[str, str] = {
    "toolnexus": "toolnexus==0.21.0",
    "hermes": "hermes-agent==0.19.0",
}
"""Peer name -> the exact requirement installed into its venv."""

TOOLS: dict[str, str] = {
    "apptools": "pyte==0.8.2",
}
"""Venvs for the benchmarks' own harnesses: pyte, a terminal emulator, reads the
app's screen for measures 5–8. Never needed by the app or its tests."""

STAMP = ".bench-installed"


@dataclass
class PeerEnv:
    name: str
    spec: str
    python: Path | None
    built_seconds: float | None
    """Seconds this run spent building the venv; None when an earlier build was reused."""
    error: str | None = None


def _tail(text: str, lines: int = 12) -> str:
    kept = [line for line in text.strip().splitlines() if not line.startswith("WARNING: Location")]
    return "\n".join(kept[-lines:])


def ensure_peer(name: str, spec: str, root: Path, *, timeout: float) -> PeerEnv:
    """The peer's venv, built now if there is no finished build of this spec."""
    root.mkdir(parents=True, exist_ok=True)
    venv = root / name
    python = venv / "bin" / "python"
    with open(root / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = venv / STAMP
        if stamp.is_file() and stamp.read_text().strip() == spec and python.exists():
            return PeerEnv(name, spec, python, None)
        started = time.monotonic()
        shutil.rmtree(venv, ignore_errors=True)
        steps = [
            [sys.executable, "-m", "venv", str(venv)],
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", spec],
        ]
        for step in steps:
            try:
                done = subprocess.run(
                    step,
                    capture_output=True,
                    text=True,
                    timeout=max(1.0, timeout - (time.monotonic() - started)),
                    env={**os.environ, "PIP_NO_INPUT": "1"},
                )
            except subprocess.TimeoutExpired:
                return PeerEnv(name, spec, None, None, f"`{' '.join(step[-3:])}` did not finish within {timeout:.0f} s")
            if done.returncode != 0:
                return PeerEnv(
                    name,
                    spec,
                    None,
                    None,
                    f"`{' '.join(step[-3:])}` failed (exit {done.returncode}):\n{_tail(done.stderr + done.stdout)}",
                )
        stamp.write_text(spec + "\n")
        return PeerEnv(name, spec, python, time.monotonic() - started)
