"""A home moved away while the notebook has it open: a banner within a tick, writes refused, no ghost.

The real app through Pilot; the home is moved by a separate process (``mv``),
as a person in another shell would. The watcher is off in the first test: the
banner comes from the notebook's own check of the pinned folder, not from it.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from notebook_pilot import SIZE, make_app, started, wait_until

from notebook_app.app.widgets.common.status_line import StatusLine

MOVED = "was moved or removed since it was opened; nothing was written"


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("watch", [False, True])
async def test_a_home_moved_away_shows_a_banner_and_an_add_is_refused_without_a_ghost(
    home: Path, tmp_path: Path, watch: bool
) -> None:
    elsewhere = tmp_path / "renamed"
    app = make_app(home, watch=watch)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        subprocess.run(["mv", str(home), str(elsewhere)], check=True)
        moved_tree = tree(elsewhere)
        banner = app.screen.query_one("#home-banner")
        await wait_until(pilot, lambda: banner.has_class("-shown"), "the moved-home banner")
        assert "The home at test home was moved or removed since it was opened" in str(banner.content)
        status = app.screen.query_one(StatusLine)
        await wait_until(pilot, lambda: "moved or removed" in str(status.content), "the health line to say it")
        assert "no problems" not in str(status.content)
        await pilot.press("a", *"lost entry", "enter")
        await wait_until(pilot, lambda: app.screen.form.status[0] == "error", "the add's refusal")
        assert app.screen.form.status == ("error", f"the home at {home} {MOVED}")
        assert not home.exists(), "the old path was created again: a ghost home"
        assert tree(elsewhere) == moved_tree
        assert "- timezone: UTC" in app.screen.query_one("#next").document.lines  # the last state read stays


async def test_a_write_that_races_the_banner_is_refused_by_the_core(home: Path, tmp_path: Path) -> None:
    """The check before every write is the core's: the notebook's own write path refuses, banner or not."""
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        subprocess.run(["mv", str(home), str(tmp_path / "renamed")], check=True)
        result, _ = app.screen.notebook.write({"action": "add", "target": "self", "text": "raced"})
        assert result.is_error and result.output == f"the home at {home} {MOVED}"
        assert not home.exists()


async def test_a_home_moved_back_takes_writes_again(home: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "renamed"
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        banner = app.screen.query_one("#home-banner")
        subprocess.run(["mv", str(home), str(elsewhere)], check=True)
        await wait_until(pilot, lambda: banner.has_class("-shown"), "the moved-home banner")
        subprocess.run(["mv", str(elsewhere), str(home)], check=True)
        await wait_until(pilot, lambda: not banner.has_class("-shown"), "the banner to go")
        await pilot.press("a", *"back again", "enter")
        await wait_until(pilot, lambda: (home / "MEMORY.md").read_text().endswith("- back again\n"), "the add to land")


async def test_the_dry_run_of_an_open_form_says_the_write_will_be_refused_once_the_home_moved(
    home: Path, tmp_path: Path
) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("a", *"typed before the move")
        await wait_until(pilot, lambda: app.screen.form.status[1].startswith("dry run: appends at"), "the dry run")
        subprocess.run(["mv", str(home), str(tmp_path / "renamed")], check=True)
        await wait_until(
            pilot,
            lambda: app.screen.form.status == ("flag", f"the home at {home} {MOVED}"),
            "the dry run to say it is refused",
        )
