"""``persona-notebook doctor --host hermes --json`` on a real Hermes home: its '§' stores in their own dialect."""

from __future__ import annotations

import json
from pathlib import Path

from cli_process import run


def small_hermes_home(root: Path) -> Path:
    """The issue's small home: clean entries, one glued by a '- ' line, a store with a blank entry, Hermes's files."""
    home = root / "hermes"
    (home / "memories").mkdir(parents=True)
    (home / "SOUL.md").write_text("You are Kip, a field assistant.\n")
    (home / "memories" / "MEMORY.md").write_text(
        "prefers metric units\n§\nworks on the reef survey\nmostly in the mornings\n§\ntimezone: IST\n- likes tea\n"
    )
    (home / "memories" / "USER.md").write_text("name is Muthu\n§\n\n§\nlives by the sea")
    (home / "memories" / "USER.md.bak.1764000000").write_text("name is Muthu\n§\n\n§\nlives by the sea")
    (home / "memories" / "MEMORY.md.lock").write_text("")
    return home


def findings(out) -> list[dict[str, object]]:
    return json.loads(out.stdout)["findings"]


def test_doctor_as_hermes_reads_its_stores_in_their_dialect_and_names_what_hermes_would_refuse(
    tmp_path: Path,
) -> None:
    home = small_hermes_home(tmp_path)
    out = run("doctor", "--home", str(home), "--host", "hermes", "--json", tmp=tmp_path)
    assert out.returncode == 1, out.stderr
    found = [(f["rule"], f["file"], f["line"], f["severity"], f["fix"]) for f in findings(out)]
    hygiene = [item for item in found if str(item[0]).startswith("hygiene.")]
    assert hygiene == [
        ("hygiene.drift-backup", "USER.md", None, "info", None),
        ("hygiene.store-drift", "USER.md", 2, "warning", "normalise USER.md as Hermes would"),
        ("hygiene.mixed-dialect", "MEMORY.md", 7, "warning", None),
    ]
    assert not [item for item in found if item[0] == "hygiene.not-an-entry"]
    backup = next(f for f in findings(out) if f["rule"] == "hygiene.drift-backup")
    assert str(backup["message"]).startswith("memories/USER.md.bak.1764000000 is one of Hermes's drift backups")


def test_doctor_as_hermes_on_the_memories_folder_itself_gives_no_stray_line_notes(tmp_path: Path) -> None:
    memories = small_hermes_home(tmp_path) / "memories"
    (memories / "MEMORY.md").write_text("prefers metric units\n§\nworks on the reef survey\nmostly in the mornings")
    (memories / "USER.md").write_text("name is Muthu\n§\nlives by the sea")
    out = run("doctor", "--home", str(memories), "--host", "hermes", "--json", tmp=tmp_path)
    rules = [f["rule"] for f in findings(out)]
    assert "hygiene.not-an-entry" not in rules and "hygiene.mixed-dialect" not in rules
    assert out.returncode == 0, out.stdout
