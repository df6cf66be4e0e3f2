"""Every verb with ``--home`` opens it as its host has it: ``--host``, the host remembered, the layout's, toolnexus.

Real processes (tests/cli_process.py): the state and config folders and ``$HOME`` in the test's tmp.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import run

MEMORY = "A\n§\nB\n"


@pytest.fixture
def user(tmp_path: Path) -> Path:
    path = tmp_path / "user"
    path.mkdir()
    return path


def hermes_home(path: Path) -> Path:
    (path / "memories").mkdir(parents=True)
    (path / "memories" / "MEMORY.md").write_text(MEMORY)
    (path / "config.yaml").write_text("memory:\n  memory_char_limit: 3000\n")
    (path / "SOUL.md").write_text("You are Kip.\n")
    return path


def hosts_file(tmp_path: Path) -> Path:
    return tmp_path / "state" / "persona-notebook" / "hosts.json"


def test_a_plain_folder_with_no_host_behaves_as_before_and_nothing_is_remembered(tmp_path: Path, user: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    added = run("memory", "add", "prefers tea", "--home", str(home), tmp=tmp_path, home=user)
    assert (added.returncode, added.stdout, added.stderr) == (0, "ok (add → MEMORY.md); loads next session\n", "")
    soul = run("soul", "--home", str(home), tmp=tmp_path, home=user)
    assert (soul.returncode, soul.stdout, soul.stderr) == (0, "## MEMORY.md\n\n- prefers tea\n", "")
    assert not hosts_file(tmp_path).exists()


def test_a_hermes_home_is_detected_and_the_reason_is_one_line_on_stderr(tmp_path: Path, user: Path) -> None:
    home = hermes_home(tmp_path / "hermes")
    done = run("doctor", "--home", str(home), "--json", tmp=tmp_path, home=user)
    assert done.stderr.splitlines()[0] == (
        "persona-notebook: opened as Hermes: the folder has memories/, config.yaml and SOUL.md"
    )
    assert done.stderr.count("opened as") == 1
    numbers = next(f["message"] for f in json.loads(done.stdout)["findings"] if f["rule"] == "host.numbers")
    assert "memory limits MEMORY.md 3,000" in numbers
    assert not hosts_file(tmp_path).exists()  # detection is not a choice: nothing is remembered


def test_soul_on_a_hermes_memories_folder_composes_the_home_as_hermes_does(tmp_path: Path, user: Path) -> None:
    home = hermes_home(tmp_path / "hermes")
    done = run("soul", "--home", str(home / "memories"), "--json", tmp=tmp_path, home=user)
    assert done.returncode == 0
    assert done.stderr.splitlines()[0] == (
        f"persona-notebook: opened the Hermes home {home}, whose memories/ folder was given: "
        "it has memories/, config.yaml and SOUL.md"
    )
    data = json.loads(done.stdout)
    assert data["host"] == "hermes" and "You are Kip." in data["soul"] and "5/3,000 chars" in data["soul"]


def test_a_host_a_write_was_aimed_with_is_remembered_for_the_folder_and_then_used_and_said(
    tmp_path: Path, user: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "SOUL.md").write_text("You are Kip.\n")
    looked = run("doctor", "--home", str(home), "--host", "openclaw", tmp=tmp_path, home=user)
    assert looked.stdout.startswith(f"doctor: {home} as OpenClaw")
    assert "opened as" not in looked.stderr  # the person said it: nothing to explain
    assert not hosts_file(tmp_path).exists()  # a read never remembers (issue 34)
    chosen = run("memory", "add", "x", "--home", str(home), "--host", "openclaw", tmp=tmp_path, home=user)
    assert (chosen.returncode, chosen.stderr) == (0, "")
    kept = json.loads(hosts_file(tmp_path).read_text())
    assert kept.keys() == {str(home.resolve())} and kept[str(home.resolve())]["host"] == "openclaw"
    again = run("doctor", "--home", str(home), tmp=tmp_path, home=user)
    assert again.stdout.startswith(f"doctor: {home} as OpenClaw")
    assert again.stderr.splitlines()[0].startswith(
        "persona-notebook: opened as OpenClaw: the host remembered for this folder since "
    )


def test_host_toolnexus_on_a_hermes_layout_keeps_the_contract_and_a_write_with_it_is_remembered(
    tmp_path: Path, user: Path
) -> None:
    home = hermes_home(tmp_path / "hermes")
    first = run("soul", "--home", str(home), "--host", "toolnexus", tmp=tmp_path, home=user)
    assert (first.returncode, first.stdout, first.stderr) == (0, "## SOUL.md\n\nYou are Kip.\n", "")
    looked = run("soul", "--home", str(home), tmp=tmp_path, home=user)  # the preview was not remembered
    assert looked.stderr.splitlines()[0] == (
        "persona-notebook: opened as Hermes: the folder has memories/, config.yaml and SOUL.md"
    )
    wrote = run("memory", "add", "tn", "--home", str(home), "--host", "toolnexus", tmp=tmp_path, home=user)
    assert (wrote.returncode, wrote.stdout) == (0, "ok (add → MEMORY.md); loads next session\n")
    later = run("soul", "--home", str(home), tmp=tmp_path, home=user)
    assert (later.returncode, later.stdout, later.stderr) == (
        0,
        "## SOUL.md\n\nYou are Kip.\n\n## MEMORY.md\n\n- tn\n",
        "",
    )
    written = run("memory", "add", "tn 2", "--home", str(home), tmp=tmp_path, home=user)
    assert written.stderr.startswith("persona-notebook: as toolnexus, remembered for this folder since ")
    assert written.stderr.endswith("; `--host hermes` writes memories/MEMORY.md\n")
    assert (home / "memories" / "MEMORY.md").read_text() == MEMORY


def test_profile_opens_that_hermes_profile_and_an_unknown_one_exits_two_listing_them(
    tmp_path: Path, user: Path
) -> None:
    hermes_home(user / ".hermes")
    coder = hermes_home(user / ".hermes" / "profiles" / "coder")
    done = run("doctor", "--profile", "coder", tmp=tmp_path, home=user)
    assert done.returncode == 0 and done.stdout.startswith(f"doctor: {coder} as Hermes loads it")
    missing = run("memory", "add", "x", "--profile", "nope", tmp=tmp_path, home=user)
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr == (
        f"persona-notebook: no Hermes profile 'nope' in {user / '.hermes'}; profiles: default, coder\n"
    )
    assert not (user / ".hermes" / "profiles" / "nope").exists()


def test_agent_opens_that_openclaw_agents_workspace_and_an_unknown_one_exits_two(tmp_path: Path, user: Path) -> None:
    helper = tmp_path / "helper-ws"
    helper.mkdir()
    config = tmp_path / "openclaw.json"
    config.write_text(
        f"{{ agents: {{ list: [ {{ id: 'main', default: true }}, {{ id: 'helper', workspace: '{helper}' }} ] }} }}"
    )
    added = run(
        "memory", "add", "ships on Fridays", "--agent", "helper", "--openclaw-config", str(config), tmp=tmp_path
    )
    assert (added.returncode, added.stderr) == (  # the home was not given: it is named (issue 34)
        0,
        "persona-notebook: --agent helper: the workspace of OpenClaw agent helper: "
        f"agent helper's workspace in the config; the home is {helper}\n",
    )
    assert (helper / "MEMORY.md").read_text() == "- ships on Fridays\n"
    ghost = run("memory", "add", "x", "--agent", "ghost", "--openclaw-config", str(config), tmp=tmp_path)
    assert (ghost.returncode, ghost.stderr) == (
        2,
        f"persona-notebook: no OpenClaw agent 'ghost' in the config {config}; agents: main, helper\n",
    )


def test_a_host_home_that_is_not_there_exits_two_and_is_not_made(tmp_path: Path, user: Path) -> None:
    done = run("history", "--host", "hermes", tmp=tmp_path, home=user)
    assert done.returncode == 2
    assert done.stderr.startswith(f"persona-notebook: Hermes's home {user / '.hermes'} is not there")
    assert not (user / ".hermes").exists()


def test_a_layout_two_hosts_fit_exits_two_and_asks_for_host(tmp_path: Path, user: Path) -> None:
    (tmp_path / "claw").mkdir()
    (tmp_path / "claw" / "openclaw.json").write_text("{}")
    home = hermes_home(tmp_path / "claw" / "workspace")
    done = run("entry", "delete", "MEMORY.md", "1", "--expect", "A", "--home", str(home), tmp=tmp_path, home=user)
    assert done.returncode == 2
    assert done.stderr.endswith("say which host it is with --host hermes or --host openclaw\n")
    assert (home / "memories" / "MEMORY.md").read_text() == MEMORY


@pytest.mark.parametrize(
    "verb",
    [("history",), ("pending",), ("review", "status"), ("blame", "MEMORY.md"), ("soul",), ("doctor",)],
)
def test_every_verb_with_home_takes_the_host_options(tmp_path: Path, user: Path, verb: tuple[str, ...]) -> None:
    home = tmp_path / "home"
    home.mkdir()
    done = run(*verb, "--home", str(home), "--host", "toolnexus", tmp=tmp_path, home=user)
    assert done.returncode in (0, 1), done.stderr
    bad = run(*verb, "--home", str(home), "--host", "nope", tmp=tmp_path, home=user)
    assert bad.returncode == 2 and "no host named 'nope'" in bad.stderr


def test_agent_second_opens_its_default_workspace_beside_the_main_one(tmp_path: Path, user: Path) -> None:
    state = user / ".openclaw"
    (state / "workspace").mkdir(parents=True)
    (state / "workspace-second").mkdir()
    config = state / "openclaw.json"
    config.write_text('{ agents: { list: [ { id: "main", default: true }, { id: "second" } ] } }')
    added = run(
        "memory",
        "add",
        "the second agent's note",
        "--agent",
        "second",
        "--openclaw-config",
        str(config),
        tmp=tmp_path,
        home=user,
    )  # the harness points $OPENCLAW_CONFIG_PATH away from ~/.openclaw: the config is named
    assert added.returncode == 0, added.stderr
    assert (state / "workspace-second" / "MEMORY.md").read_text() == "- the second agent's note\n"
    assert not (state / "workspace" / "MEMORY.md").exists()
