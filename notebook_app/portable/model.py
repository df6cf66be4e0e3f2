"""What a move between hosts is made of: the persona read, the plan, and why either could not be made.

Plain data. A :class:`Persona` is read from any host's home (:mod:`.reading`); a :class:`Plan` says, file by file
and entry by entry, what a target host's home will hold (:mod:`.planning`); :func:`.writing.apply_plan` writes
exactly the plan. Nothing here reads or writes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from notebook_app.core.hostbase.export import Place
from notebook_app.core.hostbase.host import Host


class Role(Enum):
    """What a persona's file is to a move: its entries travel one by one, anything else travels whole."""

    ENTRIES = "entries"
    """MEMORY.md and USER.md: entries, each placed, merged or moved to an overflow file."""
    WHOLE = "whole"
    """The other bootstrap files (SOUL, AGENTS, IDENTITY, TOOLS, HEARTBEAT): their text, byte for byte."""
    NOTE = "note"
    """A file the host's agent reads on demand or never: a daily note, a topic file (named ``notes/X.md``)."""
    ARCHIVE = "archive"
    """The archive tidy moves entries to (named ``ARCHIVE.md``): to the target's archive, whole."""


class Fate(Enum):
    """What becomes of one entry in the target."""

    LOADED = "loaded"
    """In the target's entry file, which the target loads next session."""
    OVERFLOW = "overflow"
    """Past the target's cap: in an overflow file the target does not load (never dropped)."""
    MERGED = "merged"
    """An exact copy of an earlier entry: the target's own tool keeps one (Hermes drops repeats)."""
    PRESENT = "present"
    """A merge into an existing home: the home holds that entry already, so it is not added again."""
    UNLOADED = "unloaded"
    """In a file the target has no place to load (Claude Code has no USER.md): kept, said so."""


@dataclass(frozen=True)
class Entry:
    """One entry as its source file holds it: its stripped text, and where it is."""

    text: str
    file: str
    """The file as the source home names it (``memories/MEMORY.md``)."""
    line: int
    """The line it begins on, from 1."""


@dataclass(frozen=True)
class PersonaFile:
    """One file of a persona, under its logical name: ``SOUL.md``, ``MEMORY.md``, ``notes/2026-12-01.md``."""

    name: str
    role: Role
    path: str
    """Where the source host keeps it, from its place (``memories/USER.md``, ``CLAUDE.md``)."""
    text: str
    entries: tuple[Entry, ...] = ()
    """ENTRIES only: its entries in order (an overflow file's read back after them)."""
    prose: tuple[str, ...] = ()
    """ENTRIES only: its lines that are no entries (a heading), in order."""
    read_back: int = 0
    """ENTRIES only: how many of its entries were read back from an overflow or prose file, not from ``text``."""


@dataclass(frozen=True)
class Persona:
    """A persona read from one host's home: its files in the contract's order, then its notes."""

    host: Host
    """The host it was read from, the registry's object (:func:`.registry.host`)."""
    root: Path
    files: tuple[PersonaFile, ...]
    memory_dir: Path | None = None
    """A host that writes two places (Claude Code): its second folder, the one it was read from."""
    texts: tuple[tuple[str, str], ...] = ()
    """Every text read from the home, by the path it came from: the seven, the side files, the notes."""

    def file(self, name: str) -> PersonaFile | None:
        return next((f for f in self.files if f.name == name), None)

    def scanned(self) -> tuple[tuple[str, str], ...]:
        """The texts the secret check scans, each with its path: every text read, and each file's own where its
        path was not read (a persona made by hand). Two places may hold one path (Claude Code's project and memory
        folder, ``CLAUDE.md``): both are scanned."""
        read = {path for path, _ in self.texts}
        return self.texts + tuple((f.path, f.text) for f in self.files if f.path not in read)


def digest(data: bytes) -> str:
    """The digest a plan keeps of a file it found, so a write can tell the file changed since."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class PlannedFile:
    """One file the target will hold: where, its exact text, what it was before, and what the target does with it."""

    place: Place
    path: str
    """From its place's folder (``memories/MEMORY.md``)."""
    text: str
    source: str
    """The path in the source home it carries (``memories/MEMORY.md``, ``memory/2026-12-06.md``), or
    ``MEMORY.md (overflow)``: the real path a person finds there, never the move's own name (``notes/…``)."""
    loads: bool
    """Whether the target injects it at the start of a session (its loader says so)."""
    note: str = ""
    """What the target does with it, in words: where it cuts it, that it reads it on demand, that it never loads it."""
    before: str | None = None
    """The digest of the file found there when planning; None: nothing was there."""

    @property
    def unchanged(self) -> bool:
        """The file there holds this text already, byte for byte: said so, and not written."""
        return self.before is not None and self.before == digest(self.text.encode("utf-8"))


@dataclass(frozen=True)
class Placement:
    """Where one source entry lands: its target file and entry number there, and its fate."""

    entry: Entry
    fate: Fate
    place: Place
    path: str
    number: int | None = None
    """Its entry number in the target file, from 1; None when it is not written (merged, present)."""
    changed: str = ""
    """How its text was changed to fit the target's dialect, in words (a Hermes entry's lines joined)."""


@dataclass(frozen=True)
class Cut:
    """A cut the target's loader makes in a planned file at its caps: the file is written whole, loaded cut."""

    place: Place
    path: str
    words: str


@dataclass(frozen=True)
class SecretHit:
    """A secret the doctor found in a source file: its rule, file and line; never its text."""

    rule: str
    file: str
    line: int | None

    def words(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{self.rule} at {where}"


@dataclass(frozen=True)
class Plan:
    """A move, before anything is written: every file the target will hold and every entry's place."""

    source: Persona
    host: Host
    version: str | None
    places: dict[Place, Path]
    merge: bool
    files: tuple[PlannedFile, ...]
    placements: tuple[Placement, ...]
    cuts: tuple[Cut, ...] = ()
    secrets: tuple[SecretHit, ...] = ()
    allow_secrets: bool = False
    notes: tuple[str, ...] = field(default=())

    @property
    def refusal(self) -> str | None:
        """Why the plan may not be applied (a secret would leave home), in words naming no secret's text."""
        if self.secrets and not self.allow_secrets:
            named = "; ".join(hit.words() for hit in self.secrets)
            return f"the source holds secrets the doctor found ({named}); nothing written (--allow-secrets moves them)"
        return None

    @property
    def spec(self) -> str:
        return f"{self.host.id}@{self.version}" if self.version else self.host.id

    def path_of(self, file: PlannedFile) -> Path:
        return self.places[file.place] / file.path


@dataclass(frozen=True)
class Problem:
    """Why no plan was made or no plan written, in words; ``usage`` problems are the caller's (exit 2), others 1."""

    message: str
    usage: bool = True

    @property
    def exit_code(self) -> int:
        return 2 if self.usage else 1


@dataclass(frozen=True)
class Applied:
    """A plan written: the files, each by its path."""

    written: tuple[Path, ...]
