"""Picking Hermes or Claude Code in the palette: Next and Current show what the proven loader injects."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import make_app, started, wait_until

from notebook_app.app.widgets.session.session_pane import SessionPane
from notebook_app.core.hosts.claude_code.load import memory_part, read
from notebook_app.core.hosts.hermes.load import hermes_load


def pane_text(app, name: str) -> str:
    document = app.screen.query_one(f"#{name}", SessionPane).document
    return "\n".join(document.source if document.source is not None else document.lines)


async def _shown_as(app, pilot, command: str, title: str) -> None:
    await started(pilot)
    await pilot.press("ctrl+p", *command)
    await wait_until(pilot, lambda: any(c.option_count for c in app.screen.query("CommandList")), "palette results")
    await pilot.press("enter")
    upcoming = app.screen.query_one("#next", SessionPane)
    await wait_until(pilot, lambda: str(upcoming.border_title) == f"Next · {title}", "the relabel")


async def test_after_load_as_hermes_the_next_pane_is_what_hermes_injects(home: Path, tmp_path: Path) -> None:
    (home / "SOUL.md").write_text("".join(f"Line {i:05d} of who I am, calm and precise.\n" for i in range(600)))
    memories = home / "memories"  # the proven loader reads $HERMES_HOME/memories: give it the same files
    memories.mkdir()
    for name in ("MEMORY.md", "USER.md"):
        if (home / name).is_file():
            (memories / name).write_bytes((home / name).read_bytes())
    proven = [p for p in hermes_load(home).parts if p.loads]
    soul = "\n\n".join(f"## {p.name}\n\n{p.injected}" for p in proven)
    assert "read the complete file with the read_file tool" in soul
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await _shown_as(app, pilot, "Load as: Hermes", "Hermes")
        await wait_until(pilot, lambda: pane_text(app, "next") == soul, "the Next pane as Hermes injects it")


async def test_after_load_as_claude_code_the_next_pane_is_its_auto_memory_with_the_warning(
    home: Path, tmp_path: Path
) -> None:
    (home / "MEMORY.md").write_text("".join(f"- fact {i:05d}: the tide turns at noon\n" for i in range(260)))
    part = memory_part(read(home / "MEMORY.md"), str(home / "MEMORY.md"), quote=False)  # the panes keep its lines
    assert part is not None and part.status == "cut"
    soul = f"## MEMORY.md\n\n{part.injected}"
    assert "> WARNING: MEMORY.md is 260 lines (limit: 200)" in soul
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await _shown_as(app, pilot, "Load as: Claude Code", "Claude Code")
        await wait_until(pilot, lambda: pane_text(app, "next") == soul, "the Next pane as Claude Code loads it")
        assert pane_text(app, "current") == soul  # nothing changed since the session began
