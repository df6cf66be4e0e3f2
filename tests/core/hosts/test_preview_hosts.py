"""Which hosts a home may be previewed as: real folders, the real layout rule, a person's own profile on disk.

A toolnexus home previews as any host; a home opened as a host as that host's
releases and as another host only where that host's layout fits its files too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from notebook_app.core.hosts.opening.choose import open_home
from notebook_app.core.hosts.opening.previews import previews_of

SHIPPED = ["claude-code", "hermes", "openclaw", "toolnexus", "toolnexus-py"]


@pytest.fixture(autouse=True)
def own_profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A person's own host profile in their config folder, and their state and home kept in the test's."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    folder = tmp_path / "config" / "persona-notebook" / "hosts"
    folder.mkdir(parents=True)
    (folder / "my-agent.toml").write_text('title = "My agent"\nsummary = "mine"\nfiles = ["SOUL.md"]\nunit = "bytes"\n')


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    user = tmp_path / "user"
    user.mkdir()
    return {"HOME": str(user)}


def tree(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def hermes_home(path: Path) -> Path:
    (path / "memories").mkdir(parents=True)
    (path / "SOUL.md").write_text("You are Hermes.\n")
    (path / "memories" / "MEMORY.md").write_text("A\n§\nB\n")
    return path


def slug(project: Path) -> str:
    """Claude Code's folder name for a short project path: each character not a letter or digit a dash."""
    return "".join(c if c.isascii() and c.isalnum() else "-" for c in str(project.resolve()))


def opened_as(home: Path, env: dict[str, str]) -> str:
    opening = open_home(home, env=env)
    assert not isinstance(opening, Exception) and hasattr(opening, "host"), opening
    return opening.host  # type: ignore[union-attr]


def test_a_toolnexus_home_previews_as_every_host_and_remembers_none(tmp_path: Path, env: dict[str, str]) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "MEMORY.md").write_text("- a\n")
    assert opened_as(home, env) == "toolnexus"
    previews = previews_of(home, None, env=env)
    assert previews.offered == ("claude-code", "hermes", "my-agent", "openclaw", "toolnexus", "toolnexus-py")
    assert previews.left_out == ()
    assert previews.offers("openclaw@2026.4.27") and previews.offers("my-agent")
    assert not any(previews.remembers(spec) for spec in ("openclaw@2026.4.27", "hermes", "toolnexus"))
    assert previews_of(home, "toolnexus", env=env) == previews


def test_a_hermes_home_previews_only_as_hermes_and_says_why_not_the_others(tmp_path: Path, env: dict[str, str]) -> None:
    home = hermes_home(tmp_path / "hermes")
    assert opened_as(home, env) == "hermes"
    before = tree(tmp_path)
    previews = previews_of(home, "hermes", env=env)
    assert previews.offered == ("hermes",)
    assert previews.offers("hermes@0.19.0") and not previews.offers("openclaw@2026.9.6")
    assert previews.why_not("openclaw") == (
        "this is a Hermes home: its stores are in memories/; OpenClaw does not read them"
    )
    assert previews.why_not("claude-code") == (
        "this is a Hermes home: its stores are in memories/; Claude Code does not read them"
    )
    assert previews.why_not("toolnexus") == (
        "this is a Hermes home: its stores are in memories/; toolnexus does not read them"
    )
    assert previews.why_not("my-agent") == (
        "My agent is a person's own profile, which previews only a toolnexus home; "
        "this is a Hermes home: its stores are in memories/"
    )
    assert previews.remembers("hermes@0.19.0") and previews.remembers("hermes")
    assert tree(tmp_path) == before  # the layout read, nothing written


def test_an_openclaw_workspace_beside_openclaw_json_previews_as_openclaw_and_the_contract(
    tmp_path: Path, env: dict[str, str]
) -> None:
    work = tmp_path / "claw" / "workspace"
    work.mkdir(parents=True)
    (tmp_path / "claw" / "openclaw.json").write_text("{}")
    (work / "MEMORY.md").write_text("- a\n")
    assert opened_as(work, env) == "openclaw"
    previews = previews_of(work, "openclaw", env=env)
    assert previews.offered == ("openclaw", "toolnexus", "toolnexus-py")  # the contract's layout: files at the top
    assert previews.why_not("hermes") == (
        "this is an OpenClaw workspace: its files are at its top, in '- ' lines; "
        "Hermes keeps MEMORY.md and USER.md in memories/ beside config.yaml or SOUL.md"
    )
    assert previews.why_not("claude-code") == (
        "this is an OpenClaw workspace: its files are at its top, in '- ' lines; "
        "Claude Code reads MEMORY.md from its auto-memory folder, for a project with CLAUDE.md"
    )
    assert previews.remembers("openclaw@2026.4.27")
    assert not previews.remembers("toolnexus")  # a preview of another layout's host is never kept


def test_a_home_opened_as_hermes_whose_folder_also_fits_claude_code_previews_as_both(
    tmp_path: Path, env: dict[str, str]
) -> None:
    home = hermes_home(tmp_path / "both")
    (home / "CLAUDE.md").write_text("Use tabs.\n")
    memory = Path(env["HOME"]) / ".claude" / "projects" / slug(home) / "memory"
    memory.mkdir(parents=True)
    previews = previews_of(home, "hermes", env=env)
    assert previews.offered == ("claude-code", "hermes")
    assert previews.remembers("hermes") and not previews.remembers("claude-code@2.1.332")
    assert previews.why_not("openclaw") is not None


def test_a_claude_code_project_previews_only_as_claude_code(tmp_path: Path, env: dict[str, str]) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "CLAUDE.md").write_text("Use tabs.\n")
    (Path(env["HOME"]) / ".claude" / "projects" / slug(project) / "memory").mkdir(parents=True)
    assert opened_as(project, env) == "claude-code"
    previews = previews_of(project, "claude-code", env=env)
    assert previews.offered == ("claude-code",)
    assert previews.why_not("hermes") == (
        "this is a Claude Code project: its memory is in Claude Code's auto-memory folder; Hermes does not read it"
    )
    assert {left.name for left in previews.left_out} == set(SHIPPED + ["my-agent"]) - {"claude-code"}
