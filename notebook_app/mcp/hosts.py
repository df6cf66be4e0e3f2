"""Which homes the server serves, and how: the contract's memory tool in each home's own dialect (spec §9)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hosts.choice import resolve_host
from notebook_app.core.hosts.opening.choose import open_home
from notebook_app.core.hosts.opening.result import OpeningError
from notebook_app.core.hosts.profile import HostProfile


@dataclass(frozen=True)
class ServedHome:
    """The home a server serves: its folder, where its host keeps the entry files, and the host its soul is
    composed as (None: the contract's)."""

    root: Path
    files: FileMap = FLAT
    host: HostProfile | None = None


def served_home(root: Path) -> ServedHome | str:
    """How this server serves ``root``, opened as the CLI opens it (spec §9), or why it must not serve it.

    A Hermes home (or its ``memories/`` folder) is served in Hermes's ``§`` dialect, its soul composed as
    Hermes loads it; a Claude Code project is refused (its memory is written by Claude Code's own tool). An
    OpenClaw workspace and a toolnexus home are served the contract unchanged."""

    opening = open_home(root)
    if isinstance(opening, OpeningError):
        return (
            f"{opening.message}; this server takes no --host: choose once with "
            f"persona-notebook doctor --home {root} --host NAME, and the choice is remembered"
        )
    if registered(opening.host).own_memory_tool:
        return (
            f"{root} is a {opening.title} home ({opening.reason}): use {opening.title}'s own memory tool. "
            f"This server's tool writes the contract's '- ' lines, which would mix dialects in {opening.title}'s "
            "files; nothing was served"
        )
    if not registered(opening.host).serves_with_profile:
        return ServedHome(root)
    return ServedHome(opening.root, opening.files, resolve_host(opening.spec).profile)
