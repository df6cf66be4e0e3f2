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


HOST_FOLDERS: tuple[str, ...] = ("memories",)
"""The only subfolders a bootstrap file may be in: Hermes's ``memories/`` (:mod:`.layout`)."""


def is_home_path(name: object) -> bool:
    """Whether ``name`` is a bootstrap file's path in a home: ``MEMORY.md``, or ``memories/MEMORY.md``; never ``..``."""
    if not isinstance(name, str):
        return False
    folder, _, base = name.rpartition("/")
    return base in BOOTSTRAP_ORDER and (not folder or folder in HOST_FOLDERS)


def base_name(name: str) -> str:
    """``MEMORY.md`` for ``memories/MEMORY.md``: which bootstrap file a path of the home is.

    The store names a file by its path from the home's top folder, which is
    the bare name everywhere but in a Hermes home (:mod:`.layout`); what a
    file is (an entry file, which journal slot is its own) goes by this.
    """
    return name.rpartition("/")[2]
