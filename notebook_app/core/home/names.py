"""The seven bootstrap file names, in load order: a fact every layer of the core shares."""

from __future__ import annotations

import re
from typing import TypeGuard

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


TOPIC_NAME_MAX = 64
"""The longest topic file name the journal names (slot 0 and the topic slot are 128 ASCII bytes each)."""
_TOPIC_NAME = re.compile(rf"[A-Za-z0-9][A-Za-z0-9._-]{{0,{TOPIC_NAME_MAX - 4}}}\.md")


def is_topic_name(name: object) -> TypeGuard[str]:
    """Whether ``name`` can be a topic file the journal names: a ``*.md`` directly in the folder, none of the seven.

    ASCII letters, digits, ``.``, ``-`` and ``_``, starting with a letter or digit (so never hidden, never ``..``,
    never a ``/``), at most :data:`TOPIC_NAME_MAX` bytes: the journal's slots are ASCII words split on spaces.
    Whether a home lets it be written is its file map's say (:meth:`.layout.FileMap.edits_whole`).
    """
    return isinstance(name, str) and name not in BOOTSTRAP_ORDER and _TOPIC_NAME.fullmatch(name) is not None


ARCHIVE_NAMES: tuple[str, ...] = ("memory/ARCHIVE.md", "memories/ARCHIVE.md", "ARCHIVE.md")
"""Where tidy moves entries (spec §9), from the folder it tidies: toolnexus and OpenClaw ``memory/``, Hermes
``memories/``, Claude Code its memory folder. The only file a write may put in ``memory/``, which it may make."""


ARCHIVE_FOLDERS: tuple[str, ...] = ("memory", "memories")
"""The folders an archive may be in: the next writer clears a killed tidy's temp files there too."""


def is_archive_name(name: object) -> bool:
    """Whether ``name`` is a tidy archive's path (:data:`ARCHIVE_NAMES`): it shares the journal's topic slot."""
    return name in ARCHIVE_NAMES
