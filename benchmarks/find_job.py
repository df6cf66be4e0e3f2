"""Measure 14's timed job, run in our interpreter: ``find_job.py '{"home": …}'`` prints ``RESULT <json>``.

The notebook runs headless (Textual's own test driver, 120 × 40) on a home
with a 2 MiB MEMORY.md; ``/`` opens the find bar and a query is typed one key
at a time (with ``"editor": true``, ``E`` opens MEMORY.md in the built-in
editor and ``ctrl+f`` its find bar; with ``"floor": true``, a bare Textual
app with one Input, typed the same way). For each keystroke two figures:

* event-loop work: the time spent running callbacks on the event loop (every
  asyncio handle, timed) from the key press until the count for that query is
  on screen; the search itself runs in a worker thread and is not counted,
  except where it keeps the loop waiting for the GIL;
* time to count: from the key press until the count label shows that query's
  count (polled every 0.5 ms).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

BUSY = [0.0, 0.0]
"""Seconds of loop callbacks since the last reset, and the longest one."""


def instrument_loop() -> None:
    """Time every callback the event loop runs (asyncio.Handle._run is where each one runs)."""
    original = asyncio.events.Handle._run

    def timed_run(self: asyncio.Handle) -> None:
        started = time.perf_counter()
        try:
            original(self)
        finally:
            spent = time.perf_counter() - started
            BUSY[0] += spent
            BUSY[1] = max(BUSY[1], spent)

    asyncio.events.Handle._run = timed_run  # type: ignore[method-assign]


async def type_query(pilot: Any, query: str, rounds: int, shown: Any) -> list[dict[str, Any]]:
    """Type ``query`` key by key, ``rounds`` times; per key, loop work and time until ``shown(typed)`` holds."""
    keystrokes: list[dict[str, Any]] = []
    for round_index in range(rounds):
        typed = ""
        for key in query:
            typed += key
            BUSY[0] = BUSY[1] = 0.0
            started = time.perf_counter()
            await pilot.press("space" if key == " " else key)
            shown_at = None
            for _ in range(20000):
                if shown(typed):
                    shown_at = time.perf_counter()
                    break
                await asyncio.sleep(0.0005)
            keystrokes.append(
                {
                    "round": round_index,
                    "typed": typed,
                    "loop_s": BUSY[0],
                    "longest_s": BUSY[1],
                    "to_count_s": (shown_at - started) if shown_at is not None else None,
                }
            )
        for _ in typed:
            await pilot.press("backspace")
        await pilot.pause(0.2)
    return keystrokes


async def notebook(job: dict[str, Any]) -> dict[str, Any]:
    """The notebook on ``home``: '/' (or E, then ctrl+f) and
    the query; done when the count for what is typed is shown."""
    from notebook_app.app.app import NotebookApp
    from notebook_app.app.themes import shipped_themes_dir

    home = Path(job["home"])
    app = NotebookApp(
        home,
        theme="dark",
        watch=False,
        home_label="bench",
        clock=lambda _: "12:00:00",
        theme_dirs=[shipped_themes_dir()],
    )
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(3000):
            if getattr(app.screen, "state", None) is not None:
                break
            await pilot.pause(0.01)
        screen = app.screen
        await pilot.pause(0.5)  # the doctor's first check and the first paints settle
        if job.get("editor"):
            await pilot.press("E")
            for _ in range(3000):
                if app.screen is not screen:
                    break
                await pilot.pause(0.01)
            screen = app.screen
            await pilot.pause(0.5)  # the buffer's first paint
            await pilot.press("ctrl+f")
        else:
            await pilot.press("slash")
        count = screen.query_one("#find-count")

        counts: dict[str, str] = {}

        def shown(typed: str) -> bool:
            outcome = screen.find.steps.outcome
            if outcome is not None and outcome.typed == typed and str(count.content) == outcome.words:
                counts[typed] = outcome.words
                return True
            return False

        keystrokes = await type_query(pilot, job["query"], job["rounds"], shown)
    return {
        "keystrokes": keystrokes,
        "memory_bytes": (home / "MEMORY.md").stat().st_size,
        "last_count": counts.get(job["query"], ""),
    }


async def floor(job: dict[str, Any]) -> dict[str, Any]:
    """A bare Textual app with one Input whose text's length a Static shows on each keystroke, driven the same way."""
    from textual.app import App, ComposeResult
    from textual.widgets import Input, Static

    class Floor(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("", id="shown")
            yield Input(id="typed", compact=True)

        def on_input_changed(self, event: Input.Changed) -> None:
            self.query_one("#shown", Static).update(f"{len(event.value)} typed")

    app = Floor()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.3)
        label = app.query_one("#shown", Static)
        keystrokes = await type_query(
            pilot, job["query"], job["rounds"], lambda typed: str(label.content) == f"{len(typed)} typed"
        )
    return {"keystrokes": keystrokes}


def main() -> None:
    job = json.loads(sys.argv[1])
    instrument_loop()
    result = asyncio.run(floor(job) if job.get("floor") else notebook(job))
    print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main()
