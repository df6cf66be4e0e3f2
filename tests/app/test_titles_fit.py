"""Titles and heads whole at 100 columns, where a pane is 32 wide; columns that stay columns (issue 34, cosmetic).

At 100 columns Next's head read ``#2 · if it`` beside a long badge (its label wrapped, the rest out of sight),
the agent sessions' pane was titled ``Current session · the age…``, and ``L``'s columns were pushed out by
Claude Code's long names. Words are never cut: a shorter wording takes the place of one that does not fit.
"""

from __future__ import annotations

import shutil
from importlib.resources import files
from pathlib import Path

import pytest
from notebook_pilot import make_app, started, wait_until
from rich.cells import cell_len
from test_agent_sessions_view import sessions_view
from test_claude_code_project import claude_project, opened_app
from textual.widgets import Label, OptionList

from notebook_app.app.screens.injects import InjectsScreen
from notebook_app.app.widgets.session.session_pane import SessionPane


def head(app, pane: str) -> str:
    return str(app.screen.query_one(f"#{pane}", SessionPane).query_one(".session-meta", Label).content)


@pytest.mark.parametrize(("size", "said"), [((100, 30), "#2 · as of now"), ((160, 45), "#2 · if it began now")])
async def test_nexts_head_is_whole_words_beside_a_long_badge(tmp_path: Path, size, said: str) -> None:
    home = tmp_path / "demo"
    shutil.copytree(str(files("notebook_app") / "demo_home"), home)
    app = make_app(home, watch=True)
    async with app.run_test(size=size) as pilot:
        await started(pilot)
        await wait_until(
            pilot, lambda: any(w.group == "watch" and w.is_running for w in app.screen.workers), "the home watcher"
        )
        memory = home / "MEMORY.md"
        kept = memory.read_text().splitlines(keepends=True)
        memory.write_text("".join(kept[:2] + kept[4:]) + "".join(f"- extra line {n}\n" for n in range(12)))
        pane = app.screen.query_one("#next", SessionPane)
        await wait_until(
            pilot, lambda: "+12 −2 lines" in str(pane.query_one(".badge", Label).content), "the badge", attempts=1500
        )
        await pilot.pause()
        assert head(app, "next") == said
        meta = pane.query_one(".session-meta", Label)
        assert cell_len(said) <= meta.content_size.width  # on one row, nothing wrapped out of sight
        assert head(app, "current").startswith("#1 · began ")


async def test_the_agent_sessions_current_pane_title_fits_at_100_columns(home: Path) -> None:
    app = make_app(home, watch=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await sessions_view(pilot)
        pane = app.screen.query_one("#agent-current", SessionPane)
        await pilot.pause()
        assert str(pane.border_title) == "Current · the agent's"
        assert cell_len(str(pane.border_title)) + 4 <= pane.size.width


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_l_keeps_its_columns_under_long_claude_code_names(tmp_path: Path, monkeypatch, size) -> None:
    user = tmp_path / "user"
    for name in ("HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, str(user if name == "HOME" else tmp_path / name.lower()))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    root, user, memory = claude_project(tmp_path)
    (memory / "MEMORY.md").write_text("".join(f"- note {n}\n" for n in range(250)))  # cut: a ✂ column too
    (user / ".claude" / "rules").mkdir()
    (user / ".claude" / "rules" / "tone-and-voice-guidelines-for-answers.md").write_text("Be plain.\n")
    (root / ".claude" / "rules" / "python-linting-conventions.md").write_text("Lint it.\n")
    app, _ = opened_app(root)
    async with app.run_test(size=size) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app.screen.state.preview.composition.host == "claude-code", "Claude Code")
        await pilot.press("L")
        await wait_until(pilot, lambda: isinstance(app.screen, InjectsScreen) and app.screen.injects, "the load")
        listing = app.screen.query_one(OptionList)
        rows = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert len(rows) == 6
        columns = {row.index(" injected") if " injected" in row else row.index(" cut") for row in rows}
        assert len(columns) == 1, rows  # every status starts in the same column
        long = next(row for row in rows if "for-answers.md" in row)
        assert long.startswith("…") and long.split()[0].endswith("-for-answers.md")  # the end kept
        assert any("✂" in row for row in rows)
        assert max(cell_len(row.rstrip()) for row in rows) <= listing.content_size.width  # no row wraps
