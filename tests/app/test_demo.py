"""The demo persona: shipped in the package, used from a copy in the data dir."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from notebook_app.app.demo import demo_home_dir, ensure_demo
from notebook_app.core.home.soul import compose
from notebook_app.core.memory.tool import memory_tool


def shipped() -> dict[str, bytes]:
    return {e.name: e.read_bytes() for e in (files("notebook_app") / "demo_home").iterdir() if e.name.endswith(".md")}


def test_the_demo_is_a_believable_persona() -> None:
    assert set(shipped()) == {"AGENTS.md", "SOUL.md", "USER.md", "HEARTBEAT.md", "MEMORY.md"}
    entries = [line for line in shipped()["MEMORY.md"].decode().splitlines() if line.startswith("- ")]
    assert 10 <= len(entries) <= 14


def test_first_run_copies_the_demo_into_the_data_dir(tmp_path: Path) -> None:
    home = ensure_demo()
    assert home == demo_home_dir() and str(home).startswith(str(tmp_path))
    assert {p.name: p.read_bytes() for p in home.iterdir()} == shipped()
    assert compose(home).found == ["AGENTS.md", "SOUL.md", "USER.md", "HEARTBEAT.md", "MEMORY.md"]


def test_writes_persist_between_runs_and_reset_restores(tmp_path: Path) -> None:
    home = ensure_demo()
    assert not memory_tool(home).call({"action": "add", "text": "kept for next run"}).is_error
    assert "kept for next run" in (ensure_demo() / "MEMORY.md").read_text()
    restored = ensure_demo(reset=True)
    assert {p.name: p.read_bytes() for p in restored.iterdir()} == shipped()
