"""OpenClaw's proven releases as data, a version resolved to the rules that cover it, and the load in force.

``openclaw-releases.toml`` lists each release whose goldens prove its rules
and the range of versions it covers. A partial version (``2026.9``) means its
newest proven release; a version inside a range uses that range's rules and
names the golden that proves them; a version in no range is refused with the
ranges listed; no version means the newest, named (:mod:`.versions`, one rule for every host).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from functools import cache
from importlib.resources import files as package_files
from pathlib import Path

from . import versions
from .openclaw_bootstrap import KINDS, OpenClawLoad, build

__all__ = ["KINDS", "OpenClawLoad", "openclaw_load", "ranges_in_words", "releases", "resolve_release"]


@cache
def releases() -> tuple[dict, ...]:
    text = (package_files("notebook_app.core.hosts") / "openclaw-releases.toml").read_text(encoding="utf-8")
    return tuple(tomllib.loads(text)["release"])


def ranges_in_words() -> str:
    return versions.ranges_in_words(releases())


def resolve_release(version: str | None) -> tuple[dict, str] | str:
    """The release whose rules cover ``version`` and a sentence saying which, or why none does."""
    return versions.resolve_version("openclaw", "OpenClaw", releases(), version)  # type: ignore[return-value]


def openclaw_load(
    home: str | os.PathLike[str], version: str | None = None, kind: str = "main", caps: Mapping[str, int] | None = None
) -> OpenClawLoad | str:
    """What OpenClaw ``version`` (None: the newest proven) injects from workspace ``home`` in a ``kind``
    session, or why that version or kind is not known. Never raises, never writes.

    ``caps`` (``file_cap``, ``total_cap``) are a user's own config numbers in place of the release's; the
    goldens ran with the defaults, so a note says the cuts at those numbers are not proven."""
    if kind not in KINDS:
        return f"no session kind {kind!r}; kinds: {', '.join(KINDS)}"
    found = resolve_release(version)
    if isinstance(found, str):
        return found
    rel, said = found
    if caps:
        rel = {**rel, **caps}
    root = Path(home).resolve()
    entries, skipped = build(root, rel, kind)
    notes = [said, f"session kind: {kind}"]
    if caps:
        numbers = ", ".join(f"{name.replace('_', ' ')} {value:,}" for name, value in caps.items())
        notes.append(f"your config's {numbers} in place of the release's: not proven by a golden")
    if "BOOTSTRAP.md" in rel["files"]:
        notes.append(
            str(rel.get("bootstrap_state", f"OpenClaw {rel['version']} injects BOOTSTRAP.md whenever it is there"))
        )
    total = rel.get("total_cap")
    return OpenClawLoad(
        str(rel["version"]),
        kind,
        tuple(entries),
        int(rel["file_cap"]),
        int(total) if total is not None else None,
        tuple(skipped),
        tuple(notes),
    )
