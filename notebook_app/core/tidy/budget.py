"""A file's budget: the per-file cap its host applies, where the core knows it, and how the host measures it.

Hermes: the store's character limit from the file map (``FileMap.limits``),
measured as Hermes's own meter measures it (its entries joined, repeats
dropped: :func:`..memory.sections.store_usage`). A host profile with a
per-file cap: that cap in the profile's unit (Claude Code: 25,000 UTF-16
units, and its 200 lines). No host profile: the contract's 2 MiB, in bytes
(spec §2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from notebook_app.core.home.layout import Dialect, FileMap
from notebook_app.core.home.soul import MAX_FILE_BYTES
from notebook_app.core.memory import sections

if TYPE_CHECKING:
    from notebook_app.core.hosts.profile import HostProfile

UNIT_WORDS = {"bytes": "bytes", "chars": "characters", "utf16": "UTF-16 units"}


@dataclass(frozen=True)
class Budget:
    """A cap, the unit it counts in, and a line cap when the host has one; where the numbers come from."""

    cap: int
    unit: str
    """``bytes``, ``chars`` or ``utf16``."""
    lines: int | None = None
    source: str = ""

    def size(self, text: str, dialect: Dialect) -> int:
        """``text`` measured as the host measures it."""
        if dialect is Dialect.SECTIONS and self.unit == "chars":
            return sections.store_usage(text, self.cap).chars
        return measure(text, self.unit)

    def said(self) -> str:
        lines = f" and {self.lines:,} lines" if self.lines else ""
        return f"{self.cap:,} {UNIT_WORDS.get(self.unit, self.unit)}{lines} ({self.source})"


def measure(text: str, unit: str) -> int:
    if unit == "bytes":
        return len(text.encode("utf-8", "surrogatepass"))
    if unit == "utf16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text)


def budget_for(name: str, files: FileMap, profile: HostProfile | None) -> Budget:
    """The budget of entry file ``name``: the file map's limit, else the profile's cap, else the contract's."""
    if name in files.limits:
        return Budget(files.limits[name], "chars", source=f"{files.host or 'the host'}'s limit for {name}")
    if profile is not None and profile.file_cap:
        return Budget(profile.file_cap, profile.unit, profile.line_cap, source=f"{profile.title}'s per-file cap")
    return Budget(MAX_FILE_BYTES, "bytes", source="the contract's per-file cap")
