"""How much of one bootstrap file a host loads: the facts behind the budget and the meters.

Kept apart from :mod:`.soul` so that a host's loader and the doctor's budget
rules share one shape for "raw, loaded, cut where" whatever the unit.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FileLoad:
    """How much of one file a host loads, in the host's unit, and where its cut falls."""

    name: str
    unit: str
    """``bytes``, ``chars`` (code points) or ``utf16`` (JavaScript string length)."""
    raw: int
    """The file's content in that unit, before any cut."""
    loaded: int
    """How much of the content the session gets (without the host's markers)."""
    cap: int | None
    """The cap that applied to this file (the per-file cap, or what the total left)."""
    truncated: bool = False
    cut_line: int | None = None
    """The first line of the file (1-based) that is not loaded, whole or in part."""
    cut_offset: int | None = None
    """The byte offset in the file where what is not loaded begins."""
    resume_line: int | None = None
    """For a host that keeps the head and the tail: the line where the kept tail begins."""
    rendered: int = 0
    """The section body's length in the unit, markers and headers included."""
    budget: int | None = None
    """The host's own budget for the file (Hermes), which it flags but loads past."""

    @property
    def omitted(self) -> int:
        return max(0, self.raw - self.loaded)
