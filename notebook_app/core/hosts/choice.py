"""Which host a name picks: its profile with the numbers in force (``resolve_host``), or why none is."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from notebook_app.core.hostbase.host import Host
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hosts.openclaw.config import (
    apply_openclaw_config,
    apply_openclaw_release,
)
from notebook_app.core.hosts.profile import (
    DEFAULT_HOST,
    NOT_PROVEN,
    HostProblem,
    HostProfile,
    load_hosts,
    version_problem,
)


@dataclass(frozen=True)
class HostChoice:
    """A host resolved for use: its profile with the numbers in force, or why it could not be."""

    profile: HostProfile | None
    notes: tuple[str, ...] = ()
    """What was read to fix the numbers, ending with the numbers in force."""
    config_broken: bool = False
    error: str | None = None
    """Set when no such host exists (the message names the ones that do)."""
    problems: tuple[HostProblem, ...] = ()
    """Profile files that failed to load (a person's own, usually)."""


def resolve_host(
    spec: str | None = None,
    *,
    openclaw_config: str | os.PathLike[str] | None = None,
    session_kind: str | None = None,
) -> HostChoice:
    """The host named ``spec`` (``NAME`` or ``NAME@VERSION``; None: the contract), ready to compose with;
    ``session_kind`` (OpenClaw's main, group, channel, subagent or cron; None: main) is OpenClaw's only."""
    hosts, problems = load_hosts()
    name, at, version = (spec or DEFAULT_HOST).partition("@")
    profile = hosts.get(name)
    if profile is None:
        known = ", ".join(sorted(hosts)) or "none"
        return HostChoice(None, error=f"no host named {name!r}; hosts: {known}", problems=tuple(problems))
    if at and (problem := version_problem(version)) is not None:
        return HostChoice(None, error=f"{name}@{version}: {problem}", problems=tuple(problems))
    proven = registered(profile.proven) if profile.proven is not None else None
    if session_kind is not None and (proven is None or not proven.session_kinds):
        return HostChoice(None, error="a session kind is OpenClaw's only", problems=tuple(problems))
    if proven is not None and proven.session_kinds:  # the rules of its proven releases, not numbers of this profile
        release = apply_openclaw_release(profile, version or None, openclaw_config, session_kind or "main")
        if isinstance(release, str):
            return HostChoice(None, error=release, problems=tuple(problems))
        return HostChoice(release.profile, release.notes, release.broken, problems=tuple(problems))
    if proven is not None:  # one proven release each: the version names it or is refused
        return _proven_release(profile, proven, version or None, tuple(problems))
    if version:
        if not profile.defaults:
            return HostChoice(None, error=f"{profile.title} has no defaults by version", problems=tuple(problems))
        profile = profile.at_version(version)
    if profile.config == "openclaw":
        reading = apply_openclaw_config(profile, openclaw_config)
        return HostChoice(reading.profile, reading.notes, reading.broken, problems=tuple(problems))
    notes: tuple[str, ...] = (f"{profile.title}: {profile.numbers_in_words()}",)
    if not profile.shipped:
        notes += (f"{profile.title}: {NOT_PROVEN}",)
    return HostChoice(replace(profile, notes=notes), notes, problems=tuple(problems))


def _proven_release(
    profile: HostProfile, host: Host, version: str | None, problems: tuple[HostProblem, ...]
) -> HostChoice:
    """Hermes or Claude Code at the proven release ``version`` names (None: the newest), or why none is."""
    from notebook_app.core.hosts.versions import with_proof  # lazy: a host's releases, asked by a load

    proven, said = host.proven_version(version) or (None, f"{host.title} has no proven releases")
    if proven is None:
        return HostChoice(None, error=said, problems=problems)
    notes = (with_proof(host.proven_releases(), version, said),)
    return HostChoice(replace(profile, version=proven, notes=notes), notes, problems=problems)
