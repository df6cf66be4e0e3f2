"""``persona-notebook tidy``: a dry run in a real process; its text, its JSON, its usage errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from cli_process import run

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "notebook_app" / "demo_home"


def test_the_demo_has_nothing_to_tidy(tmp_path: Path) -> None:
    home = tmp_path / "demo"
    shutil.copytree(DEMO, home)
    out = run("tidy", "--home", str(home), tmp=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == f"tidy (dry run, nothing written): {home} as toolnexus"
    assert out.stdout.rstrip().endswith("nothing to tidy")


def test_text_lists_each_hunk_with_its_id_kind_reason_and_entries_and_writes_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "MEMORY.md").write_text("- timezone: UTC\n- a fact\n- a fact\n- timezone: IST\n")
    out = run("tidy", "--home", str(home), tmp=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(run("tidy", "--home", str(home), "--json", tmp=tmp_path).stdout)
    ids = {hunk["kind"]: hunk["id"] for hunk in data["hunks"]}
    assert set(ids) == {"superseded", "exact-duplicate"}
    assert f"{ids['superseded']}  superseded  MEMORY.md" in out.stdout
    assert "    line 1: timezone: UTC" in out.stdout
    assert f"{ids['exact-duplicate']}  exact duplicate  MEMORY.md" in out.stdout
    assert "Nothing was written; apply them with persona-notebook tidy --apply ID…" in out.stdout
    assert sorted(p.name for p in home.iterdir()) == ["MEMORY.md"]


def test_json_is_the_stable_schema(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "MEMORY.md").write_text("# notes\n- a fact\n- a fact\n")
    data = json.loads(run("tidy", "--home", str(home), "--json", "--target", "75", tmp=tmp_path).stdout)
    assert data["schema"] == 1 and data["dry_run"] is True and data["target_percent"] == 75
    assert data["archive"] == "memory/ARCHIVE.md" and data["files"] == ["MEMORY.md"]
    assert data["hunks"][0]["entries"] == [{"file": "MEMORY.md", "line": 3, "text": "a fact"}]
    assert data["not_entries"] == [{"file": "MEMORY.md", "first": 1, "last": 1, "lines": 1, "sample": "# notes"}]


def test_a_target_outside_1_to_100_exits_two_in_words(tmp_path: Path) -> None:
    for given in ("0", "101", "ninety"):
        out = run("tidy", "--home", str(tmp_path), "--target", given, tmp=tmp_path)
        assert out.returncode == 2
        assert "--target must be a percentage from 1 to 100" in out.stderr
    assert run("tidy", "--home", str(tmp_path), "--target", "100", tmp=tmp_path).returncode == 0


def test_help_says_it_is_a_dry_run_unless_apply_names_hunks(tmp_path: Path) -> None:
    out = run("tidy", "--help", tmp=tmp_path)
    assert "A dry run unless --apply names hunks" in " ".join(out.stdout.split())
    assert "--apply ID [ID ...]" in out.stdout
