"""What tidy proposes: hunks of entries, each with its kind, its reason in words, its evidence and a stable id.

Plain frozen data. A hunk's :attr:`Hunk.id` is a digest of its kind, its file
and the exact bytes it touches, so the same proposal recomputed on the same
bytes has the same ids, and a hunk whose bytes changed since (an agent wrote)
has none of the old ones: the later apply can tell a live hunk from a stale one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import Enum

from notebook_app.core.hostbase.registry import host as registered

DEFAULT_TARGET = 0.9
"""The share of a host's cap an over-budget plan brings a file to (issue 23)."""


def archive_for(host: str | None) -> str:
    """Where entries moved out of this host's files would go, from the home's top folder (Claude Code's: its memory
    folder; :attr:`.Host.archive`); an unknown host's is the contract's. A file no host loads (spec §9):
    :func:`.apply.apply_tidy` appends what it moves there."""
    return registered(host).archive


class Kind(Enum):
    """Why a hunk is proposed; the first two remove, the rest move to the archive (but EMPTY, which removes)."""

    EXACT_DUPLICATE = "exact duplicate"
    NEAR_DUPLICATE = "near duplicate"
    SUPERSEDED = "superseded"
    OVER_BUDGET = "over budget"
    EMPTY = "empty"

    @property
    def code(self) -> str:
        """The kind as ``--json`` names it: ``exact-duplicate``."""
        return self.name.lower().replace("_", "-")

    @property
    def removes(self) -> bool:
        """Nothing is deleted but exact copies and empty lines (spec §9); every other kind moves."""
        return self in (Kind.EXACT_DUPLICATE, Kind.EMPTY)


@dataclass(frozen=True)
class Entry:
    """One entry (or empty line) a hunk touches: where it is, its text, and the exact text it spans."""

    file: str
    """The logical name: ``MEMORY.md``."""
    line: int
    """The line it begins on, from 1."""
    text: str
    """The entry's text (after a ``- `` bullet; a ``§`` entry's whole stripped text); empty for an empty line."""
    raw: str = field(repr=False, compare=False)
    """Exactly what it spans in the file: a ``- `` line with its ending; a ``§`` entry's stripped text."""


@dataclass(frozen=True)
class Hunk:
    """One proposed change: the entries it takes out, why, and what says so."""

    kind: Kind
    file: str
    entries: tuple[Entry, ...]
    reason: str
    """In words, for a person: what goes, what stays, and where it goes."""
    evidence: tuple[tuple[str, str], ...] = ()
    """Named facts behind the reason: ``("ratio", "94")``, ``("key", "timezone")``, ``("kept", "line 3")``."""

    @property
    def id(self) -> str:
        """12 hex of the sha256 of the kind, the file and the exact bytes of every entry it touches."""
        digest = hashlib.sha256(f"{self.kind.name}\0{self.file}\0".encode())
        for entry in self.entries:
            digest.update(entry.raw.encode("utf-8", "surrogatepass"))
            digest.update(b"\0")
        return digest.hexdigest()[:12]


@dataclass(frozen=True)
class Stray:
    """A run of lines that are not entries (prose, headings): reported, never proposed for removal."""

    file: str
    first: int
    last: int
    count: int
    """Lines in the run that are not blank."""
    sample: str
    """Its first such line, stripped."""


@dataclass(frozen=True)
class Untidied:
    """A file tidy did not look into, and why, in words."""

    file: str
    reason: str


@dataclass(frozen=True)
class Proposal:
    """All tidy would do to a home's entry files: a dry run, nothing written."""

    host: str
    """The host the proposal is for: the file map's, else the profile's, else toolnexus."""
    archive: str
    """Where moved entries would go (:func:`archive_for`)."""
    target: float
    hunks: tuple[Hunk, ...] = ()
    strays: tuple[Stray, ...] = ()
    untidied: tuple[Untidied, ...] = ()
    looked_at: tuple[str, ...] = ()
    """The entry files read, in order."""

    def by_id(self, hunk_id: str) -> Hunk | None:
        return next((hunk for hunk in self.hunks if hunk.id == hunk_id), None)


SCHEMA = 1
"""The version of :func:`to_json`'s shape; a change of a key's meaning or a removed key raises it."""


def to_json(proposal: Proposal) -> dict[str, object]:
    """The proposal as one JSON object, its shape stable across releases of the same :data:`SCHEMA`."""
    return {
        "schema": SCHEMA,
        "dry_run": True,
        "host": proposal.host,
        "archive": proposal.archive,
        "target_percent": round(proposal.target * 100),
        "files": list(proposal.looked_at),
        "hunks": [
            {
                "id": hunk.id,
                "kind": hunk.kind.code,
                "file": hunk.file,
                "removes": hunk.kind.removes,
                "moves_to": None if hunk.kind.removes else proposal.archive,
                "reason": hunk.reason,
                "entries": [{"file": e.file, "line": e.line, "text": e.text} for e in hunk.entries],
                "evidence": dict(hunk.evidence),
            }
            for hunk in proposal.hunks
        ],
        "not_entries": [
            {"file": s.file, "first": s.first, "last": s.last, "lines": s.count, "sample": s.sample}
            for s in proposal.strays
        ],
        "not_tidied": [{"file": u.file, "reason": u.reason} for u in proposal.untidied],
    }
