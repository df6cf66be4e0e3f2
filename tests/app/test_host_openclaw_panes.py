"""Picking OpenClaw in the palette: Next and Current show what the proven OpenClaw loader injects."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from notebook_pilot import make_app, started, wait_until

from notebook_app.app.widgets.session.session_pane import SessionPane


def pane_text(app, name: str) -> str:
    document = app.screen.query_one(f"#{name}", SessionPane).document
    return "\n".join(document.source if document.source is not None else document.lines)


async def test_after_picking_openclaw_the_next_pane_is_what_soul_host_openclaw_prints(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(tmp_path / "no-openclaw.json"))
    (home / "MEMORY.md").write_text("".join(f"- fact {i:05d}: the tide turns at noon\n" for i in range(1200)))
    printed = subprocess.run(
        [sys.executable, "-m", "notebook_app", "soul", "--home", str(home), "--host", "openclaw"],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=60,
    )
    assert printed.returncode == 0, printed.stderr
    soul = printed.stdout.removesuffix("\n")
    assert f"[MISSING] Expected at: {home.resolve()}/AGENTS.md" in soul and "[...truncated, read MEMORY.md" in soul
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        await pilot.press("ctrl+p", *"Load as: OpenClaw")
        await wait_until(pilot, lambda: any(c.option_count for c in app.screen.query("CommandList")), "palette results")
        await pilot.press("enter")
        upcoming = app.screen.query_one("#next", SessionPane)
        await wait_until(pilot, lambda: str(upcoming.border_title) == "Next · OpenClaw", "the relabel")
        await wait_until(pilot, lambda: pane_text(app, "next") == soul, "the Next pane as OpenClaw injects it")
        # nothing changed since the session began: Current, shown as OpenClaw from its snapshot, is the same soul
        assert pane_text(app, "current") == soul
