"""Where a host keeps each file of a persona that travels between hosts: its export layout (docs/portable.md).

Each host's object holds its layout (:attr:`.host.Host.export`); ``portable`` reads a move both ways from it, so
a file written by an export is read back by an import. Plain data, at the bottom of the core with the Host base.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

SEVEN = ("AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "TOOLS.md", "HEARTBEAT.md", "MEMORY.md")
"""The contract's bootstrap files, in its order."""
ARCHIVE = "ARCHIVE.md"
"""The logical name of the archive tidy moves entries to (spec §9), a note to a move."""


class Place(Enum):
    """Which folder of a target a file is written in: a Claude Code move writes two, every other host one."""

    HOME = "home"
    """The home: the toolnexus home, the OpenClaw workspace, ``$HERMES_HOME``; for Claude Code its project."""
    MEMORY = "memory"
    """Claude Code's auto-memory folder, ``<config dir>/projects/<slug>/memory/``."""


Spot = tuple[Place, str]
"""A place and the path from it (``""``: the place itself)."""


@dataclass(frozen=True)
class ExportLayout:
    """One host's places for a persona's files."""

    files: Mapping[str, Spot]
    """Logical name -> (place, path from it) for the seven."""
    notes: Spot
    """The folder of notes (daily notes, topic files), from its place; ``""`` is the place itself."""
    archive: Spot
    side: Spot
    """The folder of overflow and prose files."""
    stores: str = ""
    """The folder of its ``§`` stores (Hermes's ``memories``): MEMORY.md and USER.md there hold ``§`` entries, read
    as it reads them, and the folder is what makes a folder its home; ``""``: its entry files hold ``- `` lines."""
    instructions: tuple[str, ...] = ()
    """The files AGENTS.md is read from, the first there (Claude Code's CLAUDE.md chain); any other there travels
    as a note. ``()``: AGENTS.md is read from its place in :attr:`files` only."""
    unloaded: frozenset[str] = frozenset()
    """Those of the seven it never loads (Claude Code's USER.md): written whole, their entries never cut."""
    unloaded_words: tuple[tuple[Place, str, str], ...] = ()
    """Why a file it does not inject is not loaded, in words, by place and path prefix (``""``: any path there)."""
    scratch: bool = True
    """Its loader is asked what it loads over a copy of the planned files laid out in a scratch folder; False: the
    host's object answers from the texts alone (:meth:`.host.Host.export_load`), nothing laid out."""

    @property
    def places(self) -> frozenset[Place]:
        """The places its files go: the home, and for a host that writes two places its second."""
        return frozenset({place for place, _ in (*self.files.values(), self.notes, self.archive, self.side)})


def flat_layout() -> ExportLayout:
    """Every file at the top of the home, notes and the archive in ``memory/``: the contract's layout."""
    return ExportLayout(
        MappingProxyType({name: (Place.HOME, name) for name in SEVEN}),
        (Place.HOME, "memory"),
        (Place.HOME, f"memory/{ARCHIVE}"),
        (Place.HOME, "memory"),
    )
