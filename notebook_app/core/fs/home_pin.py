"""The home's identity, pinned when a process resolves it, checked under the lock before every write.

A home is a folder a person can move, remove or replace while a process has
it open: the app for hours, an MCP server for a whole agent session, ``edit``
while ``$EDITOR`` runs. A write by path would then land in whatever now sits
at that path, or create the home again there: a ghost holding one entry and a
journal, beside the real home somewhere else. So a process pins its home when
it resolves it (:func:`pin_home`: the app at open, the MCP server at start, a
CLI verb when it parses its arguments): the device and inode of each folder it
may write, the home and ``.notebook`` when it is there. :func:`home_lock` is
the one lock every write of the core takes; under it each pinned folder must
still be the same device and inode at the same path, or the write is refused
in words and nothing is created. A moved folder is never followed. A write may
still create a folder it names (``.notebook``, ``memory/``) inside a pinned
one, and a home that did not exist when pinned (``memory add --create``, the
app after the person agreed) may be created once: what was made is pinned.

A home whose folder cannot be written (mode 555, a read-only mount) cannot
keep the core's guarantees: no journal, no temp file for a crash-safe
rewrite. Every write is refused there too, before anything is tried, in the
words :func:`write_refusal` gives the dry run and the doctor.

A process started with :data:`READ_ONLY_ENV` set (``persona-notebook serve
--read-only`` sets it for every notebook it serves) refuses every write the
same way: the rule is here, in the one lock, not in the screens that hide a key.

A caller that pinned nothing (a library using the core directly) gets only
that check: its home is resolved, and so pinned, at each call.
"""

from __future__ import annotations

import fcntl
import os
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from notebook_app.core.fs.state_dir import STATE_DIR

Key = tuple[int, int]
"""A folder's (device, inode)."""


class HomeRefused(Exception):
    """A write the pin or the folder's mode refuses; the message says why, in words."""


@dataclass
class HomePin:
    """What a process resolved its home to: the folders it may write, by device and inode."""

    path: str
    home: Key | None
    """None: the home did not exist when pinned."""
    state: Key | None
    """``.notebook`` as it was (not followed: a link is pinned as the link); None when absent."""
    anchors: list[int] = field(default_factory=list)
    """Descriptors held open on the pinned folders, so their inodes are never reused while pinned.

    A removed folder's inode number is free at once, and a folder made again at
    the same path gets it back (on ext4, 50 times out of 50 here): without an
    open descriptor, ``rm -rf HOME; mkdir HOME`` would pass for the same home.
    """

    def hold(self, path: str) -> None:
        """Keep ``path`` (a folder, or a link itself: never followed) from being freed while pinned."""
        with suppress(OSError):
            self.anchors.append(os.open(path, _ANCHOR_FLAGS))

    def release(self) -> None:
        for fd in self.anchors:
            with suppress(OSError):
                os.close(fd)
        self.anchors.clear()


_ANCHOR_FLAGS = getattr(os, "O_PATH", os.O_RDONLY) | os.O_NOFOLLOW | os.O_CLOEXEC
"""O_PATH: a reference that reads nothing and holds the inode; with O_NOFOLLOW a link is held as the link."""

_PINS: dict[str, HomePin] = {}
_GUARD = threading.Lock()


def _where(home: str | os.PathLike[str]) -> str:
    return os.path.abspath(os.fspath(home))


def _key(path: str, *, follow: bool = True) -> Key | None:
    try:
        info = os.stat(path, follow_symlinks=follow)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _folder_key(path: str) -> Key | None:
    """The home's key, None when nothing (or not a folder) is there."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino) if stat.S_ISDIR(info.st_mode) else None


def pin_home(home: str | os.PathLike[str]) -> HomePin:
    """Pin ``home`` for this process as it is now (again, if it was pinned before).

    A home that is absent now is pinned by the first write that makes it (a
    write that may: ``memory add --create``); until then only that it is
    absent, or a folder, is known.
    """
    path = _where(home)
    found = _folder_key(path)
    state = os.path.join(path, STATE_DIR)
    pin = HomePin(path, found, _key(state, follow=False) if found else None)
    if pin.home is not None:
        pin.hold(path)
    if pin.state is not None:
        pin.hold(state)
    if _folder_key(path) != pin.home or (pin.state is not None and _key(state, follow=False) != pin.state):
        pin.release()  # it changed while it was being held: pin what is there now
        return pin_home(home)
    with _GUARD:
        old = _PINS.get(path)
        _PINS[path] = pin
    if old is not None:
        old.release()
    return pin


def unpin_home(home: str | os.PathLike[str]) -> None:
    """Let ``home`` go when this process is done with it (the notebook closing): its anchors are closed."""
    with _GUARD:
        pin = _PINS.pop(_where(home), None)
    if pin is not None:
        pin.release()


def pinned(home: str | os.PathLike[str]) -> HomePin | None:
    """This process's pin of ``home``; None when it pinned none (a library caller)."""
    return _PINS.get(_where(home))


def moved_message(path: str | os.PathLike[str]) -> str:
    return f"the home at {os.fspath(path)} was moved or removed since it was opened; nothing was written"


def read_only_message(path: str | os.PathLike[str]) -> str:
    return f"{os.fspath(path)} is read-only: nothing can be written safely here"


READ_ONLY_ENV = "PERSONA_NOTEBOOK_READ_ONLY"
"""Set (to anything but empty or ``0``) in a process's environment: every write of that process is refused."""


def served_read_only() -> str | None:
    """Why this process writes nothing, when it was started read-only (:data:`READ_ONLY_ENV`); None otherwise."""
    if os.environ.get(READ_ONLY_ENV, "") in ("", "0"):
        return None
    return "this notebook is served read-only (serve --read-only): nothing was written"


def moved(home: str | os.PathLike[str]) -> str | None:
    """Why a pinned home is not the one pinned any more, in words; None when it is (or nothing is pinned).

    Only ``stat`` calls: cheap enough for the app to ask twice a second.
    """
    pin = pinned(home)
    if pin is None:
        return None
    return _pin_problem(pin, _folder_key(pin.path))


def read_only(home: str | os.PathLike[str]) -> str | None:
    """Why nothing can be written in ``home``: this process is read-only, or its folder is not writable; else None."""
    if (refusal := served_read_only()) is not None:
        return refusal
    path = _where(home)
    if _folder_key(path) is not None and not os.access(path, os.W_OK | os.X_OK):
        return read_only_message(home)
    return None


def no_home(home: str | os.PathLike[str]) -> str:
    """What a write to a home that is not there says: moved or removed when this process pinned it."""
    return moved(home) or f"no such home: {os.fspath(home)}"


def write_refusal(home: str | os.PathLike[str]) -> str | None:
    """What every write to ``home`` would be refused with now, checked without the lock (the dry run, the doctor)."""
    return moved(home) or read_only(home)


def _pin_problem(pin: HomePin, found: Key | None) -> str | None:
    if pin.home is not None and found != pin.home:
        return moved_message(pin.path)
    if pin.home is not None and pin.state is not None:
        if _key(os.path.join(pin.path, STATE_DIR), follow=False) != pin.state:
            return moved_message(pin.path)
    return None


@contextmanager
def home_lock(home: Path, *, create: bool = False) -> Iterator[bool]:
    """Hold ``flock`` on the home folder for a write, its pin checked before and under the lock.

    ``create``: make a missing home (and its missing parents) first. Raises
    :class:`HomeRefused` (nothing made, nothing written) for a moved or
    removed home, a read-only one (or process), or one that is not a folder. A missing
    home that is not to be created is not locked: the body runs with False.
    Folders made here are removed again if the body raises.
    """
    if (refusal := served_read_only()) is not None:
        raise HomeRefused(refusal)  # before anything is looked at or made
    path = _where(home)
    pin = pinned(path)
    found = _folder_key(path)
    if pin is not None:
        problem = _pin_problem(pin, found)
        if problem is not None:
            raise HomeRefused(problem)
    made: list[Path] = []
    if found is None:
        if os.path.lexists(path):
            raise HomeRefused(f"home is not a directory: {home}")
        if not create:
            yield False
            return
        made = _make_folders(Path(path))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            locked = os.fstat(fd)
            key = (locked.st_dev, locked.st_ino)
            if _folder_key(path) != key or (pin is not None and _pin_problem(pin, key) is not None):
                raise HomeRefused(moved_message(path))  # moved between the look and the lock
            if not os.access(path, os.W_OK | os.X_OK):
                raise HomeRefused(read_only_message(home))
            if pin is not None:
                _adopt(pin, key)
            yield True
        finally:
            os.close(fd)  # closing releases the flock
    except BaseException:
        for folder in reversed(made):
            with suppress(OSError):
                folder.rmdir()
        raise


def _adopt(pin: HomePin, key: Key) -> None:
    """Pin what this process may write from now: a home it made, a ``.notebook`` that appeared."""
    state = os.path.join(pin.path, STATE_DIR)
    with _GUARD:
        if pin.home is None:
            pin.home = key
            pin.hold(pin.path)
        if pin.state is None:
            pin.state = _key(state, follow=False)
            if pin.state is not None:
                pin.hold(state)


def _make_folders(path: Path) -> list[Path]:
    """Make ``path`` and its missing parents; the folders made, outermost first."""
    missing = []
    while not path.exists():
        missing.append(path)
        path = path.parent
    made: list[Path] = []
    try:
        for folder in reversed(missing):
            folder.mkdir()
            made.append(folder)
    except BaseException:
        for folder in reversed(made):
            with suppress(OSError):
                folder.rmdir()
        raise
    return made
