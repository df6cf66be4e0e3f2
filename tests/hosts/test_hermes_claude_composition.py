"""The soul the doctor and the panes show as Hermes and as Claude Code load it is the proven loaders', on disk,
from a snapshot and in a dry run.

Each corpus case is built again (``host_corpus``); :func:`hermes_load` and :func:`claude_code_load` are held
to the goldens by their own tests, so here the notebook's composition is held to them: one section per part,
the same text, the same lengths.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import host_corpus
from notebook_app.core.home.soul import compose
from notebook_app.core.hosts.choice import resolve_host
from notebook_app.core.hosts.claude_code.load import claude_code_load
from notebook_app.core.hosts.hermes.load import hermes_load
from notebook_app.core.hosts.loader import as_host

HERMES = ["empty-home", "small", "soul-cap-plus-1", "soul-multibyte-cut", "soul-astral", "soul-crlf", "soul-bom"] + [
    "soul-invalid-utf8",
    "soul-empty",
    "soul-directory",
    "memory-over-limit",
    "memory-duplicates",
    "hermes-config-limits",
    "hermes-config-memory-off",
    "hermes-config-both-off",
    "hermes-config-context-cap",
]
CLAUDE = ["cc-memory-200-lines", "cc-memory-201-lines", "cc-memory-units-cap-plus-1", "cc-memory-multibyte-cut"]


def profile(spec: str):
    choice = resolve_host(spec)
    assert choice.profile is not None, choice.error
    return choice.profile


def built(tmp_path: Path, name: str) -> Path:
    host_corpus.build(tmp_path, [name])
    return (tmp_path / name / "home").resolve()


@pytest.mark.parametrize("name", HERMES)
def test_the_composed_soul_is_hermess_parts_one_for_one(tmp_path: Path, name: str) -> None:
    home = built(tmp_path, name)
    load = hermes_load(home)
    composition = compose(home, host=profile("hermes"))
    assert composition.host == "hermes"
    loaded = [p for p in load.parts if p.loads]
    assert [(f.name, f.body) for f in composition.files] == [(p.name, p.injected) for p in loaded]
    assert composition.soul == "\n\n".join(f"## {p.name}\n\n{p.injected}" for p in loaded)
    assert [(x.name, x.rendered, x.truncated) for x in composition.loads] == [
        (p.name, p.injected_len, p.status == "cut") for p in loaded
    ]
    said = {s.name: s.message for s in composition.skipped}
    assert all(said[p.name] == p.note for p in load.parts if p.status in ("seeded", "skipped", "failed"))


@pytest.mark.parametrize("name", ["small", "memory-over-limit", "memory-duplicates"])
def test_a_notebook_home_without_memories_is_read_as_hermes_reads_the_same_files_in_memories(
    tmp_path: Path, name: str
) -> None:
    home = built(tmp_path, name)
    hermes = hermes_load(home)
    shutil.rmtree(home / "memories")  # the notebook's own home: MEMORY.md and USER.md at its top
    composition = compose(home, host=profile("hermes"))
    assert [(f.name, f.body) for f in composition.files] == [(p.name, p.injected) for p in hermes.parts if p.loads]
    assert any("MEMORY.md and USER.md for memories/MEMORY.md" in note for note in composition.profile.notes)


@pytest.mark.parametrize("name", CLAUDE)
def test_the_composed_memory_is_claude_codes_auto_memory_with_its_warning(tmp_path: Path, name: str) -> None:
    host_corpus.build(tmp_path, [name])
    root, cwd = (tmp_path / name / d for d in host_corpus.claude_dirs(name))
    # 2.1.332 sends the kept text as the panes keep it: 2.1.337 quotes the same text (its goldens prove it)
    load = claude_code_load(root, cwd, tmp_path / name / host_corpus.CLAUDE_USER, version="2.1.332")
    proven = next(p for p in load.parts)
    assert proven.name == "MEMORY.md"
    home = tmp_path / "notebook-home"
    home.mkdir()
    shutil.copyfile(proven.path, home / "MEMORY.md")
    composition = compose(home, host=profile("claude-code"))
    assert [(f.name, f.body) for f in composition.files] == [("MEMORY.md", proven.injected)]
    assert composition.loads[0].rendered == proven.injected_len
    assert composition.loads[0].truncated == (proven.status == "cut")
    if proven.status == "cut":
        assert "> WARNING: MEMORY.md is " in composition.files[0].body
        assert composition.loads[0].omitted == proven.cut["dropped"]


def test_a_claude_code_cut_points_at_the_first_line_it_does_not_load(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("".join(f"- fact {i:03d}\n" for i in range(1, 251)), encoding="utf-8")
    load = compose(tmp_path, host=profile("claude-code")).load("MEMORY.md")
    lines = (tmp_path / "MEMORY.md").read_text(encoding="utf-8").splitlines(keepends=True)
    assert (load.truncated, load.cut_line) == (True, 201)
    assert load.cut_offset == len("".join(lines[:200]).encode())


@pytest.mark.parametrize("spec", ["hermes", "claude-code"])
@pytest.mark.parametrize("changed", ["MEMORY.md", "SOUL.md", "USER.md"])
@pytest.mark.parametrize("name", ["small", "empty-home", "soul-directory", "hermes-config-limits"])
def test_a_dry_run_is_composing_the_home_where_the_file_was_written(
    tmp_path: Path, name: str, spec: str, changed: str
) -> None:
    home = built(tmp_path, name)
    before = compose(home, host=profile(spec))
    for text in ("- one short entry\n", "".join(f"- entry {i:05d} é😀\n" for i in range(3000)), "A\n§\nB\n", ""):
        dry = before.with_text(changed, text)
        if (home / changed).is_dir():
            (home / changed).rmdir()
        (home / changed).write_text(text, encoding="utf-8")
        written = compose(home, host=profile(spec))
        assert dry == written, (changed, len(text))
        assert dry.loads == written.loads
        assert [(s.name, s.message) for s in dry.skipped] == [(s.name, s.message) for s in written.skipped]
        before = written


@pytest.mark.parametrize("changed", ["MEMORY.md", "USER.md"])
def test_a_hermes_dry_run_of_a_write_to_memories_is_what_hermes_then_loads(tmp_path: Path, changed: str) -> None:
    """A home opened as Hermes writes its stores in ``memories/``: the dry run shows them loaded, as a compose after
    the write does; the same text at the top (a plain home previewed as Hermes) is a file Hermes does not read."""
    home = tmp_path / "hermes"
    (home / "memories").mkdir(parents=True)
    (home / "SOUL.md").write_text("You are H.\n", encoding="utf-8")
    (home / "memories" / changed).write_text("project: kelp", encoding="utf-8")
    before = compose(home, host=profile("hermes"))
    text = "project: kelp\n§\nlikes oolong"
    dry = before.with_text(changed, text, path=f"memories/{changed}")
    assert before.with_text(changed, text) == before  # at the top: not what Hermes reads
    (home / "memories" / changed).write_text(text, encoding="utf-8")
    written = compose(home, host=profile("hermes"))
    assert dry == written and "likes oolong" in dry.soul
    assert dry.loads == written.loads


@pytest.mark.parametrize("spec", ["hermes", "claude-code"])
@pytest.mark.parametrize("name", ["small", "soul-cap-plus-1", "soul-crlf", "soul-directory", "memory-over-limit"])
def test_current_from_a_snapshot_is_composing_the_same_bytes_from_disk(tmp_path: Path, name: str, spec: str) -> None:
    home = built(tmp_path, name)
    shutil.rmtree(home / "memories", ignore_errors=True)  # a snapshot holds the notebook's files, not memories/
    snapshot = compose(home)  # the contract's, as a session froze it
    shown = as_host(snapshot, profile(spec), home=home)
    from_disk = compose(home, host=profile(spec))
    assert shown == from_disk
    assert shown.loads == from_disk.loads
    assert [(s.name, s.message) for s in shown.skipped] == [(s.name, s.message) for s in from_disk.skipped]


def test_doctor_as_hermes_reports_the_memory_limits_its_config_yaml_sets(tmp_path: Path) -> None:
    home = built(tmp_path, "hermes-config-limits")
    done = subprocess.run(
        [sys.executable, "-m", "notebook_app", "doctor", "--home", str(home), "--host", "hermes", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")},  # --host is remembered, in the test's tmp
    )
    findings = [(f["rule"], f.get("file"), f["message"]) for f in json.loads(done.stdout)["findings"]]
    over = {file: message for rule, file, message in findings if rule == "budget.over"}
    assert "over Hermes's limit of 60 " in over["MEMORY.md"] and "loads it whole" in over["MEMORY.md"]
    assert "over Hermes's limit of 20 " in over["USER.md"]
    numbers = next(message for rule, _, message in findings if rule == "host.numbers")
    assert "memory limits MEMORY.md 60, USER.md 20 characters" in numbers


def test_doctor_refuses_a_hermes_version_older_than_any_golden_proves(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "notebook_app", "doctor", "--home", str(tmp_path), "--host", "hermes@0.18"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")},
    )
    assert done.returncode == 2 and "proven Hermes releases: 0.19.0" in done.stderr


def test_doctor_shows_a_newer_hermes_version_as_the_newest_proven_loads_it_and_says_so(tmp_path: Path) -> None:
    """Issue 36: a release no golden has reached yet stands in as the newest proven (it exited 2 before)."""
    done = subprocess.run(
        [sys.executable, "-m", "notebook_app", "doctor", "--home", str(tmp_path), "--host", "hermes@0.20", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")},
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    numbers = next(f["message"] for f in report["findings"] if f["rule"] == "host.numbers")
    assert numbers.startswith("Hermes 0.20 is newer than the newest proven, 0.19.0: shown as 0.19.0 loads it")
    assert (report["rules"], report["proven"]) == ("0.19.0", False)
