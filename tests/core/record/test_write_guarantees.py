"""Where the core cannot keep its guarantees it says so, on every write, in the dry run and in the doctor.

A read-only home folder (mode 555, MEMORY.md itself writable) can hold no
journal and no temp file: every write is refused in one sentence. A
``.notebook`` that is a symbolic link is never followed: writes land, each
says it is not recorded, and the doctor names the link. The read-only home is
checked as an unprivileged user (root writes through any mode).
"""

from __future__ import annotations

import os
from pathlib import Path

from unprivileged import as_unprivileged, listing

from notebook_app.core.doctor.check import check_home
from notebook_app.core.memory.edits.guarded_splice import delete_entry, splice
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.log.actor import CLI


def _writes(home: str) -> list[list[object]]:
    root = Path(home)
    results = [
        memory_tool(root, by=CLI).call({"action": action, "text": "a", "with": "b"})
        for action in ("add", "replace", "remove")
    ]
    spliced = splice(root, "MEMORY.md", 0, b"", b"- first\n", by=CLI)
    deleted = delete_entry(root, "MEMORY.md", 1, "- a", by=CLI)
    return [[r.output, r.is_error] for r in (*results, spliced, deleted)]


def _doctor(home: str) -> list[list[object]]:
    return [[f.rule, f.severity.value, f.message] for f in check_home(home).findings if f.rule.startswith("home.")]


def test_every_write_to_a_read_only_home_is_refused_in_words_and_nothing_changes(open_home: Path) -> None:
    (open_home / "MEMORY.md").write_text("- a\n")
    (open_home / "MEMORY.md").chmod(0o666)  # the file could be written; its folder cannot
    open_home.chmod(0o555)
    before = listing(open_home)
    refused = f"{open_home} is read-only: nothing can be written safely here"
    assert as_unprivileged(_writes, str(open_home)) == [[refused, True]] * 5
    assert listing(open_home) == before


def test_the_doctor_warns_that_a_read_only_home_refuses_every_write(open_home: Path) -> None:
    (open_home / "MEMORY.md").write_text("- a\n")
    (open_home / "MEMORY.md").chmod(0o666)
    open_home.chmod(0o555)
    assert as_unprivileged(_doctor, str(open_home)) == [
        [
            "home.read-only",
            "warning",
            f"{open_home} is read-only: nothing can be written safely here; every write is refused "
            "(the home cannot hold a journal or a temp file for a safe rewrite)",
        ]
    ]


def test_a_write_through_a_notebook_link_lands_says_it_is_not_recorded_and_the_doctor_names_the_link(
    home: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, home / ".notebook")
    result = memory_tool(home, by=CLI).call({"action": "add", "text": "kept"})
    why = (
        f"{home / '.notebook'} is a symbolic link to {outside}: the history is kept only inside the home, "
        "never through a link, so writes here are not recorded"
    )
    assert (result.output, result.is_error, result.unrecorded) == (
        "ok (add → MEMORY.md); loads next session",
        False,
        why,
    )
    assert (home / "MEMORY.md").read_text() == "- kept\n"
    assert list(outside.iterdir()) == []
    assert delete_entry(home, "MEMORY.md", 1, "- kept", by=CLI).unrecorded == why
    assert _doctor(str(home)) == [["home.history-link", "warning", why]]
