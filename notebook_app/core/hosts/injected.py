"""One shape for what any host injects from a file: the part, its status and its cut.

Each proven loader (Hermes, OpenClaw, Claude Code) builds its own load from
its own rules, but a file's part is the same thing for all of them: where it
is, what became of it (:class:`PartStatus`), the exact text the host builds
from it, how long that is in the host's unit, and where a cut falls. One type
means one JSON writer (:func:`load_json`) and one place the doctor and the
panes can read a host's load from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from notebook_app.core.hosts.utf16 import len16


class PartStatus(StrEnum):
    """What a host did with one file (the ``status`` of ``soul --json``'s ``files[]``)."""

    INJECTED = "injected"
    CUT = "cut"
    MISSING = "missing"
    """Not there; a host may still inject a marker for it (OpenClaw's ``[MISSING] Expected at``)."""
    SKIPPED = "skipped"
    UNREADABLE = "unreadable"
    SEEDED = "seeded"
    """Not there, and the host writes its own default at its next start (Hermes's SOUL.md)."""
    FAILED = "failed"
    """The host's own load fails on it (Hermes 0.19.0 on memory that is not UTF-8)."""


class Unit(StrEnum):
    """What a host measures lengths in."""

    BYTES = "bytes"
    UTF16 = "utf16"
    CODEPOINTS = "codepoints"

    def length(self, text: str) -> int:
        if self is Unit.UTF16:
            return len16(text)
        if self is Unit.BYTES:
            return len(text.encode("utf-8", "surrogatepass"))
        return len(text)


@dataclass(frozen=True)
class InjectedPart:
    """One file as a host loads it, in that host's order."""

    name: str
    """The file as a person names it (SOUL.md, ../CLAUDE.md, memories' MEMORY.md as MEMORY.md)."""
    path: str
    """Where it is, as the host writes it (relative to the home, or absolute)."""
    status: PartStatus
    injected: str | None
    """The exact text the host builds from the file; None when it builds nothing."""
    raw_len: int | None = None
    """The file's text in the unit, before any cut; None when it was not read."""
    note: str = ""
    cut: Mapping[str, int] | None = None
    """{head_end, tail_start, dropped} in the unit, of the text that was cut."""
    markers: tuple[str, ...] = ()
    unit: Unit = Unit.CODEPOINTS
    kind: str | None = None
    """The host's own word for the file's place (Claude Code: Project, Local, User, AutoMem)."""
    imported_by: str | None = None
    """The file whose ``@path`` import brought this one in (Claude Code)."""

    @property
    def injected_len(self) -> int:
        return self.unit.length(self.injected) if self.injected is not None else 0

    @property
    def loads(self) -> bool:
        return self.status in (PartStatus.INJECTED, PartStatus.CUT)


class HostLoad(Protocol):
    """What each proven loader returns: its parts in the host's order, and the words around them."""

    @property
    def host(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def unit(self) -> Unit: ...
    @property
    def parts(self) -> tuple[InjectedPart, ...]: ...
    @property
    def notes(self) -> tuple[str, ...]: ...
    @property
    def injected_total(self) -> int: ...
    @property
    def caps(self) -> Mapping[str, int | None]:
        """The caps in force, by name (``cap`` the total; ``file_cap``), as ``total`` shows them."""
        ...


TOKENIZER = "o200k_base"
"""The tokenizer of ``tokens``: no host publishes its own for every model, so one public vocabulary, named."""


def load_json(load: HostLoad, *, extra: Mapping[str, object] | None = None) -> dict[str, object]:
    """``soul --json``'s issue-21 keys for any proven host: ``host_version``, ``unit``, ``total``, ``files[]``,
    ``tokenizer``, ``notes``; ``extra`` is the host's own keys, after ``unit``."""
    from notebook_app.core.text.tokens import count_tokens  # lazy: the tokenizer

    tokens = [count_tokens(part.injected, TOKENIZER) if part.injected is not None else None for part in load.parts]
    files = [_part_json(part, count) for part, count in zip(load.parts, tokens, strict=True)]
    total = {"injected": load.injected_total, **load.caps}
    return {
        "host_version": load.version,
        "unit": load.unit.value,
        **dict(extra or {}),
        "total": {**total, "tokens": sum(count or 0 for count in tokens)},
        "tokenizer": TOKENIZER,
        "files": files,
        "notes": list(load.notes),
    }


def _part_json(part: InjectedPart, tokens: int | None) -> dict[str, object]:
    data: dict[str, object] = {"name": part.name, "path": part.path}
    if part.kind is not None:
        data["kind"] = part.kind
    data.update(
        status=part.status.value,
        raw_len=part.raw_len,
        injected=part.injected,
        injected_len=part.injected_len,
        cut=dict(part.cut) if part.cut is not None else None,
        markers=list(part.markers),
        tokens=tokens,
    )
    if part.kind is not None:
        data["imported_by"] = part.imported_by
    data["note"] = part.note
    return data
