"""What opening a folder gives: the home the notebook works on, the host it opened as and why, or why it cannot.

Plain data, made by :func:`.choose.open_home`; the shells (the CLI, the MCP
server, the app) act on it and say its reason in their own words.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from notebook_app.core.home.layout import FileMap
from notebook_app.core.home.remembered import Remembered
from notebook_app.core.hostbase.registry import host as registered


class Chosen(Enum):
    """What decided the host, in the order they are asked."""

    GIVEN = "given"
    """Named by the caller (``--host``, or implied by ``--profile``, ``--agent``, ``--openclaw-config``)."""
    REMEMBERED = "remembered"
    """The host a person chose for this folder before (:func:`.remembered.remember_host`)."""
    DETECTED = "detected"
    """The folder's layout fits that host's and no other's."""
    FALLBACK = "fallback"
    """No host's layout fits: the toolnexus contract."""


@dataclass(frozen=True)
class Opening:
    """A home opened: its folder, its host and where that host keeps each file, and why it opened so."""

    root: Path
    """The folder the notebook works on (a Hermes home, not its ``memories/``; a Claude Code project root)."""
    host: str
    """``toolnexus``, ``openclaw``, ``hermes``, ``claude-code`` (or a person's own profile, when named)."""
    version: str | None
    """The host's version named with it (``openclaw@2026.4.27``); None: its newest proven release."""
    files: FileMap
    """Where each file is and how its entries are written; handed to the reading and writing side."""
    reason: str
    """Why it opened so, in words: ``opened as Hermes: the folder has memories/ and config.yaml``."""
    chosen: Chosen
    notes: tuple[str, ...] = ()
    """What else was read on the way (the config that named a workspace, the limits in force, what is not read)."""
    memory_dir: Path | None = None
    """Claude Code only: its auto-memory folder, ``~/.claude/projects/<slug>/memory/``."""
    agent: str | None = None
    """OpenClaw only: the agent whose workspace this is, when known."""
    remembered: Remembered | None = None
    """The choice kept for the folder, when it decided the host (with when it was made)."""
    layout: Opening | None = None
    """When the host was remembered: the folder opened by its layout alone (None: two hosts' layouts fit)."""

    @property
    def title(self) -> str:
        return registered(self.host).title

    @property
    def entry_home(self) -> Path:
        """The folder whose MEMORY.md (and USER.md) a write goes to, with our ``.notebook/`` beside them.

        Claude Code's auto-memory folder for a Claude Code project: its MEMORY.md is there, and nothing of ours
        goes into the project's tree (issue 22, item 6); the home itself for every other host.
        """
        return registered(self.host).entry_home(self.root, self.memory_dir)

    def remembered_write(self, name: str | None = None) -> str | None:
        """What a write to a remembered host says, one line: ``as Hermes, remembered for this folder since …: it
        writes memories/MEMORY.md; `--host toolnexus` writes MEMORY.md`` (``name``: the file the write goes to, its
        path said where the host keeps it elsewhere than the bare name); None when nothing was
        remembered, or toolnexus where the layout is toolnexus's too."""
        other = self.layout
        if self.chosen is not Chosen.REMEMBERED or self.remembered is None:
            return None
        if self.host == "toolnexus" and (other is None or other.host == "toolnexus"):
            return None  # the contract where the layout is the contract's: nothing moved
        said = f"as {self.title}, remembered for this folder{self.remembered.since_words}"
        instead = self.instead(name)
        if instead and name and self.files.relative(name) != name:
            # a Hermes store is named MEMORY.md in a write's words: its path here, or it reads as the layout's file
            said += f": it writes {self.files.relative(name)}"
        return f"{said}; {instead}" if instead else said

    def instead(self, name: str | None = None) -> str | None:
        """When a remembered host is not the layout's: what ``--host`` with the layout's host does instead
        (```--host toolnexus` writes MEMORY.md``); None otherwise."""
        other = self.layout
        if self.chosen is not Chosen.REMEMBERED or other is None or other.host == self.host:
            return None
        does = f"writes {other.files.relative(name)}" if name else "opens it as its layout has it"
        return f"`--host {other.host}` {does}"

    @property
    def spec(self) -> str:
        """The host as ``--host`` names it: ``NAME`` or ``NAME@VERSION``."""
        return f"{self.host}@{self.version}" if self.version else self.host


@dataclass(frozen=True)
class OpeningError:
    """Why no home was opened, in words; the shells exit with ``exit_code`` (a usage error)."""

    message: str
    exit_code: int = 2
