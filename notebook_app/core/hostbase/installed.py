"""Which release of a host is installed, read from its files alone (issue 36): the shared pieces.

Each host's package says where its installer puts the version (``core/hosts/<host>/installed.py``); this
module holds what they share: the executable named on ``PATH``, its link followed, a walk up to a
``package.json`` of a given name, a ``*.dist-info/METADATA`` read, a script's shebang, and the cache.

Files only: the host is never run, not even ``--version`` (a wrapper on PATH may update itself or migrate
a config when started). Every step is bounded: links are followed by the kernel's own rule (a loop is
None), a walk stops at a :class:`Deadline`, a file is read only when it is a regular file and only its
first :data:`READ_LIMIT` bytes (a FIFO named ``package.json`` is not waited on). Nothing here raises: a
layout that is odd, slow or unreadable answers None, and a host is then "not found".

The answer is cached per executable (the path on PATH) and the modification times of it and of what it
links to, in ``installed.json`` of the user's state folder: a second open reads two ``stat`` results,
not the package. An update replaces the link or the script, so its time changes and the cache is
read again. A cache that cannot be written is ignored. Detection is off when :data:`DETECT_OFF` is set
in the environment (``--no-detect``; the test suite sets it for every test).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

DETECT_OFF = "PERSONA_NOTEBOOK_NO_DETECT"
"""Set (to anything but "" or "0") in the environment: no host's installed version is looked for."""

CACHE_FILE = "installed.json"
READ_LIMIT = 256 * 1024
"""Bytes of a ``package.json``, ``METADATA`` or script read at most: a version is near the top."""
TIME_LIMIT = 0.5
"""Seconds one host's detection may take before it answers None."""
WALK_LIMIT = 12
"""Folders a walk up to a ``package.json`` climbs at most."""

VERSION = re.compile(r"[0-9]+(?:\.[0-9]+)*")


@dataclass(frozen=True)
class Installed:
    """A host found installed: its id, its version, the executable on PATH, and where the version was read."""

    host: str
    version: str
    executable: Path
    """The path on ``PATH`` (not followed): what the person runs."""
    source: str
    """Where the version was read, in words (``the native installer's version file …/versions/2.1.338``)."""


class Deadline:
    """A point in time a walk must not pass (:data:`TIME_LIMIT` from now)."""

    def __init__(self, seconds: float = TIME_LIMIT) -> None:
        self._end = time.monotonic() + seconds

    @property
    def passed(self) -> bool:
        return time.monotonic() > self._end


Reader = Callable[[Path, Path, Deadline], tuple[str, str] | None]
"""What a host's package reads: (the executable on PATH, it followed, the deadline) -> (version, where) or None."""


def detection_off(env: Mapping[str, str]) -> bool:
    return env.get(DETECT_OFF, "") not in ("", "0")


def on_path(name: str, env: Mapping[str, str]) -> Path | None:
    """The executable ``name`` as a shell would find it on ``env``'s ``PATH``, not followed; None: not there."""
    path = env.get("PATH", "")
    if not path:
        return None  # no PATH: nothing is on it (which() would look in the current folder)
    try:
        found = shutil.which(name, path=path)
    except (OSError, ValueError):
        return None
    return Path(found) if found else None


def followed(path: Path) -> Path | None:
    """``path`` with every link followed (the kernel's own limit on hops); None: a loop, or it leads nowhere."""
    try:
        return Path(os.path.realpath(path, strict=True))
    except (OSError, RuntimeError, ValueError):
        return None


def small_file(path: Path) -> bytes | None:
    """The first :data:`READ_LIMIT` bytes of ``path`` when it is a regular file; None otherwise (a FIFO, a folder,
    mode 000, gone): opened without waiting, checked, then read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return os.read(fd, READ_LIMIT)
    except OSError:
        return None
    finally:
        os.close(fd)


def package_json(folder: Path) -> dict[str, object] | None:
    """``folder/package.json`` as an object; None when it is not there, not a file, or not JSON."""
    data = small_file(folder / "package.json")
    if data is None:
        return None
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _parents(start: Path, deadline: Deadline) -> Iterator[Path]:
    folder = start if start.is_dir() else start.parent
    for _ in range(WALK_LIMIT):
        if deadline.passed:
            return
        yield folder
        if folder.parent == folder:
            return
        folder = folder.parent


def package_version(start: Path, name: str, deadline: Deadline) -> tuple[str, Path] | None:
    """The version in the nearest ``package.json`` named ``name`` at or above ``start``, and its folder.

    The walk stops at the first ``package.json`` it finds: an npm package's bin lies inside its own package, so
    a nearer package of another name means ``start`` is not this one's. None as well past the deadline, or when
    the version is not a version."""
    for folder in _parents(start, deadline):
        if not (folder / "package.json").exists():
            continue
        found = package_json(folder)
        if found is None or found.get("name") != name:
            return None
        version = found.get("version")
        return (version, folder) if isinstance(version, str) and VERSION.fullmatch(version) else None
    return None


def shebang(script: Path) -> Path | None:
    """The interpreter a ``#!`` script names (``#!/path/python``), not followed; None for ``#!/usr/bin/env …``,
    a binary, or no ``#!`` line."""
    data = small_file(script)
    if data is None or not data.startswith(b"#!"):
        return None
    line = data[2:].split(b"\n", 1)[0].strip()
    try:
        words = line.decode("utf-8").split()
    except UnicodeDecodeError:
        return None
    if not words or Path(words[0]).name == "env":
        return None
    return Path(words[0])


def metadata_version(text: str, name: str) -> str | None:
    """The ``Version:`` of a ``METADATA`` whose ``Name:`` is ``name`` (case and ``-``/``_`` aside); None otherwise."""
    headers: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            break  # the body (the description) follows the first blank line
        key, colon, value = line.partition(":")
        if colon and key.strip() in ("Name", "Version"):
            headers.setdefault(key.strip(), value.strip())
    if _normal(headers.get("Name", "")) != _normal(name):
        return None
    version = headers.get("Version", "")
    return version if VERSION.fullmatch(version) else None


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def dist_info_version(site_packages: Path, name: str, deadline: Deadline) -> tuple[str, Path] | None:
    """The version of the distribution ``name`` installed in ``site_packages`` (its ``*.dist-info/METADATA``),
    and that file; None when none is, or past the deadline."""
    prefix = _normal(name).replace("-", "_") + "-"
    try:
        with os.scandir(site_packages) as entries:
            names = [e.name for e in entries]
        folders = sorted(n for n in names if n.lower().startswith(prefix) and n.endswith(".dist-info"))
    except OSError:
        return None
    for folder in folders:
        if deadline.passed:
            return None
        metadata = site_packages / folder / "METADATA"
        data = small_file(metadata)
        version = metadata_version(data.decode("utf-8", "replace"), name) if data is not None else None
        if version is not None:
            return version, metadata
    return None


def site_packages(interpreter: Path) -> tuple[Path, ...]:
    """The ``site-packages`` folders of the environment ``interpreter`` (``<env>/bin/python``) belongs to: a
    virtual environment's own, named by its path, not by the interpreter the link leads to."""
    prefix = interpreter.parent.parent
    try:
        with os.scandir(prefix / "lib") as entries:
            names = sorted(e.name for e in entries if e.name.startswith("python"))
    except OSError:
        return ()
    return tuple(prefix / "lib" / name / "site-packages" for name in names)


def _stamp(executable: Path, target: Path) -> list[int] | None:
    try:
        return [os.lstat(executable).st_mtime_ns, os.stat(target).st_mtime_ns]
    except OSError:
        return None


def _cached(state: Path | None, key: str, stamp: list[int]) -> dict[str, object] | None:
    if state is None:
        return None
    data = small_file(state / CACHE_FILE)
    try:
        entries = json.loads(data.decode("utf-8")) if data is not None else {}
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    entry = entries.get(key) if isinstance(entries, dict) else None
    return entry if isinstance(entry, dict) and entry.get("stamp") == stamp else None


def _remember(state: Path | None, key: str, entry: dict[str, object]) -> None:
    """Keep ``entry`` for ``key`` in the cache, replaced atomically; a failure leaves the cache as it was."""
    if state is None:
        return
    try:
        state.mkdir(parents=True, exist_ok=True)
        data = small_file(state / CACHE_FILE)
        try:
            entries = json.loads(data.decode("utf-8")) if data is not None else {}
        except (UnicodeDecodeError, ValueError, RecursionError):
            entries = {}
        if not isinstance(entries, dict):
            entries = {}
        entries[key] = entry
        fd, temp = tempfile.mkstemp(prefix=f".{CACHE_FILE}-", dir=state)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(entries, out, indent=1, sort_keys=True)
            os.replace(temp, state / CACHE_FILE)
        except BaseException:
            os.unlink(temp)
            raise
    except (OSError, ValueError, TypeError):
        return


def detect(host: str, command: str, env: Mapping[str, str], read: Reader, *, state: Path | None) -> Installed | None:
    """Host ``host`` as installed: ``command`` on ``env``'s PATH, its version as ``read`` finds it from the files;
    None when detection is off, ``command`` is not on PATH, or its files do not say (never raises).

    ``state``: the folder of the cache (None: no cache)."""
    if detection_off(env):
        return None
    try:
        executable = on_path(command, env)
        target = followed(executable) if executable is not None else None
        if executable is None or target is None:
            return None
        key = f"{host} {executable}"
        stamp = _stamp(executable, target)
        if stamp is not None and (entry := _cached(state, key, stamp)) is not None:
            version, source = entry.get("version"), entry.get("source")
            if entry.get("found") is False:
                return None
            if isinstance(version, str) and isinstance(source, str):
                return Installed(host, version, executable, source)
        deadline = Deadline()
        found = read(executable, target, deadline)
        if stamp is not None and not deadline.passed:  # a slow answer is not kept: the next open looks again
            value: dict[str, object] = {"stamp": stamp, "found": False}
            if found is not None:
                value = {"stamp": stamp, "version": found[0], "source": found[1]}
            _remember(state, key, value)
        return None if found is None else Installed(host, found[0], executable, found[1])
    except Exception:  # noqa: BLE001  (a layout no reader foresaw answers "not found", never an error)
        return None
