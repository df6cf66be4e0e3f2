"""Where a home's files are, and how its entry files are written: the file map a host hands the reading side.

A toolnexus home, an OpenClaw workspace and a Claude Code memory folder keep
every file at the top (:data:`FLAT`); a Hermes home keeps SOUL.md at the top
and its entry files in ``memories/`` (:func:`hermes_files`). Every name the
core passes around stays the logical one (``MEMORY.md``): the journal's slots,
the event log and the panes all say that; only :meth:`FileMap.path` knows the
folder. Pure data, chosen once when a home is opened (``hosts.opening``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from types import MappingProxyType

from .names import BOOTSTRAP_ORDER


class Dialect(Enum):
    """How an entry file separates its entries (spec §9)."""

    LINES = "'- ' line"
    """The contract's: one ``- text`` line per entry (toolnexus, OpenClaw, Claude Code's MEMORY.md)."""
    SECTIONS = "'§'-separated entry"
    """Hermes's: entries joined by a line holding only ``§``; an entry may span lines."""


_EMPTY: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True)
class FileMap:
    """The home's host, the folder of each file that is not at the top, and its entry files' dialect and limits."""

    host: str | None = None
    """The host the home was opened as; None when none is known (content then decides an entry file's dialect)."""
    folders: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    """Logical name -> the subfolder it lives in (``memories``); a name not here is at the top."""
    dialect: Dialect | None = None
    """The entry files' dialect; None: decided by each file's content (:func:`..memory.dialect.dialect_in`)."""
    limits: Mapping[str, int] = field(default_factory=lambda: _EMPTY)
    """Entry file -> its character limit, where the host has one (Hermes)."""
    order: tuple[str, ...] = BOOTSTRAP_ORDER
    """The files the host loads from the home, in its order: what the file list shows and ``1``–``9`` pick."""
    read_only: frozenset[str] = frozenset()
    """Files the host's profile says the notebook must never write (``read_only = true``): every write refuses."""

    def relative(self, name: str) -> str:
        """``memories/MEMORY.md``: where ``name`` is, from the home's top folder."""
        folder = self.folders.get(name)
        return f"{folder}/{name}" if folder else name

    def path(self, home: Path, name: str) -> Path:
        folder = self.folders.get(name)
        return home / folder / name if folder else home / name

    def folder(self, home: Path, name: str) -> Path:
        """The folder ``name`` lives in: the home, or its subfolder."""
        folder = self.folders.get(name)
        return home / folder if folder else home

    @property
    def subfolders(self) -> tuple[str, ...]:
        return tuple(sorted(set(self.folders.values())))


FLAT = FileMap()
"""Every file at the top, no host known: a toolnexus home until something says otherwise."""

HERMES_ORDER = ("SOUL.md", "MEMORY.md", "USER.md")
"""What Hermes 0.19.0 loads from its home, in its system prompt's order (``agent/system_prompt.py``: the soul, then
the memory block, then the user block; its project context file comes from a working directory, not the home)."""
HERMES_FOLDER = "memories"
"""Where Hermes keeps MEMORY.md and USER.md under ``$HERMES_HOME`` (``tools/memory_tool.get_memory_dir``)."""


def hermes_files(memory_limit: int = 2200, user_limit: int = 1375) -> FileMap:
    """A Hermes home: SOUL.md at the top, the ``§`` stores in ``memories/`` with their limits."""
    return FileMap(
        host="hermes",
        folders=MappingProxyType({"MEMORY.md": HERMES_FOLDER, "USER.md": HERMES_FOLDER}),
        dialect=Dialect.SECTIONS,
        limits=MappingProxyType({"MEMORY.md": memory_limit, "USER.md": user_limit}),
        order=HERMES_ORDER,
    )


def host_files(host: str) -> FileMap:
    """The flat file map of a host whose entry files are ``- `` lines (toolnexus, OpenClaw, Claude Code)."""
    return FileMap(host=host, dialect=Dialect.LINES)
