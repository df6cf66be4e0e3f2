"""Run a reader as a user that file modes apply to, for tests of unreadable files.

Also :func:`run_in_child`: any call in a forked child with a timeout, for
code that a regression could make hang (a FIFO read by mistake).

CI runs as root, and root opens a mode-000 file anyway. A test that needs a
file its reader cannot open runs that reader as ``nobody``: a forked child
(:func:`run_as_reader`) or a real process (:func:`reader_command`) switches
user before it touches the home. When the tests already run as an ordinary
user nothing switches: the mode applies to them. Running as root without a
way to drop privileges fails the test loudly, never a silent skip.

Run as a script, this file is ``python -m notebook_app ARGS`` as the reader.
The interpreter's own files may be out of the reader's reach (under /root, say),
so it imports what the command needs first and drops privileges after.
"""

from __future__ import annotations

import os
import pickle
import pwd
import select
import shutil
import signal
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

READER = "nobody"
LAUNCHER = Path(__file__).resolve()
REPO = LAUNCHER.parents[1]
_CANNOT_DROP = 97
"""The launcher's exit status when it could not become the reader."""


class PrivilegeError(RuntimeError):
    """Running as root with no unprivileged user to become."""


def reader_ids() -> tuple[int, int] | None:
    """(uid, gid) the reader switches to; None when this process is not root."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam(READER)
    except KeyError:
        raise PrivilegeError(
            f"running as root and there is no {READER!r} user to drop privileges to, "
            "so a mode-000 file would be readable and the test would prove nothing"
        ) from None
    return entry.pw_uid, entry.pw_gid


def become_reader() -> None:
    """Switch this process to the reader for good (call it in a child only)."""
    ids = reader_ids()
    if ids is None:
        return
    uid, gid = ids
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    if os.geteuid() == 0 or os.getegid() == 0:
        raise PrivilegeError("setuid/setgid returned but the process is still root")


@contextmanager
def reader_home() -> Iterator[Path]:
    """An empty home the reader can enter and write in (its records go there).

    Pytest's own temp folders are private to root, so this one is made
    directly in the system temp folder and handed to the reader.
    """
    parent = Path(tempfile.mkdtemp(prefix="persona-unprivileged-"))
    try:
        parent.chmod(0o755)
        home = parent / "home"
        home.mkdir()
        ids = reader_ids()
        if ids is not None:
            os.chown(home, *ids)
        yield home
    finally:
        shutil.rmtree(parent, ignore_errors=True)


def unreadable_file(path: Path, content: bytes = b"- a secret the reader cannot see\n") -> Path:
    """A regular file with mode 000, owned by the test's user: the reader cannot open it."""
    path.write_bytes(content)
    path.chmod(0)
    return path


def run_as_reader(function: Callable[..., Any], *args: Any, timeout: float = 60) -> Any:
    """``function(*args)`` in a forked child that runs as the reader; its result."""
    reader_ids()  # fail here, loudly, when there is no one to become
    return run_in_child(function, *args, timeout=timeout, before=become_reader)


def run_in_child(
    function: Callable[..., Any], *args: Any, timeout: float = 60, before: Callable[[], None] | None = None
) -> Any:
    """``function(*args)`` in a forked child; its result, or a failure naming why not.

    The result comes back pickled, so return plain data. An exception in the
    child fails with its traceback; a child still busy after ``timeout``
    seconds is killed and the test fails: a hang never stalls the suite.
    """
    receive, send = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        os.close(receive)
        try:
            if before is not None:
                before()
            outcome: tuple[str, Any] = ("ok", function(*args))
        except BaseException:  # everything goes back to the parent as text
            outcome = ("error", traceback.format_exc())
        try:
            data = pickle.dumps(outcome)
        except Exception:
            data = pickle.dumps(("error", traceback.format_exc()))
        with os.fdopen(send, "wb") as pipe:
            pipe.write(data)
        os._exit(0)
    os.close(send)
    chunks = []
    with os.fdopen(receive, "rb") as pipe:
        while True:
            ready, _, _ = select.select([pipe], [], [], timeout)
            if not ready:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise AssertionError(f"{function.__name__} did not return within {timeout} s: it hangs")
            chunk = os.read(pipe.fileno(), 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    if not chunks:
        raise AssertionError(f"the child running {function.__name__} died without an answer (wait status {status})")
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "error":
        raise AssertionError(f"in the child running {function.__name__}:\n{value}")
    return value


def reader_command(*args: str) -> list[str]:
    """argv running ``persona-notebook ARGS`` as the reader, in a process of its own."""
    return [sys.executable, str(LAUNCHER), *args]


def check_launch(returncode: int, stderr: str) -> None:
    """Fail loudly when the launcher could not become the reader."""
    if returncode == _CANNOT_DROP:
        raise PrivilegeError(stderr)


_NOT_LOADED = {
    "antigravity",
    "this",
    "idlelib",
    "tkinter",
    "turtle",
    "turtledemo",
    "lib2to3",
    "pydoc_data",
    "__main__",
    "test",
    "ensurepip",
    "venv",
    "distutils",
}


def load_standard_library() -> None:
    """Import the whole standard library now, for the app: Textual imports parts lazily at run time."""
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
            for sub in pkgutil.walk_packages(
                getattr(module, "__path__", []), prefix=f"{name}.", onerror=lambda _: None
            ):
                if ".test" in sub.name or "__main__" in sub.name:
                    continue
                try:
                    importlib.import_module(sub.name)
                except Exception:
                    continue


def _launch(argv: list[str]) -> int:
    sys.path.insert(0, str(REPO))  # this checkout, not whatever the venv has installed
    import notebook_app.core.hosts.opening.choose  # noqa: F401  (every verb opens its home as its host has it)
    from notebook_app.cli.main import main

    if argv[:1] == ["mcp"]:
        import anyio._backends._asyncio  # noqa: F401  (anyio loads its backend on first run)

        import notebook_app.mcp.server  # noqa: F401
    elif argv[:1] in (["memory"], ["entry"]):  # the write path, whose imports are lazy
        import notebook_app.core.memory.edits.guarded_splice  # noqa: F401
        import notebook_app.core.memory.tool  # noqa: F401
        from notebook_app.core.text import secrets

        secrets.find_secrets("key " + "AKIA" + "0" * 16)  # an answer is shown with its secrets masked: the finder
        # loads detect-secrets' plugins and the standard library parts they need on its first key-like text
    elif not argv or argv[0] != "soul":  # the app itself
        import notebook_app.app.app  # noqa: F401
        import notebook_app.app.screens.agent_sessions  # noqa: F401
    load_standard_library()  # any verb may load a part of it late (soul's secret marks load base64 via the log)
    try:
        become_reader()
    except (OSError, PrivilegeError) as error:
        print(f"unprivileged launcher: cannot become {READER}: {error}", file=sys.stderr)
        return _CANNOT_DROP
    return main(argv)


if __name__ == "__main__":
    sys.exit(_launch(sys.argv[1:]))
