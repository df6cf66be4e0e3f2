"""The file list's rows: what the host injects, in its order, then what its agent reads on demand, then the rest.

Each row names the file's part in the next session, in words (issue 22, item
3): the host injects it (whole or cut), its agent reads it on demand, or it is
in the home and the host does not load it. Pure: built from a
:class:`.notebook.HomeState`. No Textual.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from notebook_app.core.home.reading import MEMORY_TARGETS
from notebook_app.core.home.soul import BOOTSTRAP_ORDER
from notebook_app.core.hostbase.registry import host as registered

if TYPE_CHECKING:
    from notebook_app.app.view_model.notebook import HomeState
    from notebook_app.core.hosts.openclaw.pane import OpenClawPane


class Part(Enum):
    """A file's part in the next session as the host in view loads it."""

    INSTRUCTIONS = "instructions"
    """The host injects it from outside the home (Claude Code's CLAUDE.md chain): shown, never written here."""
    INJECTED = "injected"
    """The host injects it whole."""
    CUT = "cut"
    """The host injects it, cut at its cap."""
    ABSENT = "absent"
    """The host would inject it; it is not there."""
    ON_DEMAND = "on demand"
    """The host's agent reads it when it chooses to (OpenClaw's daily notes, Claude Code's topic files)."""
    NOT_LOADED = "not loaded"
    """It is in the home (or cannot be read) and the host does not load it."""


@dataclass(frozen=True)
class FileRow:
    name: str
    """The file as the list names it: ``MEMORY.md``, ``memory/2026-12-01.md``."""
    part: Part
    why: str = ""
    """Why it does not load, when it does not (the host's words), else empty."""


def file_rows(state: HomeState) -> tuple[FileRow, ...]:
    """The list of ``state``'s home: what the host injects from outside it (Claude Code's CLAUDE.md chain), the
    host's files in its order, those read on demand, then any other bootstrap file that is there but not loaded."""
    composition = state.preview.composition
    skipped = {s.name: s.message for s in composition.skipped}
    order = state.layout.order
    rows = [
        FileRow(name, Part.INSTRUCTIONS if name in state.files else Part.ABSENT) for name in state.layout.host_files
    ]
    for name in order:
        live = state.files.get(name)
        if live is None:
            rows.append(FileRow(name, Part.ABSENT))
        elif composition.file(name) is None:
            rows.append(FileRow(name, Part.NOT_LOADED, skipped.get(name, "")))
        else:
            load = composition.load(name)
            cut = (load is not None and load.truncated) or live.dropped_bytes > 0
            rows.append(FileRow(name, Part.CUT if cut else Part.INJECTED))
    rows += (FileRow(name, Part.ON_DEMAND) for name in state.on_demand)
    if state.archive is not None:
        rows.append(FileRow(state.archive, Part.NOT_LOADED, f"tidy's archive: {_host(state)} does not load it"))
    for name in BOOTSTRAP_ORDER:
        if name not in order and name in state.files:
            rows.append(FileRow(name, Part.NOT_LOADED, f"{_host(state)} does not load {name}"))
    return tuple(rows)


def _host(state: HomeState) -> str:
    profile = state.preview.composition.profile
    return profile.title if profile is not None else "the host"


def host_lacks(state: HomeState, name: str) -> str | None:
    """``this host has no USER.md`` when the host the home opened as has no such file, else None."""
    layout = state.layout
    if registered(layout.host).fallback or name in layout.order or name in layout.host_files:
        return None
    return f"this host has no {name}"


@dataclass(frozen=True)
class OneTarget:
    """The host has a single entry file: ``t`` has nowhere to go, and says so."""

    words: str


def next_target(order: tuple[str, ...], target: str) -> str | OneTarget:
    """``t``: the memory tool's target after ``target`` among the host's entry files, in the tool's order (toolnexus:
    ``self`` MEMORY.md ⇄ ``user`` USER.md); a host that loads one entry file keeps it."""
    targets = [name for name, file in MEMORY_TARGETS.items() if file in order] or list(MEMORY_TARGETS)
    if len(targets) < 2:
        return OneTarget(f"this host has one entry file: {MEMORY_TARGETS[targets[0]]}")
    at = targets.index(target) if target in targets else -1
    return targets[(at + 1) % len(targets)]


def host_pane(state: HomeState, name: str) -> OpenClawPane | None:
    """OpenClaw's words and cap for ``name``'s pane when the next session is OpenClaw's load; None for another host."""
    composition = state.preview.composition
    return registered(composition.host).pane(name, composition)
