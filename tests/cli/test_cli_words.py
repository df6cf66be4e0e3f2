"""What the command line says when a person is about to be confused (issue 34), each in a real process:
a near miss of a verb, a miss that only hidden characters cause, and ``git on`` with no one to ask."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from cli_process import run

HAS_GIT = shutil.which("git") is not None


def test_an_argument_one_edit_from_a_verb_asks_did_you_mean_and_makes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cwd = tmp_path / "here"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    for typed, verb in (("histroy", "history"), ("histry", "history"), ("doctr", "doctor"), ("pendng", "pending")):
        done = run(typed, tmp=tmp_path)
        assert done.returncode == 2, done.stderr
        assert f"did you mean {verb}?" in done.stderr
        assert f"./{typed}" in done.stderr  # how to open or make a home of that name after all
        assert "terminal" not in done.stderr  # said first: not the app's opening, nor its offer to create
    assert list(cwd.iterdir()) == []


def test_a_folder_of_that_name_is_opened_and_far_names_are_homes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cwd = tmp_path / "here"
    (cwd / "histroy").mkdir(parents=True)
    monkeypatch.chdir(cwd)
    for typed in ("histroy", "kelp-notes", "./historx"):  # a folder that is there, far from any verb, a path
        done = run(typed, tmp=tmp_path)
        assert "did you mean" not in done.stderr, typed
        assert "needs a terminal" in done.stderr  # the app's own opening: stdin is not a terminal here


def test_a_miss_that_only_a_hidden_character_causes_names_the_near_match_and_the_character(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "MEMORY.md").write_text("# Notes\n- tea\u200bat 4 on Fridays\n")
    done = run("memory", "remove", "teaat 4", "--home", str(home), tmp=tmp_path)
    assert done.returncode == 1
    first, second = done.stderr.splitlines()
    assert first == "not found: teaat 4"
    assert "line 2 of MEMORY.md" in second and "tea∙at 4" in second
    assert "U+200B ZERO WIDTH SPACE" in second and "in the file" in second
    as_json = json.loads(run("memory", "remove", "teaat 4", "--home", str(home), "--json", tmp=tmp_path).stdout)
    assert as_json["output"] == "not found: teaat 4"  # the tool's own words stay the contract's
    assert "U+200B ZERO WIDTH SPACE" in as_json["near"]
    (home / "MEMORY.md").write_text("- tea at 4\n")
    typed = run("memory", "replace", "tea at\u2060 4", "--with", "x", "--home", str(home), tmp=tmp_path)
    assert typed.returncode == 1 and "U+2060 WORD JOINER" in typed.stderr and "in your text" in typed.stderr
    assert (home / "MEMORY.md").read_text() == "- tea at 4\n"
    plain = run("memory", "remove", "coffee", "--home", str(home), tmp=tmp_path)
    assert plain.stderr == "not found: coffee\n"  # a plain miss stays one line


@pytest.mark.skipif(not HAS_GIT, reason="needs git")
def test_git_on_with_no_terminal_and_no_yes_says_what_it_did_not_do(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    done = run("git", "on", "--home", str(home), tmp=tmp_path, env={"GIT_CONFIG_GLOBAL": os.devnull}, stdin="y\n")
    assert done.returncode == 0, done.stderr
    assert "git is on" in done.stdout
    assert not (home / ".gitignore").exists()
    said = done.stdout + done.stderr
    assert ".notebook/, .memory.journal" in said and "not" in said
    assert "--yes" in done.stderr and "terminal" in done.stderr  # why it was not asked, and how to add them
    again = run("git", "on", "--home", str(home), "--yes", tmp=tmp_path, env={"GIT_CONFIG_GLOBAL": os.devnull})
    assert "added .notebook/, .memory.journal" in again.stdout and "--yes" not in again.stderr
