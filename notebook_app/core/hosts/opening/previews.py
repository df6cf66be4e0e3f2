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

from notebook_app.core.hostbase.host import Fit
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hosts.opening.detect import layout_fits
from notebook_app.core.hosts.profile import HostProfile, load_hosts


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
        return not registered(self.opened_as).fallback and spec.partition("@")[0] == self.opened_as

    def why_not(self, name: str) -> str | None:
        return next((left.reason for left in self.left_out if left.name == name), None)


def layout_host(profile: HostProfile) -> str:
    """The host whose layout a profile reads a home in: its proven loader's, else toolnexus's (files at the top)."""
    return profile.proven or registered(None).id


def preview_hosts(opened_as: str | None, fits: Iterable[Fit], profiles: Mapping[str, HostProfile]) -> Previews:
    """Which of ``profiles`` a home opened as ``opened_as`` (None: toolnexus) may be previewed as, given the hosts
    whose layout its folder fits (``fits``, from :func:`layout_fits`)."""
    opened = opened_as or registered(None).id
    if registered(opened).fallback:
        return Previews(opened, tuple(sorted(profiles)))
    fitting = {fit.host for fit in fits} | {opened}
    if registered(opened).flat:  # its files at the top in '- ' lines: the contract's layout too
        fitting.add(registered(None).id)
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
    one = registered(opened)
    return f"this is {one.home_is or f'a home opened as {one.title}'}: {one.keeps}"


def _not_fitting(opened: str, other: str) -> str:
    """``this is a Hermes home: its stores are in memories/; OpenClaw does not read them``."""
    them, looks = registered(opened).elsewhere, registered(other)
    if them:
        return f"{_this_is(opened)}; {looks.title} does not read {them}"
    return f"{_this_is(opened)}; {looks.reads or f'{looks.title} does not fit its layout'}"


def _own_profile(profile: HostProfile, opened: str) -> str:
    flat = registered(None).title
    return f"{profile.title} is a person's own profile, which previews only a {flat} home; {_this_is(opened)}"


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
    opened = opened_as or registered(None).id
    fits = layout_fits(root, env, openclaw_config) if not registered(opened).fallback else []
    return preview_hosts(opened, fits, profiles)
