"""Where an OpenClaw agent's workspace is: its config's ``workspace``, the defaults', or OpenClaw's own default.

OpenClaw's own rule (2026.9.6, ``node_modules/openclaw/dist/``), read from its source:

- the config (``config/paths.ts``, ``paths-*.mjs`` ``resolveConfigPath``):
  ``$OPENCLAW_CONFIG_PATH``, else ``$OPENCLAW_STATE_DIR/openclaw.json``, else
  ``~/.openclaw/openclaw.json``; ``~`` is ``$OPENCLAW_HOME`` when set, else ``$HOME``
  (``home-dir-*.mjs`` ``resolveEffectiveHomeDir``);
- the agents (``agents/agent-roster.ts``, ``agent-scope-config-*.mjs``): the keys of
  ``agents.entries``, else the ``id`` of each ``agents.list[]`` item, normalised
  (``agent-id-*.mjs`` ``normalizeAgentId``: lower case, anything but ``a-z0-9_-``
  a dash); no roster at all is the one agent ``main``. The default agent is the one
  item marked ``default: true`` (unless ``agents.ownership`` is ``explicit``), else
  the only agent; several and none marked: OpenClaw asks for ``--agent``;
- the workspace (``resolveAgentWorkspaceDir``): the agent's own ``workspace``; for the
  default agent ``agents.defaults.workspace``, else ``$OPENCLAW_WORKSPACE_DIR``, else
  ``$OPENCLAW_STATE_DIR/workspace``, else ``~/.openclaw-<profile>/workspace`` for a
  ``$OPENCLAW_PROFILE``, else ``~/.openclaw/workspace`` (``workspace-default-*.mjs``);
  for another agent ``agents.defaults.workspace/<id>``, else
  ``<state dir>/workspace-<id>``.

So ``$OPENCLAW_WORKSPACE_DIR`` counts only where the config names no workspace for the
default agent. Not read here: the legacy ``~/.clawdbot`` and ``clawdbot.json``, a
default agent kept from a migration, ``$include`` directives. Reads, never writes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from notebook_app.core.hostbase.host import Fit
from notebook_app.core.hostbase.places import user_home
from notebook_app.core.hosts.openclaw.config import ConfigFile, read_config_file

AGENT_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}", re.IGNORECASE)
DEFAULT_AGENT = "main"


def agent_id(value: object) -> str:
    """``normalizeAgentId``: OpenClaw's canonical id of ``value`` (anything unusable is ``main``)."""
    text = value.strip() if isinstance(value, str) else ""
    if AGENT_ID.fullmatch(text):
        return text.lower()
    cleaned = re.sub(r"[^a-z0-9_-]+", "-", text.lower()).strip("-")[:64]
    return cleaned or DEFAULT_AGENT


def effective_home(env: Mapping[str, str]) -> Path:
    explicit = (env.get("OPENCLAW_HOME") or "").strip()
    if not explicit:
        return user_home(env)
    if explicit == "~" or explicit.startswith("~/"):
        return Path(os.path.abspath(str(user_home(env)) + explicit[1:]))
    return Path(os.path.abspath(explicit))


def user_path(value: str, env: Mapping[str, str]) -> Path:
    """``resolveUserPath``: trimmed, a leading ``~`` the effective home, made absolute."""
    text = value.strip()
    if text == "~" or text.startswith("~/"):
        text = str(effective_home(env)) + text[1:]
    return Path(os.path.abspath(text))


def state_dir(env: Mapping[str, str]) -> Path:
    override = (env.get("OPENCLAW_STATE_DIR") or "").strip()
    return user_path(override, env) if override else effective_home(env) / ".openclaw"


def config_path(env: Mapping[str, str], given: str | os.PathLike[str] | None = None) -> Path:
    """The config OpenClaw reads: ``given`` (``--openclaw-config``), else its own order."""
    if given is not None:
        return user_path(os.fspath(given), env)
    override = (env.get("OPENCLAW_CONFIG_PATH") or "").strip()
    return user_path(override, env) if override else state_dir(env) / "openclaw.json"


@dataclass(frozen=True)
class Roster:
    """The agents an OpenClaw config names, in its order, and its default one (None: none is)."""

    ids: tuple[str, ...]
    default: str | None
    entries: Mapping[str, Mapping[str, object]]
    defaults: Mapping[str, object]


def roster_of(data: Mapping[str, object]) -> Roster:
    agents = data.get("agents")
    agents = agents if isinstance(agents, dict) else {}
    defaults = agents["defaults"] if isinstance(agents.get("defaults"), dict) else {}
    listed: list[dict[str, object]] = []
    owned = False
    if agents.get("entries") is not None:
        owned = True
        if isinstance(agents["entries"], dict):
            listed = [{**e, "id": k} for k, e in agents["entries"].items() if isinstance(e, dict)]
    elif agents.get("list") is not None:
        owned = True
        if isinstance(agents["list"], list):
            listed = [e for e in agents["list"] if isinstance(e, dict)]
    entries: dict[str, Mapping[str, object]] = {}
    for entry in listed:
        entries.setdefault(agent_id(entry.get("id")), entry)  # the first of an id wins
    if not listed and not owned:
        return Roster((DEFAULT_AGENT,), DEFAULT_AGENT, {}, defaults)
    marked = [agent_id(e.get("id")) for e in listed if e.get("default") is True]
    if len(marked) == 1 and agents.get("ownership") != "explicit":
        default: str | None = marked[0]
    else:
        default = next(iter(entries)) if len(listed) == 1 else None
    return Roster(tuple(entries), default, entries, defaults)


def default_workspace(env: Mapping[str, str]) -> Path:
    """``resolveDefaultAgentWorkspaceDir``: where the default agent works when the config names no place."""
    given = (env.get("OPENCLAW_WORKSPACE_DIR") or "").strip()
    if given:
        return Path(os.path.abspath(given))
    if (env.get("OPENCLAW_STATE_DIR") or "").strip():
        return state_dir(env) / "workspace"
    profile = (env.get("OPENCLAW_PROFILE") or "").strip()
    if profile and profile.lower() != "default" and AGENT_ID.fullmatch(profile):
        return effective_home(env) / f".openclaw-{profile}" / "workspace"
    return effective_home(env) / ".openclaw" / "workspace"


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def workspace_of(roster: Roster, agent: str, env: Mapping[str, str]) -> tuple[Path, str]:
    """``resolveAgentWorkspaceDir`` for ``agent`` (one of ``roster.ids``), and where it came from, in words."""
    entry = roster.entries.get(agent, {})
    if own := _text(entry.get("workspace")):
        return user_path(own, env), f"agent {agent}'s workspace in the config"
    fallback = _text(roster.defaults.get("workspace"))
    if agent == roster.default:
        if fallback:
            return user_path(fallback, env), "agents.defaults.workspace in the config"
        if (env.get("OPENCLAW_WORKSPACE_DIR") or "").strip():
            return default_workspace(env), "$OPENCLAW_WORKSPACE_DIR"
        return default_workspace(env), "OpenClaw's default workspace"
    if fallback:
        return user_path(fallback, env) / agent, f"agents.defaults.workspace/{agent} in the config"
    return state_dir(env) / f"workspace-{agent}", f"OpenClaw's workspace-{agent} in its state folder"


@dataclass(frozen=True)
class OpenClawPlace:
    """An agent's workspace, the agent and how it was found, in words; ``workspace`` None: why none is."""

    workspace: Path | None
    agent: str | None
    reason: str
    notes: tuple[str, ...] = ()


def read_openclaw_config(
    env: Mapping[str, str], given: str | os.PathLike[str] | None = None
) -> tuple[ConfigFile, str | None]:
    """The config and, when it is there but unusable, the note saying so (OpenClaw's defaults are assumed)."""
    config = read_config_file(config_path(env, given))
    if config.problem is not None:
        return config, f"OpenClaw config {config.where} {config.problem}: its workspaces are OpenClaw's defaults here"
    return config, None


def agent_workspace(
    agent: str | None, env: Mapping[str, str], given: str | os.PathLike[str] | None = None
) -> OpenClawPlace:
    """The workspace of ``agent`` (None: the default agent), or why there is none to open."""
    config, problem = read_openclaw_config(env, given)
    notes = (problem,) if problem else ()
    roster = roster_of(config.data)
    where = config.where if config.found else f"{config.where} (not there)"
    if not roster.ids:
        return OpenClawPlace(None, None, f"the OpenClaw config {where} names no agents (agents.list is empty)")
    if agent is None:
        if roster.default is None:
            return OpenClawPlace(
                None,
                None,
                f"the OpenClaw config {where} names several agents and none is the default "
                f"({', '.join(roster.ids)}): pass --agent ID",
            )
        chosen = roster.default
    else:
        chosen = agent_id(agent)
        if chosen not in roster.ids:
            known = ", ".join(roster.ids) or "none"
            return OpenClawPlace(None, None, f"no OpenClaw agent {agent!r} in the config {where}; agents: {known}")
    path, said = workspace_of(roster, chosen, env)
    default = " (the default agent)" if chosen == roster.default else ""
    return OpenClawPlace(path, chosen, f"the workspace of OpenClaw agent {chosen}{default}: {said}", notes)


def naming_agents(folder: Path, env: Mapping[str, str], given: str | os.PathLike[str] | None = None) -> OpenClawPlace:
    """The agent whose workspace ``folder`` is, by the config (``workspace`` None: none)."""
    config, problem = read_openclaw_config(env, given)
    roster = roster_of(config.data)
    real = os.path.realpath(folder)
    for agent in roster.ids:
        path, said = workspace_of(roster, agent, env)
        if os.path.realpath(path) == real:
            return OpenClawPlace(folder, agent, f"it is the workspace of OpenClaw agent {agent} ({said})")
    return OpenClawPlace(None, None, problem or "")


def openclaw_own_home(
    id: str, said: str, agent: str | None, env: Mapping[str, str], given: str | os.PathLike[str] | None
) -> Fit | str:
    """The workspace of ``agent`` (None: the default agent) by the config, or why none is."""
    spot = agent_workspace(agent, env, given)
    if spot.workspace is None:
        return spot.reason
    return Fit(id, spot.workspace, f"{said}: {spot.reason}", spot.agent, spot.notes)


def openclaw_fit(id: str, folder: Path, env: Mapping[str, str], given: str | os.PathLike[str] | None) -> Fit | None:
    """The config makes ``folder`` an agent's workspace, or its parent holds ``openclaw.json``."""
    named = naming_agents(folder, env, given)
    if named.workspace is not None:
        return Fit(id, folder, f"opened as OpenClaw: {named.reason}", named.agent)
    parent = folder.parent if folder.name else Path(os.path.abspath(folder)).parent
    try:
        beside = (parent / "openclaw.json").is_file()
    except OSError:
        beside = False
    if beside:
        return Fit(id, folder, f"opened as OpenClaw: its parent {parent} holds openclaw.json")
    return None
