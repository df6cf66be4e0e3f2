"""``persona-notebook soul --host claude-code``: what a proven Claude Code release loads, through a real process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import run


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, Path]:
    """A git project with a CLAUDE.md, an import, a sub folder, and a HOME with user rules and a long MEMORY.md."""
    root, user = tmp_path / "proj", tmp_path / "user"
    (root / ".git").mkdir(parents=True)
    (root / "sub").mkdir()
    (root / "CLAUDE.md").write_text("Project rules.\n@notes.md\n")
    (root / "notes.md").write_text("Imported notes.\n")
    (root / "sub" / "CLAUDE.md").write_text("Only from sub.\n")
    (user / ".claude" / "rules").mkdir(parents=True)
    (user / ".claude" / "rules" / "tone.md").write_text("Be plain.\n")
    slug = str(root).replace("/", "-").replace("_", "-").replace(".", "-")
    memory = user / ".claude" / "projects" / slug / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("".join(f"- note {i}\n" for i in range(1, 251)))
    return root, user


def test_soul_as_claude_code_prints_its_own_block_in_its_order(project, tmp_path):
    root, user = project
    out = run("soul", "--host", "claude-code", "--home", str(root), tmp=tmp_path, home=user)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("<system-reminder>\nCodebase and user instructions are shown below.")
    order = [line for line in out.stdout.splitlines() if line.startswith("Contents of ")]
    assert [line.split(" (")[0].removeprefix("Contents of ") for line in order] == [
        str(user / ".claude" / "rules" / "tone.md"),
        str(root / "CLAUDE.md"),
        str(root / "notes.md"),
        str(next((user / ".claude" / "projects").iterdir()) / "memory" / "MEMORY.md"),
    ]
    assert "Only from sub." not in out.stdout  # below the working directory: read on demand, not at the start
    assert (
        "\n> \n> WARNING: MEMORY.md is 250 lines (limit: 200). Only part of it was loaded: 50 of 250 lines were cut "
        'off, starting at line 201 ("- note 201").' in out.stdout
    )  # the newest, 2.1.337, quotes every line: the blank line before the WARNING too
    assert "\n> - note 200\n" in out.stdout and "\n- note 200\n" not in out.stdout
    assert "Claude Code 2.1.337 (the newest proven release)" in out.stderr
    assert "each line quoted '> ', behind a feature flag its server can turn off" in out.stderr


def test_soul_as_claude_code_json_names_each_file_with_its_cut(project, tmp_path):
    root, user = project
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    out = run(
        "soul",
        "--host",
        "claude-code@2.1",
        "--home",
        str(root),
        "--cwd",
        str(root / "sub"),
        "--json",
        tmp=tmp_path,
        home=user,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["host"], data["host_version"], data["unit"]) == ("claude-code", "2.1.337", "utf16")
    # ../notes.md is imported from outside the working directory: Claude Code does not follow it (cc-import-outside-cwd)
    assert data["found"] == ["~/.claude/rules/tone.md", "../CLAUDE.md", "CLAUDE.md", "MEMORY.md"]
    memory = data["files"][-1]
    assert (memory["status"], memory["cut"]["head_end"]) == (
        "cut",
        len("".join(f"- note {i}\n" for i in range(1, 201))) - 1,
    )
    assert memory["markers"][0].startswith("> WARNING: MEMORY.md is 250 lines")
    assert data["total"]["injected"] == len(data["soul"]) and data["soul"].endswith("</system-reminder>")
    assert data["skipped"] == []
    assert sorted(str(p) for p in tmp_path.rglob("*") if "config" not in str(p) and "state" not in str(p)) == [
        p for p in before if "config" not in p and "state" not in p
    ]


@pytest.mark.parametrize(
    "args, words",
    [
        (("--host", "claude-code@2.0"), "claude-code@2.0 is in no proven range; proven Claude Code releases: 2.1.332;"),
        (("--host", "claude-code@latest"), "claude-code@latest: not a version; proven Claude Code releases: 2.1.332;"),
        (("--host", "claude-code", "--context-length", "200000"), "not options of --host claude-code"),
        (("--host", "claude-code", "--cwd", "/no/such/folder"), "--cwd is the directory Claude Code runs in"),
        (("--host", "openclaw", "--cwd", "."), "--cwd is an option of --host hermes and claude-code"),
    ],
)
def test_soul_refuses_what_the_host_does_not_use_with_exit_two(project, tmp_path, args, words):
    root, user = project
    out = run("soul", "--home", str(root), *args, tmp=tmp_path, home=user)
    assert out.returncode == 2 and words in out.stderr, out.stderr


def _has_half_a_pair(text: str) -> bool:
    return any(0xD800 <= ord(char) <= 0xDFFF for char in text)


def test_a_cut_through_emoji_never_puts_half_a_pair_in_our_words(project, tmp_path):
    """150 lines of emoji over the 25,000-unit cap (issue 34): the WARNING's preview of the cut line and the JSON's
    markers hold whole characters; the soul itself is what Claude Code injects (it drops a lone half itself)."""
    root, user = project
    memory = next((user / ".claude" / "projects").iterdir()) / "memory" / "MEMORY.md"
    memory.write_text("".join("- " + "\U0001f600" * 100 + "\n" for _ in range(150)), encoding="utf-8")
    out = run("soul", "--host", "claude-code", "--home", str(root), "--json", tmp=tmp_path, home=user)
    assert out.returncode == 0, out.stderr[-2000:]
    data = json.loads(out.stdout)
    part = data["files"][-1]
    assert part["status"] == "cut"
    (marker,) = part["markers"]
    assert marker.startswith("> WARNING: MEMORY.md is 29.7KB (limit: 24.4KB)")
    assert '("- \U0001f600\U0001f600' in marker and '\U0001f600…").' in marker
    assert not _has_half_a_pair(marker) and not _has_half_a_pair(data["soul"])
    assert marker in data["soul"]  # our words are the WARNING as injected, whole characters and all
    text = run("soul", "--host", "claude-code", "--home", str(root), tmp=tmp_path, home=user)
    assert text.returncode == 0, text.stderr[-2000:]
    assert marker in text.stdout
    doctor = run("doctor", "--host", "claude-code", "--home", str(root), "--json", tmp=tmp_path, home=user)
    assert doctor.returncode in (0, 1), doctor.stderr[-2000:]
    assert not _has_half_a_pair(doctor.stdout)


def test_soul_as_claude_code_2_1_336_sends_the_memory_unquoted_and_2_1_337_quoted(project, tmp_path):
    root, user = project
    old = run("soul", "--host", "claude-code@2.1.336", "--home", str(root), tmp=tmp_path, home=user)
    new = run("soul", "--host", "claude-code@2.1.337", "--home", str(root), tmp=tmp_path, home=user)
    assert (old.returncode, new.returncode) == (0, 0), old.stderr + new.stderr
    assert "\n- note 1\n" in old.stdout and "The quoted notes below" not in old.stdout
    assert "(user's auto-memory, persists across conversations):\n\nThe quoted notes below were saved" in new.stdout
    assert "\n> - note 1\n" in new.stdout
    assert "Claude Code 2.1.336, as its goldens prove it" in old.stderr


def test_a_claude_code_release_newer_than_the_newest_proven_is_shown_as_the_newest_loads_it(project, tmp_path):
    root, user = project
    newer = run("soul", "--host", "claude-code@2.1.338", "--home", str(root), tmp=tmp_path, home=user)
    newest = run("soul", "--host", "claude-code@2.1.337", "--home", str(root), tmp=tmp_path, home=user)
    assert newer.returncode == 0, newer.stderr
    assert newer.stdout == newest.stdout
    assert "Claude Code 2.1.338 is newer than the newest proven, 2.1.337: shown as 2.1.337 loads it" in newer.stderr
