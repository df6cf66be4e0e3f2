"""The notebook on a Claude Code project: its CLAUDE.md chain listed before MEMORY.md and shown read-only, ``L``
loaded from the project root, and the header naming the project (issue 22, the Claude Code rest)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from notebook_pilot import SIZE, make_app, started, wait_until

from notebook_app.app.app import project_label
from notebook_app.app.launch import _open_by_host
from notebook_app.app.screens.editor.screen import EditorScreen
from notebook_app.app.screens.injects import InjectsScreen
from notebook_app.app.widgets.form.action_form import ActionForm
from notebook_app.app.widgets.home.file_list import FileList
from notebook_app.app.widgets.home.home_pane import HomePane
from notebook_app.core.history.query import history
from notebook_app.core.hosts.claude_code.home import memory_dir
from notebook_app.core.record.log.actor import NOTEBOOK

CHAIN = ("~/.claude/CLAUDE.md", "CLAUDE.md", ".claude/rules/lint.md")


def tree(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def claude_project(tmp: Path) -> tuple[Path, Path, Path]:
    """A project (CLAUDE.md, a rule), the user's ~/.claude/CLAUDE.md, and its memory with MEMORY.md and a topic file."""
    user, root = tmp / "user", tmp / "proj"
    (root / ".claude" / "rules").mkdir(parents=True)
    (user / ".claude").mkdir(parents=True)
    (user / ".claude" / "CLAUDE.md").write_text("I prefer short answers.\n")
    (root / "CLAUDE.md").write_text("# Project\n\nUse make test. Keep diffs small.\n")
    (root / ".claude" / "rules" / "lint.md").write_text("Run ruff before committing.\n")
    memory = memory_dir(root, {"HOME": str(user)})
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- The build uses make\n- Tests live in tests/\n")
    (memory / "debugging.md").write_text("# Debugging\n\nRun the failing test with -x first.\n")
    return root, user, memory


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    user = tmp_path / "user"
    for name in ("HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, str(user if name == "HOME" else tmp_path / name.lower()))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    return claude_project(tmp_path)


def opened_app(root: Path, run_editor=None):
    opened = _open_by_host(root)
    assert not isinstance(opened, int), opened
    where, notebook = opened
    app = make_app(where, run_editor=run_editor)
    app._notebook = notebook
    said: list[str] = []
    notify = app.notify
    app.notify = lambda message, **kw: (said.append(message), notify(message, **kw))[1]
    return app, said


async def test_the_claude_md_chain_is_listed_before_memory_and_shown_read_only(project) -> None:
    root, user, memory = project
    app, _ = opened_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app.screen.state.preview.composition.host == "claude-code", "Claude Code")
        assert app.screen.query_one(FileList).names == (*CHAIN, "MEMORY.md", "debugging.md")
        await pilot.press("2")  # the Nth row: the project's CLAUDE.md
        home = app.screen.query_one(HomePane)
        pane = home.pane("CLAUDE.md")
        assert pane.view.document.lines[2] == "Use make test. Keep diffs small."
        assert str(pane.border_title).startswith("CLAUDE.md · read-only")
        assert str(home.pane("USER.md").border_title) == "USER.md · this host has no USER.md"


@pytest.mark.parametrize("key", ["E", "a", "e", "d"])
async def test_a_write_on_an_instruction_file_refuses_in_words_and_writes_nothing(project, key: str) -> None:
    root, user, memory = project
    before = (tree(root), tree(user / ".claude"))
    app, said = opened_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app.screen.state.preview.composition.host == "claude-code", "Claude Code")
        await pilot.press("3", key)  # .claude/rules/lint.md
        words = (
            ".claude/rules/lint.md is Claude Code's project instructions, read-only here: edit it in your own "
            "editor; nothing was written"
        )
        await wait_until(pilot, lambda: words in said, "the refusal")
        assert not isinstance(app.screen, EditorScreen)
        assert not app.screen.query_one(ActionForm).is_open
    assert (tree(root), tree(user / ".claude")) == before
    assert not (memory / ".claude").exists() and not (memory / "lint.md").exists()


async def test_l_loads_claude_code_from_the_project_root_with_its_chain(project) -> None:
    root, user, memory = project
    app, _ = opened_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app.screen.state.preview.composition.host == "claude-code", "Claude Code")
        await pilot.press("L")
        await wait_until(pilot, lambda: isinstance(app.screen, InjectsScreen) and app.screen.injects, "the load")
        load = app.screen.injects.load
        assert load.root == str(root)
        paths = [part.path for part in load.parts]
        assert paths == [
            str(user / ".claude" / "CLAUDE.md"),
            str(root / "CLAUDE.md"),
            str(root / ".claude" / "rules" / "lint.md"),
            str(memory / "MEMORY.md"),
        ]


def test_the_header_names_the_project_and_where_its_memory_is_in_short(project) -> None:
    root, user, memory = project
    label = project_label("claude-code@2.1.332", Path.home() / "proj", memory)
    assert label == "Claude Code · ~/proj (memory in ~/.claude)"
    assert len(f"Persona Notebook — {label}") <= 64  # the header's room at 80 columns


def outside(user: Path, memory: Path) -> dict[str, bytes | None]:
    """Everything under the user's home but the memory folder: where a topic edit must write nothing."""
    inside = str(memory.relative_to(user))
    return {k: v for k, v in tree(user).items() if not (k == inside or k.startswith(inside + "/"))}


async def test_e_on_a_topic_file_edits_it_and_the_save_writes_it_recorded_and_nothing_outside_memory(project) -> None:
    root, user, memory = project
    before = (tree(root), outside(user, memory))
    app, said = opened_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app.screen.state.preview.composition.host == "claude-code", "Claude Code")
        await pilot.press("5", "E")  # debugging.md, read on demand
        await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen), "the editor")
        editor = app.screen
        assert (editor.file_name, editor.text) == (
            "debugging.md",
            "# Debugging\n\nRun the failing test with -x first.\n",
        )
        editor.text_area.move_cursor(editor.text_area.document.end)
        await pilot.press("T", "h", "e", "n", "space", "l", "o", "g", "enter")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not editor.unsaved and not editor.saving, "the save")
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, EditorScreen), "back to the notebook")
    assert (memory / "debugging.md").read_text() == "# Debugging\n\nRun the failing test with -x first.\nThen log\n"
    (record,) = history(memory, limit=1)
    assert (record.action, record.file, record.by) == ("hand-edit", "debugging.md", NOTEBOOK)
    assert (tree(root), outside(user, memory)) == before  # the project and ~/.claude untouched
    assert sorted(p.name for p in memory.iterdir()) == [".memory.journal", ".notebook", "MEMORY.md", "debugging.md"]


async def test_the_history_file_filter_cycles_to_a_topic_file_its_records_name(project) -> None:
    root, user, memory = project
    from notebook_app.app.screens.history import HistoryScreen
    from notebook_app.core.home.layout import claude_code_files
    from notebook_app.core.memory.edits.hand_edit import text_digest, write_file
    from notebook_app.core.memory.tool import memory_tool

    old = (memory / "debugging.md").read_text()
    write_file(memory, "debugging.md", old + "x\n", base_text=old, base_digest=text_digest(old), by=NOTEBOOK,
               files=claude_code_files())  # fmt: skip
    memory_tool(memory, files=claude_code_files()).call({"action": "add", "text": "later"})
    app, said = opened_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("h")
        await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.records, "the history")
        screen = app.screen
        assert screen.others == ("debugging.md",)
        await pilot.press(*["f"] * 8)  # past all and the seven
        await wait_until(pilot, lambda: [e.file for e in screen.records] == ["debugging.md"], "only its records")
        assert screen.file == "debugging.md"
        await pilot.press("f")
        await wait_until(pilot, lambda: screen.file is None and len(screen.records) == 2, "all again")


async def test_o_on_a_topic_file_writes_the_outside_editors_copy_back_guarded(project) -> None:
    root, user, memory = project

    def run(copy: Path) -> int:
        copy.write_text(copy.read_text() + "Bisect when it is flaky.\n")
        return 0

    app, said = opened_app(root, run_editor=run)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app.screen.state.preview.composition.host == "claude-code", "Claude Code")
        await pilot.press("5", "o")
        await wait_until(pilot, lambda: any(w.startswith("Written: ok (hand edit → debugging.md)") for w in said), "ok")
    assert (memory / "debugging.md").read_text().endswith("-x first.\nBisect when it is flaky.\n")
    assert history(memory, limit=1)[0].file == "debugging.md"


async def test_current_and_next_show_every_part_claude_code_loads_in_its_order(project) -> None:
    """Issue 34: the panes showed only ``## MEMORY.md`` while ``soul`` and ``L`` showed the whole chain."""
    from notebook_app.app.widgets.session.session_pane import SessionPane

    root, user, memory = project
    (root / "CLAUDE.md").write_text("# Project\n\nUse make test. Keep diffs small.\n@notes.md\n")
    (root / "notes.md").write_text("Imported notes.\n")
    app, _ = opened_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: app.screen.state.preview.composition.host == "claude-code", "Claude Code")
        for pane in ("#current", "#next"):
            lines = list(app.screen.query_one(pane, SessionPane).document.lines)
            headings = [line for line in lines if line.startswith("## ")]
            assert headings == [f"## {name}" for name in (*CHAIN[:2], "notes.md", CHAIN[2], "MEMORY.md")], pane
            for words in ("I prefer short answers.", "Use make test. Keep diffs small.", "Imported notes."):
                assert words in lines, (pane, words)
            assert "Run ruff before committing." in lines and "- The build uses make" in lines


def installed_claude(project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, version: str) -> Path:
    """Claude Code ``version`` laid out as its native installer lays it out, on PATH, detection on; the marker a
    run of it would leave."""
    from fake_installs import claude_native

    from notebook_app.core.hostbase.installed import DETECT_OFF

    _, user, _ = project
    marker = tmp_path / "claude-ran"
    monkeypatch.setenv("PATH", f"{claude_native(user, version, marker)}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv(DETECT_OFF, raising=False)
    return marker


async def test_an_installed_claude_code_newer_than_the_newest_proven_is_named_and_shown_as_the_newest(
    project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root, _, _ = project
    marker = installed_claude(project, monkeypatch, tmp_path, "2.1.338")
    app, said = opened_app(root)
    sentence = "your Claude Code 2.1.338 is newer than the newest proven, 2.1.337: shown as 2.1.337 loads it"
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: "2.1.33" in app.screen.sub_title, "the installed release in the header")
        assert app.screen.sub_title == "Claude Code 2.1.338 (shown as 2.1.337) · test home"
        await wait_until(pilot, lambda: sentence in said, "the stand-in said")
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "claude-code@2.1.337", "2.1.337 in view")
        await pilot.press("L")
        await wait_until(pilot, lambda: isinstance(app.screen, InjectsScreen) and app.screen.injects, "the load")
        assert app.screen.injects.load.version == "2.1.337"
        summary = str(app.screen.query_one("#injects-summary").content)
        assert summary.endswith(
            "\nYour Claude Code 2.1.338 is newer than the newest proven, 2.1.337: shown as 2.1.337 loads it"
        )
        (memory,) = [part for part in app.screen.injects.load.parts if part.name == "MEMORY.md"]
        assert memory.injected.startswith("The quoted notes below were saved")
        (unproven,) = [f for f in app.screen_stack[-2].notebook.check().findings if f.rule == "host.unproven"]
        assert unproven.severity.value == "info" and "2.1.338" in unproven.message
    assert not marker.exists(), "detection ran the host"


async def test_an_installed_proven_claude_code_is_loaded_as_that_release(
    project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root, _, _ = project
    marker = installed_claude(project, monkeypatch, tmp_path, "2.1.335")
    app, said = opened_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: "2.1.33" in app.screen.sub_title, "the installed release in the header")
        assert app.screen.sub_title == "Claude Code 2.1.335 · test home"  # make_app pins the label
        await wait_until(pilot, lambda: app.screen.sessions.host_spec == "claude-code@2.1.335", "2.1.335 in view")
        await pilot.press("L")
        await wait_until(pilot, lambda: isinstance(app.screen, InjectsScreen) and app.screen.injects, "the load")
        assert app.screen.injects.load.version == "2.1.335"
        (memory,) = [part for part in app.screen.injects.load.parts if part.name == "MEMORY.md"]
        assert memory.injected == "- The build uses make\n- Tests live in tests/"  # 2.1.335 sends it unquoted
        assert "Your Claude Code" not in str(app.screen.query_one("#injects-summary").content)
    assert not any("newest proven" in words for words in said) and not marker.exists()
