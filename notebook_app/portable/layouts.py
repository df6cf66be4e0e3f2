"""Where each host keeps each file of a persona: the one table a move reads in both directions.

The table is docs/portable.md's. A name maps to the same place whichever way a persona travels, so a file written
by an export is read back by an import: SOUL ↔ SOUL, MEMORY.md's and USER.md's entries ↔ Hermes's ``§`` stores,
AGENTS.md ↔ Claude Code's CLAUDE.md, and a file a host has no place for goes where that host keeps files it does
not load. Overflow files (entries past a cap) sit in each host's unloaded folder and are read back as entries.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from notebook_app.core.hostbase.export import Place
from notebook_app.core.hostbase.host import Host

ENTRY_FILES = ("MEMORY.md", "USER.md")
OVERFLOW = ".overflow.md"
"""``MEMORY.overflow.md``: the entries of ``MEMORY.md`` past the target's cap, in a file it does not load."""
PROSE = ".prose.md"
"""``MEMORY.prose.md``: the lines of an entry file that are no entries (a heading), where a ``§`` store has none."""


@dataclass(frozen=True)
class Layout:
    """One host's places for a persona's files."""

    host: Host
    files: dict[str, tuple[Place, str]]
    """Logical name -> (place, path from it) for the seven."""
    notes: tuple[Place, str]
    """The folder of notes (daily notes, topic files), from its place; ``""`` is the place itself."""
    archive: tuple[Place, str]
    side: tuple[Place, str]
    """The folder of overflow and prose files."""

    def note_path(self, base: str) -> tuple[Place, str]:
        place, folder = self.notes
        return place, f"{folder}/{base}" if folder else base

    def side_path(self, name: str, suffix: str) -> tuple[Place, str]:
        """Where ``MEMORY.md``'s overflow (``suffix`` :data:`OVERFLOW`) or prose goes."""
        place, folder = self.side
        base = name.removesuffix(".md") + suffix
        return place, f"{folder}/{base}" if folder else base


@cache
def layout_of(host: Host) -> Layout:
    """``host``'s layout, as its object holds it (the archives are tidy's, ``core/tidy`` ``archive_for``; a test
    holds them equal)."""
    export = host.export
    return Layout(host, dict(export.files), export.notes, export.archive, export.side)


def side_of(name: str) -> tuple[str, str] | None:
    """``("MEMORY.md", OVERFLOW)`` for ``MEMORY.overflow.md``: the entry file a side file belongs to; None if none."""
    for entry in ENTRY_FILES:
        for suffix in (OVERFLOW, PROSE):
            if name == entry.removesuffix(".md") + suffix:
                return entry, suffix
    return None
