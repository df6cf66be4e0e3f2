"""Which host a home opens as, and where each host keeps its home: real folders, real env dicts, the state pinned.

Each host's rule for where its home is comes from its own source (cited in
notebook_app/core/hosts/opening/); the cases here are those rules on disk.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from notebook_app.core.home.layout import FLAT, Dialect, HostFile, claude_code_files, hermes_files, host_files
from notebook_app.core.home.remembered import remember_host, remembered_host
from notebook_app.core.hosts.claude_code.home import project_slug
from notebook_app.core.hosts.opening.choose import open_home
from notebook_app.core.hosts.opening.result import Chosen, Opening, OpeningError
from notebook_app.core.text.times import local_time


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))  # a default that slips through stays here
    return tmp_path / "state"


@pytest.fixture
def user(tmp_path: Path) -> Path:
    path = tmp_path / "user"
    path.mkdir()
    return path


def env_of(user: Path, **more: str) -> dict[str, str]:
    return {"HOME": str(user), **more}


def tree(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def opened(found: Opening | OpeningError) -> Opening:
    assert isinstance(found, Opening), found
    return found


def hermes_home(path: Path, config: str | None = "memory:\n  memory_char_limit: 3000\n") -> Path:
    (path / "memories").mkdir(parents=True)
    (path / "memories" / "MEMORY.md").write_text("A\n§\nB\n")
    if config is not None:
        (path / "config.yaml").write_text(config)
    return path


def test_a_plain_folder_opens_as_toolnexus_with_every_file_at_the_top(tmp_path: Path, user: Path, state: Path) -> None:
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "MEMORY.md").write_text("- a\n")
    found = opened(open_home(tmp_path / "home", env=env_of(user), state=state))
    assert (found.host, found.files, found.chosen) == ("toolnexus", FLAT, Chosen.FALLBACK)
    assert found.reason == "no host's layout found: the toolnexus contract"
    assert found.root == tmp_path / "home"


def test_a_folder_with_memories_and_config_yaml_opens_as_hermes_with_its_configs_limits(
    tmp_path: Path, user: Path, state: Path
) -> None:
    home = hermes_home(tmp_path / "hermes")
    found = opened(open_home(home, env=env_of(user), state=state))
    assert (found.host, found.root, found.chosen) == ("hermes", home, Chosen.DETECTED)
    assert found.reason == "opened as Hermes: the folder has memories/ and config.yaml"
    assert found.files == hermes_files(3000, 1375)
    assert found.files.path(found.root, "MEMORY.md") == home / "memories" / "MEMORY.md"
    assert found.files.dialect is Dialect.SECTIONS


def test_a_hermes_home_with_soul_md_and_no_config_has_hermes_default_limits(
    tmp_path: Path, user: Path, state: Path
) -> None:
    home = hermes_home(tmp_path / "hermes", config=None)
    (home / "SOUL.md").write_text("You are Kip.\n")
    found = opened(open_home(home, env=env_of(user), state=state))
    assert found.reason == "opened as Hermes: the folder has memories/ and SOUL.md"
    assert dict(found.files.limits) == {"MEMORY.md": 2200, "USER.md": 1375}


def test_opening_a_hermes_memories_folder_opens_its_parent_and_says_so(tmp_path: Path, user: Path, state: Path) -> None:
    home = hermes_home(tmp_path / "hermes")
    found = opened(open_home(home / "memories", env=env_of(user), state=state))
    assert (found.host, found.root) == ("hermes", home)
    assert found.reason == (
        f"opened the Hermes home {home}, whose memories/ folder was given: it has memories/ and config.yaml"
    )


def test_memories_alone_is_no_hermes_home(tmp_path: Path, user: Path, state: Path) -> None:
    (tmp_path / "home" / "memories").mkdir(parents=True)
    assert opened(open_home(tmp_path / "home", env=env_of(user), state=state)).host == "toolnexus"


def test_a_folder_its_openclaw_config_names_as_a_workspace_opens_as_openclaw_with_the_agent(
    tmp_path: Path, user: Path, state: Path
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    config = tmp_path / "openclaw.json5"
    config.write_text(
        "{ // JSON5, as OpenClaw reads it\n"
        f"  agents: {{ list: [ {{ id: 'main', default: true }}, {{ id: 'Writer', workspace: '{work}' }}, ], }},\n"
        "}\n"
    )
    found = opened(open_home(work, env=env_of(user, OPENCLAW_CONFIG_PATH=str(config)), state=state))
    assert (found.host, found.agent) == ("openclaw", "writer")
    # the newest release's files in its order, BOOTSTRAP.md among them; its daily notes read on demand
    assert found.files.order == ("AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "BOOTSTRAP.md", "MEMORY.md")
    assert (found.files.dialect, found.files.on_demand) == (Dialect.LINES, ("memory/*.md",))
    assert (
        found.reason
        == "opened as OpenClaw: it is the workspace of OpenClaw agent writer (agent writer's workspace in the config)"
    )


def test_a_folder_beside_openclaw_json_opens_as_openclaw(tmp_path: Path, user: Path, state: Path) -> None:
    (tmp_path / "claw" / "workspace-helper").mkdir(parents=True)
    (tmp_path / "claw" / "openclaw.json").write_text("{}")
    found = opened(open_home(tmp_path / "claw" / "workspace-helper", env=env_of(user), state=state))
    assert found.host == "openclaw"
    assert found.reason == f"opened as OpenClaw: its parent {tmp_path / 'claw'} holds openclaw.json"


def test_a_claude_code_project_opens_as_claude_code_only_when_its_auto_memory_folder_exists(
    tmp_path: Path, user: Path, state: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "CLAUDE.md").write_text("Use tabs.\n")
    assert opened(open_home(project, env=env_of(user), state=state)).host == "toolnexus"
    memory = user / ".claude" / "projects" / str(project.resolve()).replace("/", "-").replace("_", "-") / "memory"
    memory.mkdir(parents=True)
    found = opened(open_home(project, env=env_of(user), state=state))
    instructions = {"CLAUDE.md": HostFile(str(project / "CLAUDE.md"), "Claude Code's project instructions")}
    assert (found.host, found.memory_dir, found.files) == ("claude-code", memory, claude_code_files(instructions))
    assert (found.files.order, found.files.on_demand) == (("MEMORY.md",), ("*.md",))
    assert found.reason == f"opened as Claude Code: the project has CLAUDE.md and its auto memory {memory}"
    said = "\n".join((found.reason, *found.notes))
    assert said.count(str(memory)) == 1  # the notice names the folder once, where it was found
    assert f"Claude Code keys its auto memory by the project root (no git root), {project.resolve()}" in said


def test_claude_codes_memory_folder_follows_claude_config_dir_and_the_git_root(tmp_path: Path, user: Path) -> None:
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "sub").mkdir()
    found = opened(open_home(tmp_path / "repo" / "sub", host="claude-code", env=env_of(user, CLAUDE_CONFIG_DIR="/cc")))
    slug = "".join(c if c.isascii() and c.isalnum() else "-" for c in str((tmp_path / "repo").resolve()))
    assert found.memory_dir == Path("/cc/projects") / slug / "memory"


def test_a_slug_past_200_characters_is_cut_and_hashed_as_claude_codes_binary_does() -> None:
    """The expected value is what the binary's own J$ and Nle, run in node 24, print for this path."""
    path = "/tmp/" + "a" * 150 + "/ü/" + "b" * 80 + "\U0001f600"
    expected = "-tmp-" + "a" * 150 + "---" + "b" * 42 + "-v1449q"
    assert project_slug(path) == expected
    assert project_slug("/short/p.ath") == "-short-p-ath"


def test_a_layout_two_hosts_fit_is_an_error_naming_both_and_asking_for_host(
    tmp_path: Path, user: Path, state: Path
) -> None:
    (tmp_path / "claw").mkdir()
    (tmp_path / "claw" / "openclaw.json").write_text("{}")
    home = hermes_home(tmp_path / "claw" / "workspace")
    before = tree(tmp_path)
    found = open_home(home, env=env_of(user), state=state)
    assert isinstance(found, OpeningError) and found.exit_code == 2
    assert found.message.startswith(f"{home} fits the layouts of Hermes (the folder has memories/ and config.yaml)")
    assert "and OpenClaw (its parent" in found.message
    assert found.message.endswith("say which host it is with --host hermes or --host openclaw")
    assert tree(tmp_path) == before


def test_the_host_named_wins_over_the_layout(tmp_path: Path, user: Path, state: Path) -> None:
    home = hermes_home(tmp_path / "hermes")
    found = opened(open_home(home, host="toolnexus", env=env_of(user), state=state))
    assert (found.host, found.files, found.reason, found.chosen) == (
        "toolnexus",
        host_files("toolnexus"),
        "--host toolnexus",
        Chosen.GIVEN,
    )
    with_version = opened(open_home(home, host="openclaw@2026.4.27", env=env_of(user), state=state))
    assert (with_version.host, with_version.version, with_version.spec) == (
        "openclaw",
        "2026.4.27",
        "openclaw@2026.4.27",
    )


def test_hermes_named_on_its_memories_folder_opens_the_home(tmp_path: Path, user: Path, state: Path) -> None:
    home = hermes_home(tmp_path / "hermes")
    found = opened(open_home(home / "memories", host="hermes", env=env_of(user), state=state))
    assert found.root == home
    assert found.reason == f"--host hermes: opened the parent of its memories/ folder, the Hermes home {home}"


def test_a_remembered_host_is_used_for_the_folders_real_path_and_opening_never_writes(
    tmp_path: Path, user: Path, state: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "link").symlink_to(home)
    before = tree(tmp_path)
    assert opened(open_home(home, env=env_of(user), state=state)).host == "toolnexus"
    assert tree(tmp_path) == before  # no state file, no .notebook: opening reads only
    chosen_at = datetime(2026, 12, 7, 15, 30, tzinfo=UTC)
    assert remember_host(home, "openclaw", "2026.4.27", state=state, now=chosen_at) is None
    found = opened(open_home(tmp_path / "link", env=env_of(user), state=state))
    assert (found.host, found.version, found.chosen) == ("openclaw", "2026.4.27", Chosen.REMEMBERED)
    local = local_time(chosen_at)
    assert found.reason == f"opened as OpenClaw: the host remembered for this folder since {local}"
    assert json.loads((state / "hosts.json").read_text()) == {
        os.path.realpath(home): {"host": "openclaw", "version": "2026.4.27", "since": "2026-12-07T15:30:00Z"}
    }
    assert not (home / ".notebook").exists()


def test_a_damaged_hosts_file_reads_as_no_choice(tmp_path: Path, state: Path) -> None:
    state.mkdir()
    (state / "hosts.json").write_text("{not json")
    assert remembered_host(tmp_path, state) is None
    assert remember_host(tmp_path, "hermes", state=state) is None
    assert remembered_host(tmp_path, state) is not None


def test_an_unknown_host_or_a_version_older_than_the_oldest_proven_is_a_usage_error(tmp_path: Path, user: Path) -> None:
    unknown = open_home(tmp_path, host="nope", env=env_of(user))
    assert isinstance(unknown, OpeningError) and unknown.message.startswith("no host named 'nope'; hosts: ")
    version = open_home(tmp_path, host="hermes@0.18", env=env_of(user))
    assert isinstance(version, OpeningError) and "0.18" in version.message and version.exit_code == 2
    for words in ("hermes@latest", "hermes@0.x"):
        refused = open_home(tmp_path, host=words, env=env_of(user))
        assert isinstance(refused, OpeningError) and "not a version" in refused.message


def test_a_version_newer_than_the_newest_proven_opens_as_named(tmp_path: Path, user: Path) -> None:
    """Issue 36: a release the goldens have not reached yet opens, its load shown as its nearest proven release's
    (it was a usage error before)."""
    found = open_home(tmp_path, host="hermes@0.20", env=env_of(user))
    assert not isinstance(found, OpeningError)
    assert (found.host, found.version) == ("hermes", "0.20")


def test_a_folder_that_is_not_there_is_an_error_and_is_never_made(tmp_path: Path, user: Path) -> None:
    found = open_home(tmp_path / "gone", env=env_of(user))
    assert isinstance(found, OpeningError) and found.message == f"no such home: {tmp_path / 'gone'}"
    assert not (tmp_path / "gone").exists()
    hermes = open_home(None, host="hermes", env=env_of(user))
    assert isinstance(hermes, OpeningError)
    assert hermes.message.startswith(f"Hermes's home {user / '.hermes'} is not there")
    assert hermes.message.endswith("; nothing was created")
    assert not (user / ".hermes").exists()


# Hermes's home: hermes_cli/main.py _apply_profile_override, hermes_constants.get_default_hermes_root


def test_hermes_home_is_hermes_home_env_else_the_default(tmp_path: Path, user: Path) -> None:
    default = hermes_home(user / ".hermes")
    assert opened(open_home(None, host="hermes", env=env_of(user))).root == default
    elsewhere = hermes_home(tmp_path / "opt" / "data")
    found = opened(open_home(None, host="hermes", env=env_of(user, HERMES_HOME=str(elsewhere))))
    assert found.root == elsewhere
    assert found.reason == f"--host hermes: $HERMES_HOME: {elsewhere}"


def test_hermes_active_profile_wins_unless_hermes_home_is_a_profile(tmp_path: Path, user: Path) -> None:
    root = hermes_home(user / ".hermes")
    coder = hermes_home(root / "profiles" / "coder")
    writer = hermes_home(root / "profiles" / "writer")
    (root / "active_profile").write_text("coder\n")
    found = opened(open_home(None, host="hermes", env=env_of(user)))
    assert found.root == coder
    assert found.reason == f"--host hermes: the active Hermes profile 'coder' ({root / 'active_profile'})"
    pinned = opened(open_home(None, host="hermes", env=env_of(user, HERMES_HOME=str(writer))))
    assert pinned.root == writer
    (root / "active_profile").write_text("default\n")
    assert opened(open_home(None, host="hermes", env=env_of(user))).root == root


def test_hermes_profile_opens_that_profile_and_an_unknown_one_lists_those_there(tmp_path: Path, user: Path) -> None:
    root = hermes_home(user / ".hermes")
    coder = hermes_home(root / "profiles" / "coder")
    found = opened(open_home(None, profile="Coder", env=env_of(user)))
    assert (found.host, found.root, found.reason) == (
        "hermes",
        coder,
        f"--profile Coder: the Hermes profile coder, {coder}",
    )
    missing = open_home(None, profile="nope", env=env_of(user))
    assert isinstance(missing, OpeningError)
    assert missing.message == f"no Hermes profile 'nope' in {root}; profiles: default, coder"
    assert not (root / "profiles" / "nope").exists()
    both = open_home(tmp_path, profile="coder", env=env_of(user))
    assert (
        isinstance(both, OpeningError)
        and both.message == "--profile names a home of its own; give --profile or --home, not both"
    )
    other = open_home(None, host="openclaw", profile="coder", env=env_of(user))
    assert isinstance(other, OpeningError) and other.message == "--profile names a Hermes profile; --host is openclaw"


# OpenClaw's workspace: agent-scope-config resolveAgentWorkspaceDir, workspace-default resolveDefaultAgentWorkspaceDir


def claw_config(path: Path, agents: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{ agents: " + agents + " }\n")
    return path


def test_openclaw_default_agent_works_in_the_defaults_workspace_and_another_in_its_own(
    tmp_path: Path, user: Path
) -> None:
    shared = tmp_path / "shared"
    (shared / "helper").mkdir(parents=True)
    main = tmp_path / "main-ws"
    main.mkdir()
    config = claw_config(
        user / ".openclaw" / "openclaw.json",
        f"{{ defaults: {{ workspace: '{shared}' }}, list: [ {{ id: 'main', default: true, workspace: '{main}' }},"
        " { id: 'helper' } ] }",
    )
    env = env_of(user)
    first = opened(open_home(None, host="openclaw", env=env))
    assert (first.root, first.agent) == (main, "main")
    helper = opened(open_home(None, agent="helper", env=env))
    assert (helper.root, helper.agent, helper.host) == (shared / "helper", "helper", "openclaw")
    assert (
        helper.reason
        == "--agent helper: the workspace of OpenClaw agent helper: agents.defaults.workspace/helper in the config"
    )
    unknown = open_home(None, agent="ghost", env=env)
    assert isinstance(unknown, OpeningError)
    assert unknown.message == f"no OpenClaw agent 'ghost' in the config {config}; agents: main, helper"


def test_openclaw_workspace_dir_counts_only_where_the_config_names_none(tmp_path: Path, user: Path) -> None:
    from_env = tmp_path / "from-env"
    from_env.mkdir()
    env = env_of(user, OPENCLAW_WORKSPACE_DIR=str(from_env))
    found = opened(open_home(None, host="openclaw", env=env))
    assert found.root == from_env
    assert found.reason.endswith("(the default agent): $OPENCLAW_WORKSPACE_DIR")
    named = tmp_path / "named"
    named.mkdir()
    claw_config(user / ".openclaw" / "openclaw.json", f"{{ defaults: {{ workspace: '{named}' }} }}")
    assert opened(open_home(None, host="openclaw", env=env)).root == named


def test_openclaw_state_dir_holds_its_config_and_the_other_agents_workspaces(tmp_path: Path, user: Path) -> None:
    state_dir = tmp_path / "claw-state"
    claw_config(state_dir / "openclaw.json", "{ list: [ { id: 'main', default: true }, { id: 'ops' } ] }")
    (state_dir / "workspace").mkdir()
    (state_dir / "workspace-ops").mkdir()
    env = env_of(user, OPENCLAW_STATE_DIR=str(state_dir))
    assert opened(open_home(None, host="openclaw", env=env)).root == state_dir / "workspace"
    ops = opened(open_home(None, agent="ops", env=env))
    assert ops.root == state_dir / "workspace-ops"
    assert ops.reason.endswith("OpenClaw's workspace-ops in its state folder")
    detected = opened(open_home(state_dir / "workspace-ops", env=env))
    assert (detected.host, detected.agent, detected.chosen) == ("openclaw", "ops", Chosen.DETECTED)


def test_openclaw_with_several_agents_and_no_default_asks_for_agent(tmp_path: Path, user: Path) -> None:
    config = claw_config(tmp_path / "c.json", "{ list: [ { id: 'a' }, { id: 'b' } ] }")
    found = open_home(None, host="openclaw", openclaw_config=config, env=env_of(user))
    assert isinstance(found, OpeningError)
    assert found.message == (
        f"the OpenClaw config {config} names several agents and none is the default (a, b): pass --agent ID"
    )


def test_an_openclaw_workspace_that_is_not_there_is_never_made(tmp_path: Path, user: Path) -> None:
    found = open_home(None, host="openclaw", env=env_of(user))
    assert isinstance(found, OpeningError) and found.message.endswith("; nothing was created")
    assert not (user / ".openclaw").exists()
