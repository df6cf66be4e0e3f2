"""Where a home's files are, and how its entry files are written: the file map a host hands the reading side.

A toolnexus home, an OpenClaw workspace and a Claude Code memory folder keep
every file at the top (:data:`FLAT`); a Hermes home keeps SOUL.md at the top
and its entry files in ``memories/`` (:func:`hermes_files`). Every name the
core passes around stays the logical one (``MEMORY.md``): the journal's slots,
the event log and the panes all say that; only :meth:`FileMap.path` knows the
folder. Pure data, chosen once when a home is opened (``hosts.opening``).
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from types import MappingProxyType

from notebook_app.core.home.names import BOOTSTRAP_ORDER, HOST_FOLDERS, is_archive_name, is_topic_name
from notebook_app.core.hostbase.registry import host as registered

BOOTSTRAP_NAMES = frozenset((*BOOTSTRAP_ORDER, "BOOTSTRAP.md"))
"""The names a host loads from a home: the contract's seven, and OpenClaw's first-run BOOTSTRAP.md."""


class Dialect(Enum):
    """How an entry file separates its entries (spec §9)."""

    LINES = "'- ' line"
    """The contract's: one ``- text`` line per entry (toolnexus, OpenClaw, Claude Code's MEMORY.md)."""
    SECTIONS = "'§'-separated entry"
    """Hermes's: entries joined by a line holding only ``§``; an entry may span lines."""


_EMPTY: Mapping[str, str] = MappingProxyType({})
_NO_LIMITS: Mapping[str, int] = MappingProxyType({})


@dataclass(frozen=True)
class HostFile:
    """A file the host injects from outside the home, never written here: Claude Code's CLAUDE.md chain."""

    path: str
    """Where it is: an absolute path (the project's tree, ``~/.claude``)."""
    whose: str
    """What it is, in words: ``Claude Code's project instructions``; the refusal of a write says it."""

    def refusal(self, name: str) -> str:
        """Why no write of ours goes to it, whoever asks: the write path's words (and the app's, before a form)."""
        return f"{name} is {self.whose}, read-only here: edit it in your own editor; nothing was written"


@dataclass(frozen=True)
class FileMap:
    """The home's host, the folder of each file that is not at the top, and its entry files' dialect and limits."""

    host: str | None = None
    """The host the home was opened as; None when none is known (content then decides an entry file's dialect)."""
    folders: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    """Logical name -> the subfolder it lives in (``memories``); a name not here is at the top."""
    dialect: Dialect | None = None
    """The entry files' dialect; None: decided by each file's content (:func:`..memory.dialect.dialect_in`)."""
    limits: Mapping[str, int] = field(default_factory=lambda: _NO_LIMITS)
    """Entry file -> its character limit, where the host has one (Hermes)."""
    order: tuple[str, ...] = BOOTSTRAP_ORDER
    """The files the host loads from the home, in its order: what the file list shows and ``1``–``9`` pick."""
    read_only: frozenset[str] = frozenset()
    """Files the host's profile says the notebook must never write (``read_only = true``): every write refuses."""
    on_demand: tuple[str, ...] = ()
    """Glob patterns, from the home's top folder, of the files the host's agent reads when it chooses to, never
    injected: OpenClaw's daily notes (``memory/*.md``), Claude Code's topic files (``*.md`` beside MEMORY.md)."""
    on_demand_note: str = ""
    """Who reads them and how, in words, for the list's help and the pane."""
    host_files: Mapping[str, HostFile] = field(default_factory=lambda: MappingProxyType({}))
    """The files the host injects from outside the home, before its own, in its order, by the name the list shows
    (``~/.claude/CLAUDE.md``, ``CLAUDE.md``, ``.claude/rules/x.md``): read where they are, and every write to one
    refuses (:func:`..record.places.read_only_refusal`). Read when the home was opened."""

    def relative(self, name: str) -> str:
        """``memories/MEMORY.md``: where ``name`` is, from the home's top folder."""
        folder = self.folders.get(name)
        return f"{folder}/{name}" if folder else name

    def recorded(self, given: str) -> str | None:
        """The path the history names ``given`` by in a home opened as this map; None when it is none of its files.

        A person names a file as the list shows it (``MEMORY.md``) or by its path from the home's top
        (``memories/MEMORY.md`` in a Hermes home); the store writes, and the log records, the path
        (:meth:`relative`). A tidy archive and a topic file this map edits whole are their own paths. A path
        into a folder where this map does not keep that file names nothing of this home.
        """
        folder, _, base = given.rpartition("/")
        if base in BOOTSTRAP_ORDER and (not folder or folder in HOST_FOLDERS):
            where = self.relative(base)
            return where if not folder or where == given else None
        return given if is_archive_name(given) or self.edits_whole(given) else None

    def path(self, home: Path, name: str) -> Path:
        outside = self.host_files.get(name)
        if outside is not None:
            return Path(outside.path)
        folder = self.folders.get(name)
        return home / folder / name if folder else home / name

    def folder(self, home: Path, name: str) -> Path:
        """The folder ``name`` lives in: the home, or its subfolder."""
        folder = self.folders.get(name)
        return home / folder if folder else home

    @property
    def subfolders(self) -> tuple[str, ...]:
        """The folders below the top that hold a file of the map: where it lives, or where its agent's notes are."""
        demand = {pattern.rpartition("/")[0] for pattern in self.on_demand}
        return tuple(sorted((set(self.folders.values()) | demand) - {""}))

    def name_at(self, home: Path, path: Path) -> str | None:
        """The name the map gives the file at ``path`` (``MEMORY.md``, ``memory/2026-12-01.md``), or None when it is
        none of the home's: a bootstrap file where the map keeps it, or one its host's agent reads on demand."""
        try:
            relative = path.relative_to(home).as_posix()
        except ValueError:
            return None
        folder, _, base = relative.rpartition("/")
        if base in BOOTSTRAP_NAMES and self.folders.get(base, "") == folder:
            return base
        if any(fnmatch.fnmatchcase(relative, p) and p.count("/") == relative.count("/") for p in self.on_demand):
            return None if base in self.order and not folder else relative
        return None

    @property
    def contract_cap(self) -> bool:
        """Whether the contract's 2 MiB cap is what cuts a file next session: a toolnexus home (or none named).

        Hermes never cuts its stores (it limits their characters), OpenClaw cuts at its own UTF-16 caps and Claude
        Code MEMORY.md at 200 lines and 25,000 units: their loads say where, and 2 MiB is nothing to them.
        """
        return not registered(self.host).own_caps

    def reads_on_demand(self, name: str) -> bool:
        """Whether ``name`` (a path from the home's top) matches one of :attr:`on_demand`, folder for folder."""
        return any(fnmatch.fnmatchcase(name, p) and p.count("/") == name.count("/") for p in self.on_demand)

    def edits_whole(self, name: object) -> bool:
        """Whether ``name`` is a file beyond the seven that a hand edit (``E``, ``o``) may write: a Claude Code topic
        file, one its file map lists on demand directly in the memory folder, with a name the journal can hold.

        OpenClaw's daily notes are on demand too and stay refused: only Claude Code's topic files are edited whole."""
        return (
            registered(self.host).edits_topics
            and is_topic_name(name)
            and self.reads_on_demand(name)
            and name not in self.order
            and name not in self.host_files
        )

    def loads(self, name: str) -> bool:
        """Whether the host injects ``name`` (a file of its :attr:`order`) at the start of a session."""
        return name in self.order


FLAT = FileMap()
"""Every file at the top, no host known: a toolnexus home until something says otherwise."""

HERMES_ORDER = ("SOUL.md", "MEMORY.md", "USER.md")
"""What Hermes 0.19.0 loads from its home, in its system prompt's order (``agent/system_prompt.py``: the soul, then
the memory block, then the user block; its project context file comes from a working directory, not the home)."""
HERMES_FOLDER = "memories"
"""Where Hermes keeps MEMORY.md and USER.md under ``$HERMES_HOME`` (``tools/memory_tool.get_memory_dir``)."""


def hermes_files(memory_limit: int | None = None, user_limit: int | None = None) -> FileMap:
    """A Hermes home: SOUL.md at the top, the ``§`` stores in ``memories/`` with their limits (None: Hermes's own,
    read from its data by its host object)."""
    own = registered("hermes").limits()
    return FileMap(
        host="hermes",
        folders=MappingProxyType({"MEMORY.md": HERMES_FOLDER, "USER.md": HERMES_FOLDER}),
        dialect=Dialect.SECTIONS,
        limits=MappingProxyType(
            {"MEMORY.md": memory_limit or own["MEMORY.md"], "USER.md": user_limit or own["USER.md"]}
        ),
        order=HERMES_ORDER,
    )


def host_files(host: str) -> FileMap:
    """The flat file map of a host whose entry files are ``- `` lines and no notes read on demand (toolnexus)."""
    return FileMap(host=host, dialect=Dialect.LINES)


OPENCLAW_NOTES = "memory/*.md"
"""OpenClaw's daily notes (``memory/YYYY-MM-DD.md``, ``memory/YYYY-MM-DD-<slug>.md``) in the workspace."""


def openclaw_files(order: tuple[str, ...]) -> FileMap:
    """An OpenClaw workspace: flat, ``- `` lines, the release's files in ``order``, its daily notes on demand."""
    return FileMap(
        host="openclaw",
        dialect=Dialect.LINES,
        order=order,
        on_demand=(OPENCLAW_NOTES,),
        on_demand_note=(
            "OpenClaw's agent reads its daily notes itself: today's and yesterday's at the start of a session, the "
            "rest with memory_search and memory_get (docs.openclaw.ai, concepts/memory); none is injected"
        ),
    )


CLAUDE_CODE_ORDER = ("MEMORY.md",)
"""What Claude Code 2.1.332 injects from its auto-memory folder: MEMORY.md, cut at 200 lines and 25,000 units."""


def claude_code_files(instructions: Mapping[str, HostFile] | None = None) -> FileMap:
    """Claude Code's auto-memory folder: MEMORY.md injected, in ``- `` lines; every other ``*.md`` a topic file;
    ``instructions`` the CLAUDE.md chain it injects before MEMORY.md (read-only here)."""
    return FileMap(
        host_files=MappingProxyType(dict(instructions or {})),
        host="claude-code",
        dialect=Dialect.LINES,
        order=CLAUDE_CODE_ORDER,
        on_demand=("*.md",),
        on_demand_note=(
            "Claude Code reads a topic file when MEMORY.md or the task points it there; none is injected "
            "(code.claude.com/docs/en/memory, Auto memory)"
        ),
    )


DEMAND_CAP = 50
"""Files read on demand the list shows, newest name first: a year of daily notes would bury the injected ones."""


def on_demand_files(home: Path, files: FileMap, cap: int = DEMAND_CAP) -> tuple[tuple[str, ...], int]:
    """The regular files matching the map's :attr:`FileMap.on_demand` patterns that the host does not inject,
    newest name first (a daily note's date), at most ``cap``; and how many there are in all.

    Lists folders, reads no file; a folder that cannot be listed gives nothing (the doctor says why)."""
    found: set[str] = set()
    for pattern in files.on_demand:
        folder, _, glob = pattern.rpartition("/")
        place = home / folder if folder else home
        try:
            with os.scandir(place) as listing:
                for item in listing:
                    if fnmatch.fnmatchcase(item.name, glob) and item.is_file():
                        found.add(f"{folder}/{item.name}" if folder else item.name)
        except OSError:
            continue
    taken = {*files.order, *files.folders, *files.host_files}
    names = sorted((n for n in found if n not in taken), reverse=True)
    return tuple(names[:cap]), len(names)
