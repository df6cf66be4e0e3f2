"""A Claude Code project's CLAUDE.md chain: named and ordered as Claude Code loads it, read where it is, and never
written by any of the core's write paths (issue 22, item 4: user and project CLAUDE.md files are read-only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from notebook_app.core.home.refusals import Rejection
from notebook_app.core.hosts.claude_code.home import memory_dir
from notebook_app.core.hosts.opening.choose import open_home
from notebook_app.core.hosts.opening.result import Opening
from notebook_app.core.memory.edits.editor_copy import edit_with_editor
from notebook_app.core.memory.edits.guarded_splice import delete_entry, edit_entry
from notebook_app.core.memory.edits.hand_edit import read_for_edit, text_digest, write_file
from notebook_app.core.record.log.actor import NOTEBOOK


def tree(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Opening]:
    """A project with CLAUDE.md, a rule and CLAUDE.local.md, the user's ~/.claude/CLAUDE.md, and its memory folder."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    user, root = tmp_path / "user", tmp_path / "proj"
    (root / ".claude" / "rules").mkdir(parents=True)
    (user / ".claude").mkdir(parents=True)
    (user / ".claude" / "CLAUDE.md").write_text("I prefer short answers.\n")
    (root / "CLAUDE.md").write_text("# Project\n\nUse make test.\n")
    (root / ".claude" / "rules" / "lint.md").write_text("Run ruff first.\n")
    (root / "CLAUDE.local.md").write_text("My sandbox is /tmp/x.\n")
    (root / ".claude" / "rules" / "empty.md").write_text("\n")  # holds no text: Claude Code does not load it
    memory = memory_dir(root, {"HOME": str(user)})
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- likes tabs\n")
    found = open_home(root, env={"HOME": str(user)}, state=tmp_path / "state")
    assert isinstance(found, Opening), found
    return root, user, found


def test_the_chain_is_listed_in_claude_codes_order_by_the_names_a_person_knows(project) -> None:
    root, user, found = project
    files = found.files.host_files
    assert list(files) == ["~/.claude/CLAUDE.md", "CLAUDE.md", ".claude/rules/lint.md", "CLAUDE.local.md"]
    assert [f.whose for f in files.values()] == [
        "Claude Code's user instructions",
        "Claude Code's project instructions",
        "Claude Code's project instructions",
        "Claude Code's local project instructions",
    ]
    assert found.files.path(found.entry_home, ".claude/rules/lint.md") == root / ".claude" / "rules" / "lint.md"
    assert found.files.path(found.entry_home, "~/.claude/CLAUDE.md") == user / ".claude" / "CLAUDE.md"
    assert found.files.path(found.entry_home, "MEMORY.md") == found.entry_home / "MEMORY.md"


@pytest.mark.parametrize("name", ["~/.claude/CLAUDE.md", "CLAUDE.md", ".claude/rules/lint.md", "CLAUDE.local.md"])
def test_every_write_path_refuses_an_instruction_file_in_words_and_writes_nowhere(project, name: str) -> None:
    root, user, found = project
    home, files = found.entry_home, found.files
    before = (tree(root), tree(user))
    said = f"{name} is {files.host_files[name].whose}, read-only here: edit it in your own editor; nothing was written"
    refused = read_for_edit(home, name, files=files)
    assert isinstance(refused, Rejection) and refused.message == said
    wrote = write_file(home, name, "new\n", base_text="", base_digest=text_digest(""), by=NOTEBOOK, files=files)
    assert (wrote.is_error, wrote.output) == (True, said)
    edited = edit_entry(home, name, 1, "# Project", "- mine", by=NOTEBOOK, files=files)
    deleted = delete_entry(home, name, 1, "# Project", by=NOTEBOOK, files=files)
    assert [(r.is_error, r.output) for r in (edited, deleted)] == [(True, said)] * 2
    ran: list[Path] = []
    outside = edit_with_editor(home, name, ran.append, edits_dir=root.parent / "edits", by=NOTEBOOK, files=files)
    assert (outside.output, ran) == (said, [])
    assert (tree(root), tree(user)) == before  # nothing in the project, nothing beside the memory


def test_a_topic_file_opens_for_an_edit_and_one_with_a_name_the_journal_cannot_hold_is_refused_as_its_save(
    project,
) -> None:
    root, user, found = project
    (found.entry_home / "debugging.md").write_text("# Debugging\n")
    assert read_for_edit(found.entry_home, "debugging.md", files=found.files) == "# Debugging\n"
    (found.entry_home / "débogage.md").write_text("# Débogage\n")
    refused = read_for_edit(found.entry_home, "débogage.md", files=found.files)
    assert isinstance(refused, Rejection) and refused.message.startswith("débogage.md: the notebook edits a topic")
    saved = write_file(
        found.entry_home, "débogage.md", "x\n", base_text="# Débogage\n",
        base_digest=text_digest("# Débogage\n"), by=NOTEBOOK, files=found.files,
    )  # fmt: skip
    assert saved.is_error and (found.entry_home / "débogage.md").read_text() == "# Débogage\n"
