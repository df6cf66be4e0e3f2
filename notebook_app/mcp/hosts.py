"""Which homes the server serves: the contract's memory tool only where it cannot mix dialects (spec §9)."""

from __future__ import annotations

from pathlib import Path


def host_refusal(root: Path) -> str | None:
    """Why this server must not serve ``root``, opened as the CLI opens it (spec §9); None: serve the contract.

    A Hermes home or a Claude Code project keeps its memory in its host's own dialect, written by that
    host's own tool: the contract's ``- `` lines would damage it. An OpenClaw workspace and a toolnexus
    home are served unchanged."""
    from ..core.hosts import OpeningError, open_home

    opening = open_home(root)
    if isinstance(opening, OpeningError):
        return (
            f"{opening.message}; this server takes no --host: choose once with "
            f"persona-notebook doctor --home {root} --host NAME, and the choice is remembered"
        )
    if opening.host not in ("hermes", "claude-code"):
        return None
    return (
        f"{root} is a {opening.title} home ({opening.reason}): use {opening.title}'s own memory tool. "
        f"This server's tool writes the contract's '- ' lines, which would mix dialects in {opening.title}'s "
        "files; nothing was served"
    )
