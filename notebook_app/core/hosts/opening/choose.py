"""Open a folder as a host's home: the host named, else the one remembered, else the layout's, else toolnexus.

:func:`open_home` is the one rule the CLI, the MCP server and the app share
(issue 22, items 1 and 2). With no folder given, a named host's own home is
opened where that host keeps it (:mod:`.hermes_home`, :mod:`.openclaw_home`);
a Claude Code project and a toolnexus home are the current folder. A folder
that is not there is an error, never made. Reads, never writes: a person's
choice is kept by :func:`.remembered.remember_host`, called apart, and only
for a write aimed with ``--host`` or the palette's release choice, never for a
read (issue 34). A host remembered comes with what the layout alone opens
(:attr:`.Opening.layout`), so a write can say what ``--host`` would do instead.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from notebook_app.core.home.layout import (
    FLAT,
    HERMES_FOLDER,
    FileMap,
    HostFile,
    claude_code_files,
    hermes_files,
    host_files,
)
from notebook_app.core.home.remembered import remembered_host
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hosts.claude_code.host import CLAUDE_CODE
from notebook_app.core.hosts.claude_code.load import claude_code_load, instruction_files
from notebook_app.core.hosts.hermes.config import read_config
from notebook_app.core.hosts.hermes.host import HERMES
from notebook_app.core.hosts.openclaw.host import OPENCLAW
from notebook_app.core.hosts.opening import claude_home
from notebook_app.core.hosts.opening.detect import Fit, layout_fits, memories_parent
from notebook_app.core.hosts.opening.hermes_home import active_home, profile_home, user_home
from notebook_app.core.hosts.opening.openclaw_home import agent_workspace, naming_agents
from notebook_app.core.hosts.opening.result import Chosen, Opening, OpeningError
from notebook_app.core.hosts.profile import load_hosts, version_problem

PathLike = str | os.PathLike[str]


def open_home(
    path: PathLike | None = None,
    *,
    host: str | None = None,
    agent: str | None = None,
    profile: str | None = None,
    openclaw_config: PathLike | None = None,
    env: Mapping[str, str] = os.environ,
    state: Path | None = None,
) -> Opening | OpeningError:
    """The home at ``path`` (None: the named host's own, else the current folder) and the host it opens as.

    ``host`` is ``NAME`` or ``NAME@VERSION``; ``profile`` names a Hermes profile, ``agent`` an OpenClaw agent,
    ``openclaw_config`` the config OpenClaw's workspaces are read from, and each alone implies its host.
    ``state`` is the per-user state folder (None: the user's own)."""
    named = _named_host(host, agent=agent, profile=profile, openclaw_config=openclaw_config)
    if isinstance(named, OpeningError):
        return named
    name, version, said = named
    if path is not None and (agent is not None or profile is not None):
        flag = "--profile" if profile is not None else "--agent"
        return OpeningError(f"{flag} names a home of its own; give {flag} or --home, not both")
    if path is None and name is not None and registered(name).own_home:
        return _host_home(name, version, said, agent=agent, profile=profile, config=openclaw_config, env=env)
    root = Path(os.path.expanduser(os.fspath(path))) if path is not None else Path(".")
    if not _is_dir(root):
        return OpeningError(f"home is not a directory: {path}" if root.exists() else f"no such home: {path or '.'}")
    if name is not None:
        return _given(name, version, said, root, config=openclaw_config, env=env)
    remembered = remembered_host(root, state)
    if remembered is not None and _known(remembered.host):
        kept = registered(remembered.host).title
        reason = f"opened as {kept}: the host remembered for this folder{remembered.since_words}"
        opened = _opening(remembered.host, remembered.version, root, reason, Chosen.REMEMBERED, env=env)
        layout = _detected(root, env, openclaw_config)  # what a write with --host LAYOUT's host would do instead
        return replace(opened, remembered=remembered, layout=layout if isinstance(layout, Opening) else None)
    return _detected(root, env, openclaw_config)


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _known(name: str) -> bool:
    profiles, _ = load_hosts()
    return name in profiles


def _named_host(
    host: str | None, *, agent: str | None, profile: str | None, openclaw_config: PathLike | None
) -> tuple[str | None, str | None, str] | OpeningError:
    """The host named (or implied), its version, and the words that named it; or why they disagree."""
    if agent is not None and profile is not None:
        return OpeningError("--agent names an OpenClaw agent and --profile a Hermes profile: give one of them")
    if host is None:
        if profile is not None:
            return HERMES.id, None, f"--profile {profile}"
        if agent is not None:
            return OPENCLAW.id, None, f"--agent {agent}"
        if openclaw_config is not None:
            return OPENCLAW.id, None, f"--openclaw-config {os.fspath(openclaw_config)}"
        return None, None, ""
    name, at, version = host.partition("@")
    profiles, _ = load_hosts()
    if name not in profiles:
        return OpeningError(f"no host named {name!r}; hosts: {', '.join(sorted(profiles)) or 'none'}")
    if at and (problem := _version_problem(name, version)) is not None:
        return OpeningError(problem)
    if profile is not None and registered(name) is not HERMES:
        return OpeningError(f"--profile names a Hermes profile; --host is {name}")
    if agent is not None and registered(name) is not OPENCLAW:
        return OpeningError(f"--agent names an OpenClaw agent; --host is {name}")
    return name, version or None, f"--host {host}"


def _version_problem(name: str, version: str) -> str | None:
    """Why ``name@version`` names no release the notebook knows, in the words ``soul`` and ``doctor`` print
    (:func:`..resolve_host`'s order: the version's form, then the proven releases)."""
    if (problem := version_problem(version)) is not None:
        return f"{name}@{version}: {problem}"
    return registered(name).version_problem(version)


def _host_home(
    name: str,
    version: str | None,
    said: str,
    *,
    agent: str | None,
    profile: str | None,
    config: PathLike | None,
    env: Mapping[str, str],
) -> Opening | OpeningError:
    """A Hermes or OpenClaw home where that host keeps it (no folder was given)."""
    notes: tuple[str, ...]
    if registered(name) is HERMES:
        place = profile_home(profile, env) if profile is not None else active_home(env)
        if place.home is None:
            return OpeningError(place.reason)
        root, reason, notes, found = place.home, f"{said}: {place.reason}", (), None
    else:
        spot = agent_workspace(agent, env, config)
        if spot.workspace is None:
            return OpeningError(spot.reason)
        root, reason, notes, found = spot.workspace, f"{said}: {spot.reason}", spot.notes, spot.agent
    if not _is_dir(root):
        what = "not a directory" if root.exists() else "not there"
        return OpeningError(f"{registered(name).title}'s home {root} is {what} ({reason}); nothing was created")
    return _opening(name, version, root, reason, Chosen.GIVEN, env=env, notes=notes, agent=found)


def _given(
    name: str, version: str | None, said: str, root: Path, *, config: PathLike | None, env: Mapping[str, str]
) -> Opening:
    """The folder given, as the host named: a Hermes home's ``memories/`` opens its parent, and says so."""
    reason, agent = said, None
    one = registered(name)
    if one is HERMES and not _is_dir(root / HERMES_FOLDER) and (parent := memories_parent(root)) is not None:
        root, reason = parent, f"{said}: opened the parent of its {HERMES_FOLDER}/ folder, the Hermes home {parent}"
    if one is OPENCLAW:
        agent = naming_agents(root, env, config).agent
    return _opening(name, version, root, reason, Chosen.GIVEN, env=env, agent=agent)


def _detected(root: Path, env: Mapping[str, str], config: PathLike | None) -> Opening | OpeningError:
    fits = layout_fits(root, env, config)
    if len(fits) > 1:
        both = " and ".join(f"{registered(f.host).title} ({f.reason.partition(': ')[2]})" for f in fits)
        hosts = " or ".join(f"--host {f.host}" for f in fits)
        return OpeningError(f"{root} fits the layouts of {both}; say which host it is with {hosts}")
    if not fits:
        return Opening(
            root, registered(None).id, None, FLAT, "no host's layout found: the toolnexus contract", Chosen.FALLBACK
        )
    fit: Fit = fits[0]
    return _opening(fit.host, None, fit.root, fit.reason, Chosen.DETECTED, env=env, agent=fit.agent)


def _opening(
    name: str,
    version: str | None,
    root: Path,
    reason: str,
    chosen: Chosen,
    *,
    env: Mapping[str, str],
    notes: tuple[str, ...] = (),
    agent: str | None = None,
) -> Opening:
    """The Opening of ``root`` as ``name``: that host's file map, and for Claude Code its memory folder."""
    files: FileMap
    memory = None
    one = registered(name)
    if one is HERMES:
        files, more = _hermes_files(root)
        notes += more
    elif one is CLAUDE_CODE:
        files = claude_code_files(_instructions(root, env))  # of its auto-memory folder (Opening.entry_home)
        memory = claude_home.memory_dir(root, env)
        base, which = claude_home.memory_base(root)
        there = "" if _is_dir(memory) else "; it does not exist yet"
        place = "" if str(memory) in reason else f" is {memory}"  # said once: a detected reason names it already
        notes += (f"Claude Code keys its auto memory by {which}, {base}{place}{there}",)
    else:
        files = one.file_map(version) or host_files(name)
    profiles, _ = load_hosts()
    if name in profiles and profiles[name].read_only_files:  # the write path refuses them (store/places.py)
        files = replace(files, read_only=frozenset(profiles[name].read_only_files))
    return Opening(root, name, version, files, reason, chosen, notes, memory, agent)


def _instructions(root: Path, env: Mapping[str, str]) -> dict[str, HostFile]:
    """The CLAUDE.md chain Claude Code injects for the project at ``root``, by name, in its order (read-only here)."""
    home = user_home(env)
    load = claude_code_load(root, home=home)
    return {name: HostFile(path, whose) for name, path, whose in instruction_files(load, home)}


def _hermes_files(root: Path) -> tuple[FileMap, tuple[str, ...]]:
    """Hermes's file map with the limits of the home's config.yaml, and what was read, in words."""
    limits = HERMES.limits()
    config = read_config(root, limits["MEMORY.md"], limits["USER.md"])
    notes: tuple[str, ...] = (
        f"{config.said}: MEMORY.md {config.memory_char_limit:,}, USER.md {config.user_char_limit:,} chars",
    )
    if not _is_dir(root / HERMES_FOLDER):
        notes += (f"no {HERMES_FOLDER}/ folder yet: Hermes keeps MEMORY.md and USER.md there",)
    return hermes_files(config.memory_char_limit, config.user_char_limit), notes
