"""Hermes Agent 0.19.0: what it injects from ``$HERMES_HOME`` (its SOUL.md, one project context file, the
``§`` entries of ``memories/``), as its own code builds each part, and the settings of its ``config.yaml``
that change that. ``load`` builds the parts; ``config`` reads the config. Names load on first use.
"""

from __future__ import annotations

from ...lazy import lazy_face

lazy_face(
    __name__,
    {
        "HermesLoad": "load",
        "NOT_MODELLED": "load",
        "SEEDS_SOUL": "load",
        "file_cap": "load",
        "hermes_load": "load",
        "hermes_version": "load",
        "HermesConfig": "config",
        "read_config": "config",
    },
)

__all__ = [
    "NOT_MODELLED",
    "SEEDS_SOUL",
    "HermesConfig",
    "HermesLoad",
    "file_cap",
    "hermes_load",
    "hermes_version",
    "read_config",
]
