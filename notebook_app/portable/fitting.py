"""What a target host will load of a planned home, asked of the core's own host loaders.

:func:`probe` lays the planned files out as the target keeps them in a scratch folder (never the target) and runs
that host's loader over it (``load_as``; Claude Code's MEMORY.md through its own ``memory_text``, which needs no
home of the user's): each file loads or not, and where the loader cuts it, in its words. :func:`fitting` finds
how many of an entry file's entries fit before its loader cuts it, so the rest can go to an overflow file.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from notebook_app.core.hostbase.export import Place
from notebook_app.core.hostbase.host import Host
from notebook_app.core.hosts.named import load_as
from notebook_app.portable.layouts import layout_of

Spot = tuple[Place, str]


@dataclass(frozen=True)
class Loaded:
    """What the target's loader does with one planned file."""

    loads: bool
    cut: str | None = None
    """Where it cuts it, in words; None when it loads whole (or not at all)."""
    unasked: str = ""
    """Why the loader was not asked (a plan refused for secrets), in words; ``""`` when it was."""


def probe(host: Host, version: str | None, files: Mapping[Spot, str]) -> dict[Spot, Loaded]:
    """What ``host`` (at ``version``) loads of ``files``, by spot; a file it never loads is ``Loaded(False)``."""
    names = {spot: name for name, spot in layout_of(host).files.items()}
    found: dict[Spot, Loaded] = {spot: Loaded(False) for spot in files}
    if not host.export.scratch:  # the host answers from the texts (Claude Code's own memory_text)
        for spot, text in files.items():
            if spot in names:
                loads, cut = host.export_load(names[spot], text)
                if loads:
                    found[spot] = Loaded(True, cut)
        return found
    spec = f"{host.id}@{version}" if version else host.id
    with tempfile.TemporaryDirectory(prefix="persona-move-") as scratch:  # 0700 (mkdtemp), removed on leaving
        root = Path(scratch)
        for (place, path), text in files.items():
            if place is Place.HOME and (place, path) in names:
                target = root / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8", newline="")
        load = load_as(root, spec)
        if isinstance(load, str):
            return found
        parts = {part.name: part for part in load.parts}
        for spot in files:
            part = parts.get(names.get(spot, ""))
            if part is None or not part.loads:
                continue
            said = None
            if part.cut is not None:
                dropped = int(part.cut.get("dropped", 0))
                said = f"{host.title} cuts it at its cap: {dropped:,} {load.unit.value} of it not loaded"
            found[spot] = Loaded(True, said)
    return found


def fitting(count: int, fits: Callable[[int], bool]) -> int:
    """The most of ``count`` entries, taken in order, that ``fits`` says load uncut (binary search: a longer
    prefix never fits where a shorter one does not)."""
    if fits(count):
        return count
    low, high = 0, count  # fits(low) holds or low == 0; fits(high) does not
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            low = middle
        else:
            high = middle
    return low
