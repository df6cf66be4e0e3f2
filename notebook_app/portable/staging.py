"""A place of a move written whole or not at all: its files in a staging folder beside it, then one rename.

A move that is no merge writes into folders that are absent or empty (the plan allows nothing else). Each one's
files are written in a sibling staging folder, ``.<name>.persona-move-<random>`` (the same parent, so the same
file system), every file and folder fsynced, then the staging folder is renamed onto the place: POSIX ``rename``
puts a folder at an absent path or over an EMPTY folder in one step, and refuses a folder that holds anything.
So a reader, or a move killed at any instant, finds the place as it was or whole, never half written.

The move holds ``flock`` on its staging folder from its making until its rename (after it, the same lock is on
the written place). A staging folder found unheld belongs to a move that was killed: the next move of that place
removes it (:func:`remove_stale`); a held one is a move running now and is left. Its name starts with a dot and
holds no home's layout at its top but while a move fills it, so no listing of homes takes it for one.
"""

from __future__ import annotations

import errno
import fcntl
import os
import secrets
import shutil
import stat
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from notebook_app.core.fs.atomic import sync_folder

STAGING = ".persona-move-"
"""``.<name>`` then this then random: a staging folder beside the place ``<name>``."""
_OPEN_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def stagings_beside(folder: Path) -> list[Path]:
    """The staging folders beside ``folder``: a move's running now, or one a killed move left."""
    prefix = f".{folder.name}{STAGING}"
    try:
        with os.scandir(folder.parent) as listing:
            found = [Path(e.path) for e in listing if e.name.startswith(prefix) and e.is_dir(follow_symlinks=False)]
    except OSError:  # no parent yet: nothing beside it
        return []
    return sorted(found)


def remove_stale(folder: Path) -> list[Path]:
    """Remove the staging folders beside ``folder`` that no move holds (their move was killed); those removed."""
    removed: list[Path] = []
    for path in stagings_beside(folder):
        try:
            fd = os.open(path, _OPEN_FOLDER)
        except FileNotFoundError:
            continue  # its move renamed or removed it meanwhile
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # a move running now holds it
            if _same(fd, path):
                shutil.rmtree(path)
                removed.append(path)
        finally:
            os.close(fd)
    if removed:
        sync_folder(folder.parent)
    return removed


@contextmanager
def staged(folder: Path) -> Iterator[Path]:
    """A new staging folder beside ``folder``, held; removed on leaving unless it was renamed onto ``folder``.

    Made by ``mkdir`` (mode 0o777 less the umask, as a home folder ``mkdir`` makes), its parents made first.
    """
    folder.parent.mkdir(parents=True, exist_ok=True)
    while True:
        path = folder.parent / f".{folder.name}{STAGING}{secrets.token_hex(6)}"
        try:
            os.mkdir(path)
            break
        except FileExistsError:
            continue
    fd = os.open(path, _OPEN_FOLDER)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if not _same(fd, path):  # a cleaner took it for a killed move's between its mkdir and this lock
            raise FileNotFoundError(errno.ENOENT, "the staging folder went while it was made", str(path))
        yield path
    finally:
        try:
            if _same(fd, path):  # not renamed onto the place: nothing of it stays
                shutil.rmtree(path)
                sync_folder(folder.parent)
        finally:
            os.close(fd)


def sync_tree(folder: Path) -> None:
    """fsync every folder below ``folder`` and itself, deepest first: their entries are on disk before the rename.

    The files are fsynced as they are written (``write_atomically``)."""
    for here, _, _ in sorted(os.walk(folder), key=lambda walked: -len(Path(walked[0]).parts)):
        sync_folder(Path(here))


def publish(moves: list[tuple[str, Path, Path]]) -> str | None:
    """Rename each ``(what, staging, place)``'s staging folder onto its place, in order; why not, in words.

    Under ``flock`` on each place that is there (the lock every writer of the core takes on a home folder), each
    is checked to be still the folder it was and empty, before any is renamed; an absent one stays unlocked: the
    rename makes it, and the kernel refuses it if it was made meanwhile and filled.
    """
    with ExitStack() as locks:
        for what, staging, place in moves:
            if (why := _hold_empty(what, staging, place, locks)) is not None:
                return why
        done: list[str] = []
        for what, staging, place in moves:
            try:
                rename_onto(staging, place)
            except OSError as error:
                if error.errno not in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOTDIR, errno.EISDIR):
                    raise
                if done:
                    return (
                        f"{what} {place} was made or filled since the plan ({error.strerror}); {done[0]} was written"
                        f" whole and {what} was not: plan again with --merge"
                    )
                return f"{what} {place} was made or filled since the plan ({error.strerror}); nothing written"
            done.append(f"{what} {place}")
    return None


def rename_onto(staging: Path, place: Path) -> None:
    """The one step that writes a place: its staging folder renamed onto it, the rename made durable."""
    os.rename(staging, place)
    sync_folder(place.parent)


def _hold_empty(what: str, staging: Path, place: Path, locks: ExitStack) -> str | None:
    """Lock ``place`` when it is there and say why it may not be replaced: not the folder it was, or not empty."""
    try:
        fd = os.open(place, _OPEN_FOLDER)
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR):
            return f"{what} {place} is no longer a folder; nothing written: plan again"
        raise
    locks.callback(os.close, fd)
    fcntl.flock(fd, fcntl.LOCK_EX)
    if not _same(fd, place):
        return f"{what} {place} was replaced since the plan; nothing written: plan again"
    names = sorted(os.listdir(fd))
    if names:
        held = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        return f"{what} {place} is no longer empty (it holds {held}); nothing written: plan again"
    os.chmod(staging, stat.S_IMODE(os.fstat(fd).st_mode))  # the folder the user made keeps its mode
    return None


def _same(fd: int, path: Path) -> bool:
    """Whether ``path`` is still the folder ``fd`` holds (not gone, not replaced)."""
    try:
        there = os.lstat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (there.st_dev, there.st_ino) == (held.st_dev, held.st_ino)
