"""Which hosts a home may be previewed as, and why each other one is not (issue 22, item 1).

A toolnexus home (no host's layout) can be previewed as any host: that is
what the palette is for. A home opened as a host is previewed as that host's
own releases (and OpenClaw's session kinds), and as another host only where
that host's layout also fits the files on disk (:func:`.detect.layout_fits`):
showing Hermes's load of an OpenClaw workspace would show a MEMORY.md Hermes
never reads. A person's own host profiles preview only a toolnexus home (no
golden says where their files are).

Choosing a release of the host the home was opened as is remembered for the
folder; a preview of another host is not: remembered, it would make the next
open read and write the home in that host's layout, a write the user did not
point at.

:func:`preview_hosts` is the rule, pure; :func:`previews_of` reads the layout
and the host profiles for it and never writes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from notebook_app.core.hosts.opening.detect import Fit, layout_fits
from notebook_app.core.hosts.opening.result import title
from notebook_app.core.hosts.profile import HostProfile, load_hosts

TOOLNEXUS = "toolnexus"

_KEEPS = {
    "hermes": ("a Hermes home", "its stores are in memories/", "them"),
    "claude-code": ("a Claude Code project", "its memory is in Claude Code's auto-memory folder", "it"),
    "openclaw": ("an OpenClaw workspace", "its files are at its top, in '- ' lines", ""),
}
"""Per host a home opened as: what it is, where it keeps its files, and (when the others look elsewhere) the word
for them."""

_READS = {
    "hermes": "Hermes keeps MEMORY.md and USER.md in memories/ beside config.yaml or SOUL.md",
    "claude-code": "Claude Code reads MEMORY.md from its auto-memory folder, for a project with CLAUDE.md",
    "openclaw": "OpenClaw reads a workspace its config names, or one beside openclaw.json",
    TOOLNEXUS: "toolnexus reads every file at the top of its home",
}
"""Per host left out of a flat home: where that host would look instead."""


@dataclass(frozen=True)
class LeftOut:
    """A host profile the home is not previewed as, and why, in words."""

    name: str
    """The profile's name (``openclaw``, ``toolnexus-py``, a person's own)."""
    reason: str


@dataclass(frozen=True)
class Previews:
    """The host profiles a home may be previewed as, those left out with their reasons, and what is remembered."""

    opened_as: str
    """The host the home was opened as (``toolnexus`` when none)."""
    offered: tuple[str, ...]
    """Profile names, sorted; each one's proven releases are offered with it."""
    left_out: tuple[LeftOut, ...] = ()

    def offers(self, spec: str) -> bool:
        """Whether ``NAME[@VERSION]`` is a host this home may be previewed as."""
        return spec.partition("@")[0] in self.offered

    def remembers(self, spec: str) -> bool:
        """Whether choosing ``NAME[@VERSION]`` is kept for the folder: a release of the host it was opened as.

        A toolnexus home's choices are previews; so is another host whose layout also fits."""
        return self.opened_as != TOOLNEXUS and spec.partition("@")[0] == self.opened_as

    def why_not(self, name: str) -> str | None:
        return next((left.reason for left in self.left_out if left.name == name), None)


def layout_host(profile: HostProfile) -> str:
    """The host whose layout a profile reads a home in: its proven loader's, else toolnexus's (files at the top)."""
    return profile.proven or TOOLNEXUS


def preview_hosts(opened_as: str | None, fits: Iterable[Fit], profiles: Mapping[str, HostProfile]) -> Previews:
    """Which of ``profiles`` a home opened as ``opened_as`` (None: toolnexus) may be previewed as, given the hosts
    whose layout its folder fits (``fits``, from :func:`layout_fits`)."""
    opened = opened_as or TOOLNEXUS
    if opened == TOOLNEXUS:
        return Previews(TOOLNEXUS, tuple(sorted(profiles)))
    fitting = {fit.host for fit in fits} | {opened}
    if opened not in ("hermes", "claude-code"):  # its files at the top in '- ' lines: the contract's layout too
        fitting.add(TOOLNEXUS)
    offered, left_out = [], []
    for name, profile in sorted(profiles.items()):
        if name == opened:
            offered.append(name)
        elif not profile.shipped:
            left_out.append(LeftOut(name, _own_profile(profile, opened)))
        elif layout_host(profile) in fitting:
            offered.append(name)
        else:
            left_out.append(LeftOut(name, _not_fitting(opened, layout_host(profile))))
    return Previews(opened, tuple(offered), tuple(left_out))


def _this_is(opened: str) -> str:
    what, keeps, _ = _KEEPS.get(opened, (f"a home opened as {title(opened)}", "its files are at its top", ""))
    return f"this is {what}: {keeps}"


def _not_fitting(opened: str, other: str) -> str:
    """``this is a Hermes home: its stores are in memories/; OpenClaw does not read them``."""
    _, _, them = _KEEPS.get(opened, ("", "", ""))
    if them:
        return f"{_this_is(opened)}; {title(other)} does not read {them}"
    return f"{_this_is(opened)}; {_READS.get(other, f'{title(other)} does not fit its layout')}"


def _own_profile(profile: HostProfile, opened: str) -> str:
    return f"{profile.title} is a person's own profile, which previews only a toolnexus home; {_this_is(opened)}"


def previews_of(
    root: Path,
    opened_as: str | None,
    *,
    env: Mapping[str, str] = os.environ,
    openclaw_config: str | os.PathLike[str] | None = None,
) -> Previews:
    """:func:`preview_hosts` for the home at ``root`` opened as ``opened_as``: its layout read, the profiles loaded.

    A toolnexus home reads no layout (every host is offered)."""
    profiles, _ = load_hosts()
    opened = opened_as or TOOLNEXUS
    fits = layout_fits(root, env, openclaw_config) if opened != TOOLNEXUS else []
    return preview_hosts(opened, fits, profiles)
