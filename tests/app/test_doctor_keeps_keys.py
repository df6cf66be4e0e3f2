"""The app answers keys while the doctor reads a home whose long lines used to take it hours (issue 34).

The doctor runs in a worker thread; a regular expression holds the interpreter
for as long as one call runs, so a quadratic rule on one 2 MiB line froze every
key for minutes. Here the doctor is kept reading that home, pass after pass
with no cache, until the test has seen its keys answered; then it is let go
and its verdict arrives.
"""

from __future__ import annotations

import threading
from pathlib import Path

from notebook_pilot import SIZE, make_app, started, wait_until

from notebook_app.app.view_model.notebook import Notebook
from notebook_app.app.widgets.common.status_line import StatusLine
from notebook_app.app.widgets.session.session_pane import SessionPane
from tests.pathological_homes import pathological_home


async def test_keys_are_answered_while_the_doctor_reads_two_mib_lines(tmp_path: Path, monkeypatch) -> None:
    home = pathological_home(tmp_path / "home")
    reading, stop = threading.Event(), threading.Event()
    passes: list[int] = []
    real_health = Notebook.health

    def health(self: Notebook):
        reading.set()
        while True:
            self._doctor = None  # a fresh Doctor each pass: every rule reads the whole file again
            result = real_health(self)
            passes.append(1)
            if stop.is_set():
                return result

    monkeypatch.setattr(Notebook, "health", health)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, reading.is_set, "the doctor to start", attempts=3000)
        for pane in ("current", "next", "current"):
            await pilot.press("f3" if pane == "current" else "f4")
            await wait_until(
                pilot,
                lambda pane=pane: (
                    app.focused is not None
                    and any(getattr(node, "id", None) == pane for node in app.focused.ancestors_with_self)
                    and isinstance(app.screen.query_one(f"#{pane}"), SessionPane)
                ),
                f"the key that focuses {pane}",
            )
            assert not stop.is_set()  # the doctor is still reading: its loop ends only when told
        stop.set()
        status = app.screen.query_one(StatusLine)
        await wait_until(
            pilot, lambda: "not looked yet" not in str(status.content), "the doctor's verdict", attempts=30000
        )
        assert "a line with invisible characters" in str(status.content)
        assert passes
