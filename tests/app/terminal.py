"""The real app in a real pseudo-terminal: for what only a real process shows (hangs, exits, crashes)."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Sequence
from pathlib import Path

from privileges import reader_command


class Terminal:
    """``persona-notebook ARGS`` on a pty of ``size``; read what it prints, send it keys.

    ``as_reader`` runs it as the unprivileged reader of :mod:`privileges`
    (when the tests run as root), for files whose mode must apply.
    """

    def __init__(
        self,
        args: Sequence[str],
        *,
        size: tuple[int, int] = (120, 40),
        env: dict[str, str] | None = None,
        as_reader: bool = False,
    ) -> None:
        self.master, slave = os.openpty()
        columns, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.output = b""
        command = reader_command(*args) if as_reader else [sys.executable, "-m", "notebook_app", *args]
        self.process = subprocess.Popen(
            command,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={**os.environ, "TERM": "xterm-256color", **(env or {})},
            start_new_session=True,
            close_fds=True,
        )
        os.close(slave)

    def read_until(self, text: str, *, within: float = 30.0) -> bool:
        """Read output until ``text`` appears (True) or the process ends or ``within`` passes (False)."""
        deadline = time.monotonic() + within
        while text.encode() not in self.output:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            ready, _, _ = select.select([self.master], [], [], min(left, 0.2))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    return text.encode() in self.output
                if not chunk:
                    return False
                self.output += chunk
        return True

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def wait(self, within: float) -> int | None:
        """The exit code, or None when the process is still running after ``within`` seconds."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            self.read_until("\0", within=0.1)  # keep draining, so the app never blocks on a full pty
            code = self.process.poll()
            if code is not None:
                return code
        return None

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)


def hostile_home(root: Path) -> Path:
    """A home with one of each thing a real home can hold at a bootstrap name."""
    home = root / "hostile"
    home.mkdir()
    (home / "SOUL.md").write_text("I am Wren.\n")
    os.mkfifo(home / "MEMORY.md")
    os.symlink("USER.md", home / "USER.md")  # a link to itself: a loop
    os.symlink("/dev/zero", home / "AGENTS.md")
    (home / "TOOLS.md").mkdir()
    os.symlink("nowhere.md", home / "IDENTITY.md")
    (home / "HEARTBEAT.md").write_bytes(b"check \xff the tide\n- tab\there\n- zero\xe2\x80\x8bwidth\n")
    return home
