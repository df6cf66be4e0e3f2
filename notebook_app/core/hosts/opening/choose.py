"""Open a folder as a host's home: the host named, else the one remembered, else the layout's, else toolnexus.

:func:`open_home` is the one rule the CLI, the MCP server and the app share
(issue 22, items 1 and 2). With no folder given, a named host's own home is
opened where that host keeps it (:meth:`.Host.find_home`, each host's own rule
in its package); a Claude Code project and a toolnexus home are the current
folder. No host is named here: each is asked (:mod:`..hostbase.host`). A folder
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

from notebook_app.core.home.layout import FLAT, FileMap, host_files
from notebook_app.core.home.remembered import remembered_host
from notebook_app.core.hostbase.host import Fit, Host, Options
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hostbase.registry import hosts
from notebook_app.core.hosts.opening.detect import launch_options, layout_fits
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
    given = {"profile": profile, "agent": agent}
    options: Options = {
        **{option: value for option, value in given.items() if value is not None},
        **launch_options(openclaw_config),
    }
    named = _named_host(host, options)
    if isinstance(named, OpeningError):
        return named
    name, version, said = named
    if path is not None and (homes := _homes_named(options)):
        flag = _flag(homes[0][0])
        return OpeningError(f"{flag} names a home of its own; give {flag} or --home, not both")
    if path is None and name is not None and registered(name).own_home:
        return _host_home(name, version, said, options, env)
    root = Path(os.path.expanduser(os.fspath(path))) if path is not None else Path(".")
    if not _is_dir(root):
        return OpeningError(f"home is not a directory: {path}" if root.exists() else f"no such home: {path or '.'}")
    if name is not None:
        return _given(name, version, said, root, options, env)
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


def _flag(option: str) -> str:
    return "--" + option.replace("_", "-")


def _homes_named(options: Options) -> list[tuple[str, Host]]:
    """The options given that name a home of a host's own (``--profile``, ``--agent``), each with its host."""
    return [(option, one) for one in hosts() for option in one.home_options if option in options]


def _named_host(host: str | None, options: Options) -> tuple[str | None, str | None, str] | OpeningError:
    """The host named (or implied), its version, and the words that named it; or why they disagree."""
    homes = _homes_named(options)
    if len(homes) > 1:
        (first, one), (second, other) = homes[:2]
        return OpeningError(
            f"{_flag(first)} names {one.home_options[first]} and {_flag(second)} {other.home_options[second]}: "
            "give one of them"
        )
    if host is None:
        implied = [*homes, *((option, one) for one in hosts() for option in one.implied_by if option in options)]
        if implied:
            option, one = implied[0]
            return one.id, None, f"{_flag(option)} {options[option]}"
        return None, None, ""
    name, at, version = host.partition("@")
    profiles, _ = load_hosts()
    if name not in profiles:
        return OpeningError(f"no host named {name!r}; hosts: {', '.join(sorted(profiles)) or 'none'}")
    if at and (problem := _version_problem(name, version)) is not None:
        return OpeningError(problem)
    for option, one in homes:
        if option not in registered(name).home_options:
            return OpeningError(f"{_flag(option)} names {one.home_options[option]}; --host is {name}")
    return name, version or None, f"--host {host}"


def _version_problem(name: str, version: str) -> str | None:
    """Why ``name@version`` names no release the notebook knows, in the words ``soul`` and ``doctor`` print
    (:func:`..resolve_host`'s order: the version's form, then the proven releases)."""
    if (problem := version_problem(version)) is not None:
        return f"{name}@{version}: {problem}"
    return registered(name).version_problem(version)


def _host_home(
    name: str, version: str | None, said: str, options: Options, env: Mapping[str, str]
) -> Opening | OpeningError:
    """A home where its host keeps it (no folder was given): ``$HERMES_HOME``, an OpenClaw agent's workspace."""
    one = registered(name)
    found = one.find_home(said, env, options)
    if isinstance(found, str):
        return OpeningError(found)
    if not _is_dir(found.root):
        what = "not a directory" if found.root.exists() else "not there"
        return OpeningError(f"{one.title}'s home {found.root} is {what} ({found.reason}); nothing was created")
    return _opening(
        name, version, found.root, found.reason, Chosen.GIVEN, env=env, notes=found.notes, agent=found.agent
    )


def _given(name: str, version: str | None, said: str, root: Path, options: Options, env: Mapping[str, str]) -> Opening:
    """The folder given, as the host named: a Hermes home's ``memories/`` opens its parent, and says so."""
    fit = registered(name).given_home(root, said, env, options)
    return _opening(name, version, fit.root, fit.reason, Chosen.GIVEN, env=env, agent=fit.agent)


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
    one = registered(name)
    opened = one.home_files(root, version, reason, env)
    files: FileMap
    memory = None
    if opened is None:
        files = one.file_map(version) or host_files(name)
    else:
        files, notes, memory = opened.files, notes + opened.notes, opened.memory
    profiles, _ = load_hosts()
    if name in profiles and profiles[name].read_only_files:  # the write path refuses them (store/places.py)
        files = replace(files, read_only=frozenset(profiles[name].read_only_files))
    return Opening(root, name, version, files, reason, chosen, notes, memory, agent)
