"""The notebook's session numbers continue across launches, kept per user, never in the home."""

from __future__ import annotations

import os
from pathlib import Path

from notebook_pilot import SIZE, make_app, started, wait_until

from notebook_app.app.view_model.session_counter import SessionCounter


async def test_a_relaunch_continues_the_numbering_and_the_home_is_not_written(home: Path, tmp_path: Path) -> None:
    before = sorted(os.listdir(home))
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert app.screen.state.current.number == 1
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen.state.current.number == 2, "session 2")
    again = make_app(home)
    async with again.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert again.screen.state.current.number == 3
    assert sorted(os.listdir(home)) == before
    assert (tmp_path / "xdg-state" / "persona-notebook" / "sessions.json").is_file()


def test_two_homes_count_apart_and_a_link_to_a_home_is_the_same_home(tmp_path: Path) -> None:
    folder = tmp_path / "state"
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    (tmp_path / "link").symlink_to(one)
    assert [SessionCounter(one, folder).claim() for _ in range(2)] == [1, 2]
    assert SessionCounter(two, folder).claim() == 1
    assert SessionCounter(tmp_path / "link", folder).claim() == 3
    assert SessionCounter(one, folder).claim(at_least=10) == 11


def test_an_unwritable_state_folder_numbers_from_one_and_says_why(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the state folder should be")
    counter = SessionCounter(tmp_path, blocker / "persona-notebook")
    assert counter.claim() == 1
    assert counter.problem is not None and "not kept across launches" in counter.problem
