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


class _Forked:
    """A forked child as much like a ``Popen`` as the terminal needs."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def kill(self) -> None:
        os.kill(self.pid, 9)

    def wait(self) -> int:
        if self.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode


class Terminal:
    """``persona-notebook ARGS`` on a pty of ``size``; read what it prints, send it keys.

    With ``user``, the process is forked (not executed anew) and drops to that
    user before it starts the app: the interpreter may live where that user
    cannot read (CI's Python is under /root), but a forked child has it loaded.
    """

    def __init__(self, args: Sequence[str], *, size: tuple[int, int] = (120, 40), env: dict[str, str] | None = None, user: str | None = None) -> None:
        self.master, slave = os.openpty()
        columns, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.output = b""
        environment = {**os.environ, "TERM": "xterm-256color", **(env or {})}
        if user is None:
            self.process: subprocess.Popen[bytes] | _Forked = subprocess.Popen(
                [sys.executable, "-m", "notebook_app", *args],
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=environment,
                start_new_session=True,
                close_fds=True,
            )
        else:
            self.process = _Forked(_fork_as(user, slave, list(args), environment))
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


_NOT_LOADED = {"antigravity", "this", "idlelib", "tkinter", "turtle", "turtledemo", "lib2to3", "pydoc_data", "__main__", "test", "ensurepip", "venv", "distutils"}


def _load_standard_library() -> None:
    """Import the whole standard library now: the child cannot read its folder once it is not root."""
    import importlib
    import pkgutil
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in sorted(set(sys.stdlib_module_names) - _NOT_LOADED):
            try:
                module = importlib.import_module(name)
            except Exception:  # modules of other platforms, or missing optional parts
                continue
            for sub in pkgutil.walk_packages(getattr(module, "__path__", []), prefix=f"{name}.", onerror=lambda _: None):
                if ".test" in sub.name or "__main__" in sub.name:
                    continue
                try:
                    importlib.import_module(sub.name)
                except Exception:
                    continue


def _fork_as(user: str, slave: int, args: list[str], environment: dict[str, str]) -> int:
    """Fork a child that becomes ``user`` on the pty ``slave`` and runs the app's command line."""
    import pwd

    import notebook_app.app.app  # noqa: F401
    import notebook_app.app.screens.agent_sessions  # noqa: F401
    import notebook_app.cli  # noqa: F401

    _load_standard_library()
    entry = pwd.getpwnam(user)
    pid = os.fork()
    if pid:
        return pid
    code = 99
    try:
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        os.setgroups([])
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)
        if os.getuid() == 0 or os.geteuid() == 0:
            raise SystemExit("could not drop root")
        os.environ.clear()
        os.environ.update(environment)
        sys.stdin = open(0, "r", closefd=False)
        sys.stdout = open(1, "w", closefd=False)
        sys.stderr = open(2, "w", closefd=False)
        sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr
        from notebook_app.cli import main

        code = main(args)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        os._exit(code)


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
