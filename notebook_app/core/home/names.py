"""The seven bootstrap file names, in load order: a fact every layer of the core shares."""

from __future__ import annotations

BOOTSTRAP_ORDER: tuple[str, ...] = (
    "AGENTS.md",
    "SOUL.md",
    "IDENTITY.md",
    "USER.md",
    "TOOLS.md",
    "HEARTBEAT.md",
    "MEMORY.md",
)
"""The seven bootstrap files, in the order a soul is composed from them."""
