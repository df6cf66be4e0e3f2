"""The Pilot tests' wait gives a loaded machine its time: a wait is no timing assertion (issue 34, flakes).

``wait_until`` gave up after 500 polls of 10 ms, about 5 s, and on a busy 2-core machine the app's
worker had not answered yet, so tests failed that held the right condition. It now fails only once
its polls are done and its wall time (30 s by default) has passed; the condition stays as strict.
"""

from __future__ import annotations

import pytest
from notebook_pilot import WAIT, wait_until
from textual.app import App


async def test_a_condition_that_holds_after_the_polls_the_old_wait_gave_is_still_waited_for() -> None:
    asked = []

    def late() -> bool:  # as a worker on a loaded machine: true only once it has been asked 600 times
        asked.append(True)
        return len(asked) > 600

    async with App().run_test() as pilot:
        await wait_until(pilot, late, "the late condition")
    assert len(asked) == 601


async def test_a_condition_that_never_holds_still_fails_and_names_what_it_waited_for() -> None:
    assert WAIT >= 30
    async with App().run_test() as pilot:
        with pytest.raises(AssertionError, match="timed out waiting for: never"):
            await wait_until(pilot, lambda: False, "never", attempts=3, within=0.2)
