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

from notebook_app.core.hosts import versions
from notebook_app.core.hosts.openclaw.bootstrap import (
    OpenClawLoad,
    Workspace,
    build_entries,
    read_workspace,
    session_files,
)
from notebook_app.core.hosts.openclaw.kinds import KINDS

__all__ = [
    "KINDS",
    "OpenClawLoad",
    "kind_in_words",
    "load_of",
    "openclaw_load",
    "releases",
    "resolve_release",
    "ruled_release",
]


@cache
def releases() -> tuple[dict, ...]:
    text = (package_files(__package__) / "openclaw-releases.toml").read_text(encoding="utf-8")
    return tuple(tomllib.loads(text)["release"])


def resolve_release(version: str | None) -> tuple[dict, str] | str:
    """The release whose rules cover ``version`` and a sentence saying which, or why none does."""
    found = versions.resolve_version("openclaw", "OpenClaw", releases(), version)
    return found  # type: ignore[return-value]  # one of the dicts of releases(), typed as the Mapping it accepts


def ruled_release(
    version: str | None, kind: str = "main", caps: Mapping[str, int] | None = None
) -> tuple[dict, tuple[str, ...]] | str:
    """The rules in force for OpenClaw ``version`` in a ``kind`` session (``caps`` in place of the release's), and
    the notes that say which; or why that version or kind is not known."""
    if kind not in KINDS:
        return f"no session kind {kind!r}; kinds: {', '.join(KINDS)}"
    found = resolve_release(version)
    if isinstance(found, str):
        return found
    rel, said = found
    if caps:
        rel = {**rel, **caps}
    notes = [said, f"session kind: {kind}"]
    if caps:
        notes.append(caps_note(caps))
    if "BOOTSTRAP.md" in rel["files"]:
        notes.append(
            str(rel.get("bootstrap_state", f"OpenClaw {rel['version']} injects BOOTSTRAP.md whenever it is there"))
        )
    return rel, tuple(notes)


def kind_in_words(version: str | None, kind: str) -> str:
    """What a ``kind`` session of OpenClaw ``version`` (None: the newest proven) injects, in words: the files its
    release drops, or that it drops none; or why that version is not known."""
    found = resolve_release(version)
    if isinstance(found, str):
        return found
    rel = found[0]
    names = [str(name) for name in rel["files"]]
    kept = session_files(names, kind, rel)
    dropped = [name for name in names if name not in kept]
    if not dropped:
        return f"OpenClaw {rel['version']} drops no file in a {kind} session"
    return (
        f"OpenClaw {rel['version']} drops {', '.join(dropped)} in a {kind} session, "
        f"keeping {', '.join(kept) or 'no file'}"
    )


def caps_note(caps: Mapping[str, int]) -> str:
    numbers = ", ".join(f"{name.replace('_', ' ')} {value:,}" for name, value in caps.items())
    return f"your config's {numbers} in place of the release's: not proven by a golden"


def openclaw_load(
    home: str | os.PathLike[str], version: str | None = None, kind: str = "main", caps: Mapping[str, int] | None = None
) -> OpenClawLoad | str:
    """What OpenClaw ``version`` (None: the newest proven) injects from workspace ``home`` in a ``kind``
    session, or why that version or kind is not known. Never raises, never writes.

    ``caps`` (``file_cap``, ``total_cap``) are a user's own config numbers in place of the release's; the
    goldens ran with the defaults, so a note says the cuts at those numbers are not proven."""
    ruled = ruled_release(version, kind, caps)
    if isinstance(ruled, str):
        return ruled
    rel, notes = ruled
    return load_of(read_workspace(Path(home).resolve(), rel), rel, kind, notes)


def load_of(workspace: Workspace, rel: dict, kind: str, notes: tuple[str, ...]) -> OpenClawLoad:
    """The load OpenClaw builds from ``workspace`` (read from disk or from bytes already read) under ``rel``."""
    entries, skipped = build_entries(workspace, rel, kind)
    total = rel.get("total_cap")
    return OpenClawLoad(
        str(rel["version"]),
        kind,
        tuple(entries),
        int(rel["file_cap"]),
        int(total) if total is not None else None,
        tuple(skipped),
        notes,
    )
