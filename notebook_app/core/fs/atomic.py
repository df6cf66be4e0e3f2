"""Directory locks and atomic writes: the file-system moves every writer of the core shares.

Nothing here knows about homes or bootstrap files; :mod:`..record.storage` and the
agent-session records build on it.
"""

from __future__ import annotations

import errno
import fcntl
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def flocked_directory(path: Path, *, shared: bool = False) -> Iterator[None]:
    """Hold ``flock`` on a directory: the lock all writers of its files share."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the flock


def write_atomically(
    folder: Path,
    name: str,
    data: bytes,
    *,
    mode: int = 0o644,
    temp_prefix: str,
    temp_suffix: str = "",
    durable: bool = True,
) -> None:
    """Replace ``folder/name`` with ``data``: readers see all of it or none of it.

    The temp file sits in the same folder (so the rename is atomic), named
    ``temp_prefix…temp_suffix``; call with the folder's lock held, so
    :func:`remove_temps` can clear what a killed writer left.
    """
    temp, _ = write_temp(folder, data, mode=mode, prefix=temp_prefix, suffix=temp_suffix, durable=durable)
    try:
        os.replace(temp, folder / name)
    except BaseException:
        with _ignore_missing():
            os.unlink(temp)
        raise
    sync_folder(folder, durable)


def write_temp(
    folder: Path, data: bytes, *, mode: int, prefix: str, suffix: str = "", durable: bool = True
) -> tuple[Path, os.stat_result]:
    """A temp file in ``folder`` holding ``data``, synced when durable: its path and its stat, which a rename keeps."""
    fd, temp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            if durable:
                os.fsync(handle.fileno())
            status = os.fstat(handle.fileno())
    except BaseException:
        with _ignore_missing():
            os.unlink(temp)
        raise
    return Path(temp), status


def sync_folder(folder: Path, durable: bool = True) -> None:
    """Make a rename or unlink in ``folder`` durable (no-op when not ``durable``)."""
    if not durable:
        return
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """``os.write`` until every byte is out: a write may take only part."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def remove_temps(folder: Path, prefix: str) -> None:
    """Temp files seen under the folder's lock belong to writers that were killed."""
    remove_matching(folder, lambda name: name.startswith(prefix))


def remove_matching(folder: Path, is_temp: Callable[[str], bool]) -> None:
    """:func:`remove_temps` for temp names no single prefix describes."""
    for entry in os.scandir(folder):
        if is_temp(entry.name):
            with _ignore_missing():
                os.unlink(entry.path)


@contextmanager
def _ignore_missing() -> Iterator[None]:
    try:
        yield
    except OSError as error:
        if error.errno != errno.ENOENT:
            raise
