"""Where the core cannot keep its guarantees, the notebook says so: a read-only home, a ``.notebook`` link.

The read-only home is read and written as an unprivileged user (root writes
through any mode); the link through the real app, with Pilot.
"""

from __future__ import annotations

import os
from pathlib import Path

from notebook_pilot import SIZE, make_app, started, wait_until


def _dry_run_as_reader(home: str) -> list[object]:
    from notebook_app.app.view_model.dry_run import dry_run, dry_run_status
    from notebook_app.app.view_model.notebook import Notebook

    notebook = Notebook(Path(home))
    state = notebook.refresh()
    status = [
        list(dry_run_status(dry_run(state, {"action": "add", "target": "self", "text": text}))) for text in ("", "b")
    ]
    result, _ = notebook.write({"action": "add", "target": "self", "text": "b"})
    return [*status, [result.output, result.is_error]]


def test_the_dry_run_and_the_write_say_that_a_read_only_home_refuses_every_write() -> None:
    from privileges import reader_home, run_as_reader

    with reader_home() as home:
        (home / "MEMORY.md").write_text("- a\n")
        (home / "MEMORY.md").chmod(0o666)
        home.chmod(0o555)
        refused = f"{home} is read-only: nothing can be written safely here"
        assert run_as_reader(_dry_run_as_reader, str(home)) == [["flag", refused], ["flag", refused], [refused, True]]
        assert (home / "MEMORY.md").read_text() == "- a\n"


async def test_an_add_through_a_notebook_link_lands_and_its_notice_says_it_is_not_recorded(
    home: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, home / ".notebook")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("a", *"kept", "enter")
        why = f"{home / '.notebook'} is a symbolic link to {outside}"
        await wait_until(pilot, lambda: any(why in n.message for n in app._notifications), "the not-recorded notice")
        (notice,) = [n for n in app._notifications if why in n.message]
        assert notice.message.startswith("ok (add → MEMORY.md); loads next session; not recorded: ")
        assert notice.severity == "warning"
    assert (home / "MEMORY.md").read_text().endswith("- kept\n")
    assert list(outside.iterdir()) == []


async def test_the_history_view_of_a_home_whose_notebook_is_a_link_says_why_it_is_empty(
    home: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, home / ".notebook")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("h")
        detail = lambda: str(app.screen.query_one("#history-detail").content)  # noqa: E731
        await wait_until(pilot, lambda: detail().startswith("No history: "), "the history view's words")
        assert detail() == (
            f"No history: {home / '.notebook'} is a symbolic link to {outside}: the history is "
            "kept only inside the home, never through a link, so writes here are not recorded."
        )
