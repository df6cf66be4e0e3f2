"""The notebook on an OpenClaw workspace and a Claude Code project, opened as the app's launch opens them:
each host's files in its order, marked with their part in the next session, then those its agent reads on demand."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from notebook_pilot import SIZE, file_view, make_app, started, wait_until
from openclaw_homes import openclaw_workspace as shared_workspace
from openclaw_homes import user_of

from notebook_app.app.launch import _open_by_host
from notebook_app.app.view_model.file_rows import Part, file_rows
from notebook_app.app.widgets.form.action_form import ActionForm
from notebook_app.app.widgets.home.file_list import FileList
from notebook_app.app.widgets.home.home_pane import HomePane
from notebook_app.app.widgets.session.session_pane import SessionPane


@pytest.fixture
def user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A person's home folder and state of their own: OpenClaw's and Claude Code's folders are found from it."""
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    return user_of(tmp_path, monkeypatch)


def openclaw_workspace(user: Path) -> Path:
    """OpenClaw's default workspace (2026.9.6 layout) with BOOTSTRAP.md, two daily notes and a retired TOOLS.md,
    and no IDENTITY.md: a file of the release's order that is absent."""
    work = shared_workspace(user)
    (work / "IDENTITY.md").unlink()
    return work


async def test_an_openclaw_workspace_lists_its_release_order_then_daily_notes_then_what_it_does_not_load(
    user: Path,
) -> None:
    work = openclaw_workspace(user)
    where, notebook = _open_by_host(work)
    assert where == work
    app = make_app(where)
    app._notebook = notebook
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        current = app.screen.query_one("#current", SessionPane)
        await wait_until(pilot, lambda: current.border_title == "Current · OpenClaw", "OpenClaw's load in view")
        await wait_until(pilot, lambda: app.screen.state.preview.composition.host == "openclaw", "OpenClaw's state")
        rows = file_rows(app.screen.state)
        assert [(r.name, r.part) for r in rows] == [
            ("AGENTS.md", Part.INJECTED),
            ("SOUL.md", Part.INJECTED),
            ("IDENTITY.md", Part.ABSENT),
            ("USER.md", Part.INJECTED),
            ("BOOTSTRAP.md", Part.INJECTED),
            ("MEMORY.md", Part.INJECTED),
            ("memory/2026-12-02.md", Part.ON_DEMAND),
            ("memory/2026-12-01.md", Part.ON_DEMAND),
            ("TOOLS.md", Part.NOT_LOADED),
        ]
        assert app.screen.query_one(FileList).names == tuple(r.name for r in rows)
        # the frozen snapshot holds BOOTSTRAP.md, as OpenClaw injected it when the session began
        assert "First run: ask their name." in "\n".join(app.screen.state.comparison.current_doc.lines)
        await pilot.press("7")  # the newest daily note, in the document pane
        await wait_until(pilot, lambda: app.screen.query_one(HomePane).document == "memory/2026-12-02.md", "note")
        assert "fixed the watcher" in "\n".join(file_view(app, "memory/2026-12-02.md").document.lines)
        (work / "memory" / "2026-12-03.md").write_text("- a new day\n")
        app.screen.read_again()
        await wait_until(pilot, lambda: "memory/2026-12-03.md" in app.screen.query_one(FileList).names, "new note")
    assert not (work / ".notebook").exists()  # viewing writes nothing


async def test_a_claude_code_project_opens_its_memory_folder_and_an_add_never_touches_the_project(
    user: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "CLAUDE.md").write_text("# Project\n\nUse make test.\n")
    slug = "-" + str(project.resolve()).strip("/").replace("/", "-").replace("_", "-")
    memory = user / ".claude" / "projects" / slug / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- likes tabs\n")
    (memory / "debugging.md").write_text("# Debugging\n\nThe flaky test.\n")
    before = sorted(os.listdir(project))
    where, notebook = _open_by_host(project)
    assert where == memory
    app = make_app(where)
    app._notebook = notebook
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app.screen.state.preview.composition.host == "claude-code", "Claude Code")
        assert app.screen.query_one(FileList).names == ("CLAUDE.md", "MEMORY.md", "debugging.md")
        home = app.screen.query_one(HomePane)
        assert str(home.pane("USER.md").border_title) == "USER.md · this host has no USER.md"
        await pilot.press("t")  # one entry file: the target stays
        assert app.screen.target == "self"
        await pilot.press("a", *"prefers spaces now", "enter")
        await wait_until(pilot, lambda: not app.screen.query_one(ActionForm).is_open, "the form to close")
    assert (memory / "MEMORY.md").read_text() == "- likes tabs\n- prefers spaces now\n"
    assert sorted(os.listdir(project)) == before  # nothing of ours in the project's tree
    assert (memory / ".notebook").is_dir()
