"""Hosts as data: what each agent host really loads from a persona home.

``toolnexus`` (the contract) is the default; ``openclaw``, ``hermes`` and
``claude-code`` ship beside it as profile files, and a person's own profiles
in ``<config dir>/persona-notebook/hosts/`` replace or add to them.
:func:`load_as` gives what any host injects next session, file by file (the proven
loaders, the contract's composition, a person's own profile), in one shape.
:func:`resolve_host` turns a name (``openclaw`` or ``openclaw@2026.4``) into the
profile in force, the user's OpenClaw config applied, with what was read said
in words; :func:`..home.soul.compose` with ``host=`` gives the soul that host loads.
:func:`open_home` says which host a folder opens as, and where each host keeps its
home (``opening``); :func:`remember_host` keeps a person's choice for a folder;
:func:`previews_of` says which hosts a home opened so may be previewed as.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from ..lazy import lazy_face
from .loader import as_host, compose_for_host
from .openclaw import apply_openclaw_config, apply_openclaw_release, default_config_path, read_openclaw_numbers
from .profile import (
    DEFAULT_HOST,
    NOT_PROVEN,
    FileRule,
    HostProblem,
    HostProfile,
    load_hosts,
    parse_profile,
    version_problem,
)

__all__ = [
    "DEFAULT_HOST",
    "ClaudeLoad",
    "FileRule",
    "HostChoice",
    "HostProblem",
    "HostLoad",
    "HostProfile",
    "Chosen",
    "ComposedLoad",
    "Opening",
    "OpeningError",
    "Previews",
    "InjectedPart",
    "LeftOut",
    "PartStatus",
    "Unit",
    "as_host",
    "claude_code_load",
    "claude_code_version",
    "compose_for_host",
    "default_config_path",
    "hermes_load",
    "hermes_version",
    "host_names",
    "js_length",
    "openclaw_load",
    "OpenClawPane",
    "openclaw_pane",
    "open_home",
    "load_as",
    "load_hosts",
    "load_json",
    "parse_profile",
    "preview_hosts",
    "previews_of",
    "proven_releases",
    "read_openclaw_numbers",
    "remember_host",
    "resolve_host",
    "session_kind_words",
    "session_kinds",
    "starts_no_session",
]


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


def host_names() -> list[str]:
    hosts, _ = load_hosts()
    return sorted(hosts)


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
    if session_kind is not None and profile.proven != "openclaw":
        return HostChoice(None, error="a session kind is OpenClaw's only", problems=tuple(problems))
    if profile.proven == "openclaw":  # the rules of its proven releases, not numbers of this profile
        release = apply_openclaw_release(profile, version or None, openclaw_config, session_kind or "main")
        if isinstance(release, str):
            return HostChoice(None, error=release, problems=tuple(problems))
        return HostChoice(release.profile, release.notes, release.broken, problems=tuple(problems))
    if profile.proven in ("hermes", "claude-code"):  # one proven release each: the version names it or is refused
        return _proven_release(profile, version or None, tuple(problems))
    if version:
        if not profile.defaults:
            return HostChoice(None, error=f"{profile.title} has no defaults by version", problems=tuple(problems))
        profile = profile.at_version(version)
    if profile.config == "openclaw":
        reading = apply_openclaw_config(profile, openclaw_config)
        return HostChoice(reading.profile, reading.notes, reading.broken, problems=tuple(problems))
    notes = (f"{profile.title}: {profile.numbers_in_words()}",)
    if not profile.shipped:
        notes += (f"{profile.title}: {NOT_PROVEN}",)
    return HostChoice(replace(profile, notes=notes), notes, problems=tuple(problems))


def _proven_release(profile: HostProfile, version: str | None, problems: tuple[HostProblem, ...]) -> HostChoice:
    """Hermes or Claude Code at the proven release ``version`` names (None: the newest), or why none is."""
    if profile.proven == "hermes":
        from .hermes.load import hermes_version as proven_version
    else:
        from .claude_code.load import claude_code_version as proven_version
    proven, said = proven_version(version)
    if proven is None:
        return HostChoice(None, error=said, problems=problems)
    notes = (f"{said}, as its goldens prove it",)
    return HostChoice(replace(profile, version=proven, notes=notes), notes, problems=problems)


lazy_face(
    __name__,
    {
        "hermes_load": "hermes",
        "hermes_version": "hermes",
        "ClaudeLoad": "claude_code",
        "HostLoad": "injected",
        "InjectedPart": "injected",
        "PartStatus": "injected",
        "Unit": "injected",
        "load_json": "injected",
        "claude_code_load": "claude_code",
        "claude_code_version": "claude_code",
        "js_length": "claude_code",
        "openclaw_load": "openclaw",
        "OpenClawPane": "openclaw",
        "openclaw_pane": "openclaw",
        "load_as": "named",
        "proven_releases": "named",
        "session_kind_words": "named",
        "session_kinds": "named",
        "ComposedLoad": "named",
        "starts_no_session": "toolnexus_py",
        "Chosen": "opening",
        "Opening": "opening",
        "OpeningError": "opening",
        "open_home": "opening",
        "remember_host": "opening",
        "LeftOut": "opening",
        "Previews": "opening",
        "preview_hosts": "opening",
        "previews_of": "opening",
    },
)
"""The loaders proven by a host's own code load on first use, with the goldens' keys they serve."""
