"""Where in a home a file is written, and the lock its host takes there: the two things a file map changes.

A toolnexus home keeps every file at the top; a Hermes home keeps its
entry files in ``memories/`` (:mod:`..home.layout`), beside the lock files
Hermes takes for its own read-modify-write. The store names a file by its
path from the home's top; these two functions are all of the write path
that looks inside that path.
"""

from __future__ import annotations

import fcntl
import mmap
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from notebook_app.core.home.layout import FileMap
from notebook_app.core.home.names import HOST_FOLDERS, base_name, is_archive_name
from notebook_app.core.hostbase.registry import host as registered

"""The files Hermes's ``MemoryStore`` locks for a write (``_file_lock``: ``<file>.lock`` beside each)."""


class PlaceRefused(Exception):
    """A path of the home that a write may not go through; the message says why."""


def read_only_refusal(files: FileMap, name: str) -> str | None:
    """Why ``name`` may not be written at all in a home opened as ``files``' host; None when it may.

    A file the host injects from outside the home (Claude Code's CLAUDE.md chain) is the person's own, edited in
    their editor: nothing of ours is ever written to a project's tree or to ``~/.claude``'s instructions."""
    outside = files.host_files.get(name)
    if outside is not None:
        return outside.refusal(name)
    if base_name(name) in files.read_only:
        return (
            f"{name} is read-only in a home opened as {files.host}: its host profile says read_only = true; "
            "nothing was written"
        )
    return None


def folder_for(home: Path, name: str, made: list[Path]) -> Path:
    """The folder ``name`` is written in: the home, or the one subfolder its path names (``memories/``, or
    ``memory/`` for a tidy archive, spec §9).

    A missing subfolder is made and added to ``made`` (removed again if the
    call fails), as Hermes makes ``memories/``; one that is a link, or not a
    folder, is refused: a write never leaves the home through it.
    """
    folder, _, _ = name.rpartition("/")
    if not folder:
        return home
    if folder not in HOST_FOLDERS and not is_archive_name(name):
        raise PlaceRefused(f"not a file of this home: {name}")
    path = home / folder
    try:
        info = path.lstat()
    except FileNotFoundError:
        path.mkdir(mode=0o755)
        made.append(path)
        return path
    if not stat.S_ISDIR(info.st_mode):
        what = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a folder"
        raise PlaceRefused(f"{folder}/ in {home} is {what}: {name} is never written through it")
    return path


def holds(path: Path, needle: bytes, *, rare: bytes) -> bool:
    """Whether the regular file at ``path`` holds ``needle`` anywhere; never through a link, nothing recorded.

    Mapped, not read: a human add to a 2 MiB ``- `` file asks this (is it a
    Hermes store after all?) and pays a scan of the page cache, not a copy,
    a decode and a hash of the whole file. ``rare`` is one byte of
    ``needle`` that text seldom holds, found first with ``memchr`` (a 2 MiB
    scan in 0.1 ms where the whole needle takes 1 ms).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size == 0:
            return False
        with mmap.mmap(fd, 0, access=mmap.ACCESS_READ) as mapped:
            return mapped.find(rare) >= 0 and mapped.find(needle) >= 0
    except (OSError, ValueError):
        return False
    finally:
        os.close(fd)


@contextmanager
def host_lock(
    files: FileMap, name: str, folder_of: Callable[[str], Path], exists: Callable[[str], bool], *, make: bool = True
) -> Iterator[None]:
    """The lock the home's host takes for a read-modify-write of ``name``, held inside ours (spec §9).

    Hermes flocks ``MEMORY.md.lock`` / ``USER.md.lock`` beside the store and
    replaces the store atomically; our writes take our lock first and then
    its, always in that order, so no two writers ever wait on each other in a
    circle. The lock file is Hermes's and stays, as Hermes leaves it: one
    removed while another process waits on it would let two holders in.
    Other hosts take no lock of their own. ``folder_of`` makes or checks the
    file's folder (:func:`folder_for`, as the caller words its refusal);
    ``exists`` says whether that folder is there. ``make`` False: a missing
    ``memories/`` is left missing (there is no store in it to write).
    """
    if base_name(name) not in registered(files.host).locked_stores or (not make and not exists(name)):
        yield
        return
    flags = os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(folder_of(name) / f"{base_name(name)}.lock", flags, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the flock
