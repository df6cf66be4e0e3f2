"""``serve`` as a person runs it: a real server process on a free port, over a copy of the demo persona.

Shared by tests/serve (its fixtures are in its conftest.py).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from urllib.parse import urlsplit

CHROMIUM = Path(os.environ.get("PERSONA_NOTEBOOK_CHROMIUM", "/usr/bin/chromium"))


@dataclass
class Server:
    process: subprocess.Popen[str]
    url: str
    """The printed URL, with its token."""
    home: Path

    @property
    def origin(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    @property
    def token(self) -> str:
        return self.url.split("token=", 1)[1]


def demo_copy(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    shutil.copytree(Path(str(files("notebook_app").joinpath("demo_home"))), home)
    return home


def start_serve(tmp_path: Path, *args: str, home: Path | None = None, stderr: bool = False) -> Server:
    home = home or demo_copy(tmp_path)
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "OPENCLAW_CONFIG_PATH": str(tmp_path / "no-openclaw.json"),
    }
    env.pop("PERSONA_NOTEBOOK_READ_ONLY", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "notebook_app", "serve", str(home), "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if stderr else None,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    for _ in range(5):
        line = process.stdout.readline()
        if line.startswith("http://"):
            return Server(process, line.strip(), home)
    process.kill()
    raise AssertionError(f"serve printed no URL (exit {process.wait()})")


def stop(server: Server) -> int:
    server.process.send_signal(signal.SIGTERM)
    try:
        return server.process.wait(timeout=20)
    finally:
        if server.process.poll() is None:
            server.process.kill()
