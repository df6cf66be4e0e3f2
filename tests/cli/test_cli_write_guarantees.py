"""The CLI says what the core says when it cannot keep its guarantees: a read-only home, a ``.notebook`` link.

Real processes; the read-only home is written to by an unprivileged one
(root writes through any mode).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from privileges import check_launch, reader_command, reader_home

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str, command: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    argv = command or [sys.executable, "-m", "notebook_app", *args]
    return subprocess.run(argv, capture_output=True, text=True, cwd=REPO, timeout=120)


def test_an_add_to_a_read_only_home_is_refused_in_words_and_the_doctor_warns() -> None:
    with reader_home() as home:
        (home / "MEMORY.md").write_text("- a\n")
        (home / "MEMORY.md").chmod(0o666)
        home.chmod(0o555)
        added = cli(command=reader_command("memory", "add", "b", "--home", str(home)))
        check_launch(added.returncode, added.stderr)
        assert (added.returncode, added.stdout) == (1, "")
        assert added.stderr == f"{home} is read-only: nothing can be written safely here\n"
        assert (home / "MEMORY.md").read_text() == "- a\n"
        assert sorted(p.name for p in home.iterdir()) == ["MEMORY.md"]
        doctor = cli(command=reader_command("doctor", "--home", str(home), "--json"))
        findings = [f for f in json.loads(doctor.stdout)["findings"] if f["rule"] == "home.read-only"]
        assert [f["severity"] for f in findings] == ["warning"]
        assert findings[0]["message"].startswith(f"{home} is read-only: nothing can be written safely here")


def test_a_write_through_a_notebook_link_says_it_is_not_recorded_and_history_says_why_it_is_empty(
    tmp_path: Path,
) -> None:
    home, outside = tmp_path / "home", tmp_path / "elsewhere"
    home.mkdir()
    outside.mkdir()
    os.symlink(outside, home / ".notebook")
    why = (
        f"{home / '.notebook'} is a symbolic link to {outside}: the history is kept only inside the home, "
        "never through a link, so writes here are not recorded"
    )
    added = cli("memory", "add", "kept", "--home", str(home))
    assert (added.returncode, added.stdout) == (0, "ok (add → MEMORY.md); loads next session\n")
    assert added.stderr == f"persona-notebook: not recorded: {why}\n"
    as_json = json.loads(cli("memory", "add", "again", "--home", str(home), "--json").stdout)
    assert as_json["unrecorded"] == why
    listed = cli("history", "--home", str(home))
    assert (listed.returncode, listed.stdout, listed.stderr) == (0, "", f"persona-notebook: no history: {why}\n")
    doctor = json.loads(cli("doctor", "--home", str(home), "--json").stdout)
    assert [f["message"] for f in doctor["findings"] if f["rule"] == "home.history-link"] == [why]
    assert list(outside.iterdir()) == []
