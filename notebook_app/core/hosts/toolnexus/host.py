"""toolnexus as one object: the contract a home opens as when no host says otherwise, and its Python package."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notebook_app.core.hostbase.host import Host
from notebook_app.core.hostbase.registry import register
from notebook_app.core.hosts.toolnexus.python import TITLE, starts_no_session

if TYPE_CHECKING:
    from notebook_app.core.home.soul import Composition


class Toolnexus(Host):
    """The toolnexus contract: a flat home of ``- `` lines, its soul composed by the contract's rules."""

    id = "toolnexus"
    title = "toolnexus"
    home_words = "the toolnexus home"
    archive = "memory/ARCHIVE.md"
    reads = "toolnexus reads every file at the top of its home"
    fallback = True
    detected = True


class ToolnexusPython(Toolnexus):
    """toolnexus (Python) 0.21.0: the contract's soul, but it starts no session on a file it cannot decode
    (:mod:`.python`); named only, never detected, never the default."""

    id = "toolnexus-py"
    title = "toolnexus (Python)"
    fallback = False
    detected = False
    reads = ""
    moves = False
    release = TITLE.rpartition(" ")[2]

    def starts_no_session(self, composition: Composition) -> str | None:
        return starts_no_session(composition)


TOOLNEXUS = register(Toolnexus())
TOOLNEXUS_PY = register(ToolnexusPython())
