"""``persona-notebook history|undo|restore|blame``: real processes, real exit codes, JSON for scripts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from notebook_app.core.record.log.actor import Actor
from notebook_app.core.memory.tool import memory_tool

AGENT = Actor.mcp("20261130-101010-0badc0de", "kip-host", "4.5.6")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "notebook_app", *args], capture_output=True, text=True, timeout=60)


def walk_through(home: Path) -> None:
    """An agent adds, the CLI replaces, an editor appends, the CLI adds again."""
    memory_tool(home, by=AGENT).call({"action": "add", "text": "timezone: UTC"})
    assert run("memory", "replace", "UTC", "--with", "IST", "--home", str(home)).returncode == 0
    with open(home / "MEMORY.md", "a", encoding="utf-8") as editor:
        editor.write("- typed in an editor\n")
    assert run("memory", "add", "likes filter coffee", "--home", str(home)).returncode == 0


def test_history_json_is_an_array_of_records_newest_first_with_who_made_each(tmp_path: Path) -> None:
    walk_through(tmp_path)
    out = run("history", "--json", "--home", str(tmp_path))
    assert (out.returncode, out.stderr) == (0, "")
    records = json.loads(out.stdout)
    assert [(r["action"], r["by"]["kind"]) for r in records] == [
        ("add", "cli"),
        ("outside", "outside"),
        ("replace", "cli"),
        ("add", "mcp"),
    ]
    assert records[-1]["by"] == {
        "kind": "mcp",
        "session": AGENT.session,
        "client": {"name": "kip-host", "version": "4.5.6"},
    }
    for record in records:
        assert {"id", "time", "file", "action", "by", "applied", "undoable"} <= set(record)
        assert record["file"] == "MEMORY.md" and record["undoable"] is True
    limited = json.loads(run("history", "--json", "--limit", "1", "--by", "outside", "--home", str(tmp_path)).stdout)
    assert [r["action"] for r in limited] == ["outside"]


def test_history_text_is_one_line_per_record(tmp_path: Path) -> None:
    walk_through(tmp_path)
    out = run("history", "--file", "MEMORY.md", "--home", str(tmp_path))
    lines = out.stdout.splitlines()
    assert len(lines) == 4
    assert "replace" in lines[2] and 'text "UTC" with "IST"' in lines[2]
    assert "mcp:kip-host 4.5.6 session 20261130-101010-0badc0de" in lines[3]


def test_undo_by_a_prefix_then_a_refusal_on_stderr_with_exit_one(tmp_path: Path) -> None:
    walk_through(tmp_path)
    records = json.loads(run("history", "--json", "--home", str(tmp_path)).stdout)
    agents, typed = records[3]["id"], records[1]["id"]
    refused = run("undo", agents[2:], "--home", str(tmp_path))
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.startswith(f"cannot undo {agents}: {records[2]['id']} (replace by cli, ")
    done = run("undo", typed, "--home", str(tmp_path), "--json")
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    assert (answer["output"], answer["is_error"]) == (f"ok (undo {typed} → MEMORY.md); loads next session", False)
    assert answer["record"].startswith("w-") and "-- typed in an editor" in answer["diff"]
    assert (tmp_path / "MEMORY.md").read_text() == "- timezone: IST\n- likes filter coffee\n"


def test_restore_dry_run_shows_the_diff_and_writes_nothing(tmp_path: Path) -> None:
    walk_through(tmp_path)
    first = json.loads(run("history", "--json", "--home", str(tmp_path)).stdout)[-1]["id"]
    before = (tmp_path / "MEMORY.md").read_bytes()
    dry = run("restore", "MEMORY.md", "--to", first, "--dry-run", "--home", str(tmp_path))
    assert dry.returncode == 0 and "+- timezone: UTC\n" in dry.stdout and "-- typed in an editor\n" in dry.stdout
    assert (tmp_path / "MEMORY.md").read_bytes() == before
    assert run("restore", "MEMORY.md", "--to", first, "--home", str(tmp_path)).returncode == 0
    assert (tmp_path / "MEMORY.md").read_text() == "- timezone: UTC\n"


def test_blame_names_the_writer_of_each_line(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("- from before\n")
    walk_through(tmp_path)
    out = run("blame", "MEMORY.md", "--home", str(tmp_path))
    lines = out.stdout.splitlines()
    # one wording everywhere: the text, the JSON's origin and the app's gutter all say "before history"
    assert lines[0].startswith("(before history) ") and lines[0].endswith("1 │ - from before")
    assert " cli " in lines[1] and lines[1].endswith("2 │ - timezone: IST")
    assert " outside " in lines[2] and lines[3].endswith("4 │ - likes filter coffee")
    data = json.loads(run("blame", "MEMORY.md", "--json", "--home", str(tmp_path)).stdout)
    assert [(line["origin"], line["action"]) for line in data["lines"]] == [
        ("before history", None),
        ("recorded", "replace"),
        ("recorded", "outside"),
        ("recorded", "add"),
    ]


def test_usage_errors_exit_two_and_viewing_a_home_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("- a\n")
    assert run("history", "--home", str(tmp_path)).returncode == 0
    assert run("blame", "MEMORY.md", "--home", str(tmp_path)).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MEMORY.md"]
    assert run("history", "--home", str(tmp_path / "missing")).returncode == 2
    assert run("blame", "NOTES.md", "--home", str(tmp_path)).returncode == 2
    assert run("history", "--prune", "--home", str(tmp_path)).returncode == 2
    assert run("undo", "--home", str(tmp_path)).returncode == 2
    unknown = run("undo", "w-zzzz", "--home", str(tmp_path))
    assert unknown.returncode == 1 and "no record w-zzzz" in unknown.stderr


def test_prune_keeps_the_newest_and_redact_removes_a_secret(tmp_path: Path) -> None:
    tool = memory_tool(tmp_path)
    for i in range(5):
        tool.call({"action": "add", "text": f"n{i}"})
    tool.call({"action": "add", "text": "token " + "sk-" + "live-0123456789"})
    secret = json.loads(run("history", "--json", "--limit", "1", "--home", str(tmp_path)).stdout)[0]["id"]
    out = run("history", "--redact", secret, "--home", str(tmp_path))
    assert out.returncode == 0 and "MEMORY.md itself still holds it" in out.stdout
    assert b"sk-live" not in (tmp_path / ".notebook" / "events.jsonl").read_bytes()
    out = run("history", "--prune", "--keep", "2", "--home", str(tmp_path))
    assert (out.returncode, out.stdout.split(";")[0]) == (0, "pruned 4 of 6 records")
    assert len(json.loads(run("history", "--json", "--home", str(tmp_path)).stdout)) == 2


def test_history_text_draws_hidden_characters_as_the_panes_markers(tmp_path: Path) -> None:
    tool = memory_tool(tmp_path)
    tool.call({"action": "add", "text": "pay \u202eevil\u202c to\u200bday"})
    tool.call({"action": "replace", "text": "to\u200bday", "with": "to\u200bmorrow\tlater"})
    out = run("history", "--home", str(tmp_path))
    assert out.returncode == 0, out.stderr
    for raw in ("\u202e", "\u202c", "\u200b", "\t"):
        assert raw not in out.stdout
    assert '"pay ⇆evil⇆ to∙day"' in out.stdout and '"to∙morrow→later"' in out.stdout


def test_history_text_shows_where_a_long_replace_differs_on_each_side(tmp_path: Path) -> None:
    shared = "Priya's advisor is Dr. Okafor; drafts go to him on "
    memory_tool(tmp_path).call({"action": "add", "text": shared + "Fridays before noon"})
    tool = memory_tool(tmp_path)
    assert not tool.call({"action": "replace", "text": shared + "Fridays", "with": shared + "Mondays"}).is_error
    out = run("history", "--home", str(tmp_path))
    replace_line = next(line for line in out.stdout.splitlines() if " replace " in line)
    assert 'text "…go to him on Fridays" with "…go to him on Mondays"' in replace_line, replace_line


def test_an_empty_history_an_empty_queue_and_an_empty_file_are_said_in_words(tmp_path: Path) -> None:
    """Nothing to list is said, never an empty screen (issue 34); ``--json`` stays an empty list."""
    from cli_process import run as cli

    home = tmp_path / "home"
    home.mkdir()
    (home / "MEMORY.md").write_text("- a\n")
    (home / "USER.md").write_text("")
    listed = cli("history", "--home", str(home), tmp=tmp_path)
    assert (listed.returncode, listed.stdout, listed.stderr) == (0, "no records in the history\n", "")
    of_file = cli("history", "--file", "USER.md", "--by", "mcp", "--home", str(home), tmp=tmp_path)
    assert (of_file.returncode, of_file.stdout) == (0, "no records of USER.md by mcp in the history\n")
    as_json = cli("history", "--json", "--home", str(home), tmp=tmp_path)
    assert (as_json.returncode, json.loads(as_json.stdout)) == (0, [])
    pending = cli("pending", "--home", str(home), tmp=tmp_path)
    assert (pending.returncode, pending.stdout) == (0, "no proposals pending\n")
    blamed = cli("blame", "USER.md", "--home", str(home), tmp=tmp_path)
    assert (blamed.returncode, blamed.stdout) == (0, "USER.md is empty: no lines to name a writer of\n")
    blamed_json = cli("blame", "USER.md", "--json", "--home", str(home), tmp=tmp_path)
    assert json.loads(blamed_json.stdout) == {"file": "USER.md", "lines": []}
    assert sorted(p.name for p in home.iterdir()) == ["MEMORY.md", "USER.md"]  # a look writes nothing
