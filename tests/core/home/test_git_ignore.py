"""The notebook's own files and a home's git: asked of a real git, appended to a real .gitignore, the no kept."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from notebook_app.core.home.git_ignore import (
    OUR_PATHS,
    GitAnswer,
    add_to_gitignore,
    git_answer,
    not_ignored,
    remember_git_answer,
)

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git_init(folder: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


@needs_git
def test_a_fresh_repository_ignores_none_of_our_files(home: Path) -> None:
    git_init(home)
    assert not_ignored(home) == (".notebook/", ".memory.journal")


def test_a_folder_in_no_work_tree_has_nothing_to_ask(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # a repository above tmp never counts
    folder = tmp_path / "plain"
    folder.mkdir()
    assert not_ignored(folder) == ()


def test_no_git_installed_has_nothing_to_ask(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(home))  # no git on it
    (home / ".git").mkdir()
    assert not_ignored(home) == ()


@needs_git
def test_a_bare_repository_has_nothing_to_ask(tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    assert not_ignored(bare) == ()


@needs_git
def test_the_lines_added_make_git_ignore_our_files(home: Path) -> None:
    git_init(home)
    assert add_to_gitignore(home, not_ignored(home)) is None
    assert (home / ".gitignore").read_bytes() == b".notebook/\n.memory.journal\n"
    assert not_ignored(home) == ()


@needs_git
def test_a_workspace_below_the_repository_top_gets_its_own_gitignore(tmp_path: Path) -> None:
    top = git_init(tmp_path / "repo")
    workspace = top / "agents" / "main"
    workspace.mkdir(parents=True)
    assert not_ignored(workspace) == OUR_PATHS
    assert add_to_gitignore(workspace, OUR_PATHS) is None
    assert not_ignored(workspace) == ()
    assert not (top / ".gitignore").exists()


@needs_git
def test_only_the_path_not_yet_ignored_is_asked_for(home: Path) -> None:
    git_init(home)
    (home / ".gitignore").write_bytes(b".notebook\n")
    assert not_ignored(home) == (".memory.journal",)


def test_the_old_bytes_stay_and_a_missing_last_newline_is_added_first(home: Path) -> None:
    old = b"node_modules/\n# keep \xff this\n*.log"
    (home / ".gitignore").write_bytes(old)
    assert add_to_gitignore(home, OUR_PATHS) is None
    data = (home / ".gitignore").read_bytes()
    assert data.startswith(old)
    assert data[len(old) :] == b"\n.notebook/\n.memory.journal\n"


def test_a_crlf_gitignore_gets_crlf_lines(home: Path) -> None:
    old = b"dist/\r\n*.tmp\r\n"
    (home / ".gitignore").write_bytes(old)
    assert add_to_gitignore(home, (".memory.journal",)) is None
    assert (home / ".gitignore").read_bytes() == old + b".memory.journal\r\n"


def test_a_gitignore_that_is_a_link_is_refused_and_left_alone(home: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_bytes(b"x\n")
    (home / ".gitignore").symlink_to(elsewhere)
    problem = add_to_gitignore(home, OUR_PATHS)
    assert problem is not None and "symbolic link" in problem
    assert elsewhere.read_bytes() == b"x\n"


def test_a_gitignore_that_is_a_fifo_is_refused_without_hanging(home: Path) -> None:
    os.mkfifo(home / ".gitignore")
    problem = add_to_gitignore(home, OUR_PATHS)
    assert problem is not None and "not a regular file" in problem


def test_a_gitignore_that_is_a_folder_is_refused(home: Path) -> None:
    (home / ".gitignore").mkdir()
    assert add_to_gitignore(home, OUR_PATHS) is not None


def test_nothing_to_add_writes_nothing(home: Path) -> None:
    assert add_to_gitignore(home, ()) is None
    assert not (home / ".gitignore").exists()


@needs_git
def test_asking_git_writes_nothing_in_the_home(home: Path, snapshot_files) -> None:
    git_init(home)
    before = snapshot_files(home)
    not_ignored(home)
    assert snapshot_files(home) == before


def test_a_no_is_kept_per_folder_by_its_real_path(home: Path, tmp_path: Path) -> None:
    state = tmp_path / "state"
    link = tmp_path / "link"
    link.symlink_to(home)
    assert git_answer(home, state) is None
    assert remember_git_answer(link, GitAnswer.DECLINED, state=state) is None
    assert git_answer(home, state) is GitAnswer.DECLINED
    assert git_answer(tmp_path, state) is None
    assert not any(home.iterdir())  # kept in the state folder, never in the home


def test_a_damaged_answers_file_reads_as_no_answer(home: Path, tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "gitignore.json").write_bytes(b"\xff{not json")
    assert git_answer(home, state) is None
    assert remember_git_answer(home, GitAnswer.HINTED, state=state) is None
    assert git_answer(home, state) is GitAnswer.HINTED
