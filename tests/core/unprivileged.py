"""Run a check as an unprivileged user: root reads and writes any file, whatever its mode.

The child is forked, not exec'd (the interpreter may live where that user
cannot reach), drops to ``nobody`` when running as root, runs one function
and sends back its JSON-able result. If privileges cannot be dropped, the
test fails loudly rather than pass without having tested anything.
"""

from __future__ import annotations

import grp
import json
import os
import pwd
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


def nobody_ids() -> tuple[int, int]:
    user = pwd.getpwnam("nobody")
    for group in ("nogroup", "nobody"):
        try:
            return user.pw_uid, grp.getgrnam(group).gr_gid
        except KeyError:
            continue
    return user.pw_uid, user.pw_gid


def as_unprivileged(function: Callable[..., object], *args: object) -> object:
    """``function(*args)`` run in a forked child without root's privileges."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        try:
            os.close(read_end)
            if os.geteuid() == 0:
                uid, gid = nobody_ids()
                os.setgroups([])
                os.setgid(gid)
                os.setuid(uid)
            if os.geteuid() == 0:
                raise RuntimeError("still root after setuid")
            payload = {"value": function(*args)}
        except BaseException as error:
            payload = {"error": f"{type(error).__name__}: {error}"}
        try:
            with os.fdopen(write_end, "w") as out:
                json.dump(payload, out)
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as received:
        raw = received.read()
    os.waitpid(pid, 0)
    result = json.loads(raw)
    if "error" in result:
        pytest.fail(f"the unprivileged check could not run: {result['error']}")
    return result["value"]


@pytest.fixture
def open_home() -> Iterator[Path]:
    """A home the unprivileged user can reach and write (tmp_path is root's alone)."""
    base = Path(tempfile.mkdtemp(prefix="persona-unprivileged-", dir="/tmp"))
    try:
        base.chmod(0o755)
        home = base / "home"
        home.mkdir()
        if os.geteuid() == 0:
            os.chown(home, *nobody_ids())
        yield home
    finally:
        shutil.rmtree(base)


def listing(home: Path) -> dict[str, bytes]:
    """Every entry of the home with its bytes ("<dir>" for a folder)."""
    return {p.name: (p.read_bytes() if p.is_file() else b"<dir>") for p in sorted(home.iterdir())}
