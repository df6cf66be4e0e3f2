"""What a file's pane says on an OpenClaw load, per proven release: BOOTSTRAP.md's first run, a daily note's
reader, and OpenClaw's own cap in UTF-16 units (not the contract's 2 MiB)."""

from __future__ import annotations

from pathlib import Path

import pytest

from notebook_app.core.home.soul import compose
from notebook_app.core.hosts.choice import resolve_host
from notebook_app.core.hosts.openclaw.pane import openclaw_pane
from notebook_app.core.hosts.openclaw.releases import releases


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(tmp_path / "no-openclaw.json"))


def composed(home: Path, version: str):
    choice = resolve_host(f"openclaw@{version}")
    assert choice.profile is not None, choice.error
    return compose(home, host=choice.profile)


def release(version: str) -> dict:
    return next(r for r in releases() if r["version"] == version)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    home = tmp_path / "ws"
    (home / "memory").mkdir(parents=True)
    (home / "BOOTSTRAP.md").write_text("First run: ask their name.\n")
    (home / "USER.md").write_text("- Sam 🪶 likes short answers\n")
    (home / "SOUL.md").write_text("Calm.\n")
    (home / "memory" / "2026-12-01.md").write_text("- talked\n")
    return home


@pytest.mark.parametrize(
    ("version", "how_it_stops"),
    [
        ("2026.9.6", "OpenClaw 2026.9.6 records that in its own database, outside the workspace"),
        ("2026.8.2", "OpenClaw 2026.8.2 records that in its own database, outside the workspace"),
        ("2026.6.6", "OpenClaw 2026.6.6 also stops once .openclaw/workspace-state.json records setup as done"),
        ("2026.4.27", "OpenClaw 2026.4.27 injects it whenever it is there"),
    ],
)
def test_bootstrap_says_when_openclaw_injects_it_and_how_that_release_knows_setup_is_done(
    version: str, how_it_stops: str
) -> None:
    note = openclaw_pane("BOOTSTRAP.md", release(version), None).note
    assert note is not None
    assert note.startswith("OpenClaw injects this on a new workspace's first run; the agent deletes it when setup")
    assert how_it_stops in note


def test_a_daily_note_says_it_is_not_injected_and_the_agent_reads_it_itself() -> None:
    facts = openclaw_pane("memory/2026-12-01.md", release("2026.9.6"), None)
    assert facts.note is not None and facts.note.startswith("not injected: OpenClaw's agent reads")
    assert (facts.units, facts.cap) == (None, None)  # no cap: nothing of it is injected


def test_a_file_at_the_top_named_like_a_note_is_not_one() -> None:
    assert openclaw_pane("SOUL.md", release("2026.9.6"), None).note is None


def test_the_cap_is_the_releases_in_utf16_units_and_user_md_has_its_own_from_2026_8(workspace: Path) -> None:
    new = composed(workspace, "2026.9.6")
    user = openclaw_pane("USER.md", release("2026.9.6"), new.load("USER.md"))
    # as OpenClaw counts it: the trimmed text in UTF-16 code units, the feather two of them
    assert user.units == len("- Sam 🪶 likes short answers".encode("utf-16-le")) // 2 == 28
    assert user.cap == 4000
    soul = openclaw_pane("SOUL.md", release("2026.9.6"), new.load("SOUL.md"))
    assert (soul.units, soul.cap, soul.note) == (5, 20000, None)
    old = composed(workspace, "2026.4.27")
    assert openclaw_pane("USER.md", release("2026.4.27"), old.load("USER.md")).cap == 12000


def test_no_release_known_says_nothing() -> None:
    assert openclaw_pane("BOOTSTRAP.md", None, None).note is None
