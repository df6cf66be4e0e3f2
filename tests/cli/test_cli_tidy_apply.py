"""``persona-notebook tidy --apply ID…`` in a real process: 0 applied, 1 refused by name, nothing written; 2 usage."""

from __future__ import annotations

import json
from pathlib import Path

from cli_process import run

MEMORY = "- timezone: UTC\n- a fact\n- a fact\n- timezone: IST\n"


def files_of(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def planted(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    home.mkdir()
    (home / "MEMORY.md").write_text(MEMORY)
    data = json.loads(run("tidy", "--home", str(home), "--json", tmp=tmp_path).stdout)
    return home, {hunk["kind"]: hunk["id"] for hunk in data["hunks"]}


def test_apply_by_unique_prefixes_moves_and_removes_and_says_how_to_undo(tmp_path: Path) -> None:
    home, ids = planted(tmp_path)
    out = run("tidy", "--home", str(home), "--apply", ids["superseded"][:5], ids["exact-duplicate"][:5], tmp=tmp_path)
    assert out.returncode == 0, out.stderr
    assert (home / "MEMORY.md").read_text() == "- a fact\n- timezone: IST\n"
    assert (home / "memory" / "ARCHIVE.md").read_text().endswith("\n\n- timezone: UTC\n")
    record = (home / "memory" / "ARCHIVE.md").read_text().split()[3]
    assert out.stdout.splitlines()[0].startswith(f"ok (tidy {record}, 2 hunks): 1 entry of MEMORY.md moved to ")
    assert "moved to memory/ARCHIVE.md:\n  MEMORY.md line 1: timezone: UTC\n" in out.stdout
    assert "removed (exact copies, empty lines):\n  MEMORY.md line 3: a fact\n" in out.stdout
    assert f"persona-notebook undo {record}" in out.stdout
    listed = run("history", "--home", str(home), tmp=tmp_path).stdout.splitlines()
    assert "MEMORY.md" in listed[0] and f"tidy, 2 hunks (with {record})" in listed[0]
    assert listed[1].startswith(record) and "memory/ARCHIVE.md" in listed[1] and "(with" not in listed[1]
    undone = run("undo", record, "--home", str(home), tmp=tmp_path)
    assert undone.returncode == 0, undone.stderr
    assert (home / "MEMORY.md").read_text() == MEMORY and not (home / "memory" / "ARCHIVE.md").exists()


def test_a_stale_id_exits_one_names_it_and_writes_nothing(tmp_path: Path) -> None:
    home, ids = planted(tmp_path)
    agent = run("memory", "replace", "UTC", "--with", "CET", "--home", str(home), tmp=tmp_path)
    assert agent.returncode == 0, agent.stderr
    before = files_of(home)
    out = run("tidy", "--home", str(home), "--apply", ids["exact-duplicate"], ids["superseded"], tmp=tmp_path)
    assert out.returncode == 1
    assert "tidy refused 1 hunk id; nothing was written" in out.stderr
    assert f"  {ids['superseded']}: not in the proposal now" in out.stderr and "(stale)" in out.stderr
    assert ids["exact-duplicate"] not in out.stderr and out.stdout == ""
    assert files_of(home) == before


def test_json_gives_the_result_and_the_refusals(tmp_path: Path) -> None:
    home, ids = planted(tmp_path)
    refused = run("tidy", "--home", str(home), "--json", "--apply", "ffffffffffff", tmp=tmp_path)
    assert refused.returncode == 1
    data = json.loads(refused.stdout)
    assert data["is_error"] is True and data["record"] is None and data["applied"] == []
    assert [r["id"] for r in data["refused"]] == ["ffffffffffff"]
    out = run("tidy", "--home", str(home), "--json", "--apply", ids["superseded"], tmp=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["applied"] == [ids["superseded"]] and data["refused"] == []
    assert data["archive"] == "memory/ARCHIVE.md" and data["files"] == ["memory/ARCHIVE.md", "MEMORY.md"]
    assert data["moved"] == [{"file": "MEMORY.md", "line": 1, "text": "timezone: UTC"}] and data["removed"] == []
    assert data["undo"] == f"persona-notebook undo {data['record']}"


def test_a_target_outside_1_to_100_exits_two_with_apply_too_and_writes_nothing(tmp_path: Path) -> None:
    home, ids = planted(tmp_path)
    before = files_of(home)
    out = run("tidy", "--home", str(home), "--target", "0", "--apply", ids["superseded"], tmp=tmp_path)
    assert out.returncode == 2 and "--target must be a percentage from 1 to 100" in out.stderr
    assert files_of(home) == before


def test_apply_with_no_id_is_a_usage_error(tmp_path: Path) -> None:
    home, _ = planted(tmp_path)
    out = run("tidy", "--home", str(home), "--apply", tmp=tmp_path)
    assert out.returncode == 2 and "--apply" in out.stderr


def test_in_a_claude_code_project_the_undo_it_names_finds_the_tidy_in_the_memory_folder(tmp_path: Path) -> None:
    root, user = tmp_path / "proj", tmp_path / "user"
    (root / ".git").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("Project rules.\n")
    slug = str(root).replace("/", "-").replace("_", "-").replace(".", "-")
    memory = user / ".claude" / "projects" / slug / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text(MEMORY)
    where = ("--host", "claude-code", "--home", str(root))
    data = json.loads(run("tidy", *where, "--json", tmp=tmp_path, home=user).stdout)
    out = run("tidy", *where, "--json", "--apply", *(h["id"] for h in data["hunks"]), tmp=tmp_path, home=user)
    result = json.loads(out.stdout)
    assert out.returncode == 0 and result["archive"] == "ARCHIVE.md", out.stderr
    assert (memory / "ARCHIVE.md").exists() and not (root / ".notebook").exists()
    undone = run("undo", result["record"], *where, tmp=tmp_path, home=user)
    assert undone.returncode == 0, undone.stderr
    assert (memory / "MEMORY.md").read_text() == MEMORY and not (memory / "ARCHIVE.md").exists()
    assert not (root / ".notebook").exists()
