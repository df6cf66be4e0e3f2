"""The floors the app is held against, run with our interpreter (same Textual, same watchfiles).

    python app_floor.py static          # a bare Textual app that shows one Static
    python app_floor.py enter           # a bare Textual app that repaints one Static on Enter
    python app_floor.py watch HOME      # raw watchfiles: print when HOME changes

``static`` is the least any Textual app pays to start and paint. ``watch``
uses the settings the app's watcher uses, awatch(debounce=50, step=10) on the
home directory, and prints ``changed <monotonic seconds>`` for each
notification (CLOCK_MONOTONIC is one clock for every process on Linux, so the
harness can subtract its own timestamps from it).
"""

from __future__ import annotations

import sys
import time

FLOOR_TEXT = "Bare Textual floor: one Static"


def static() -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Floor(App[None]):
        def compose(self) -> ComposeResult:
            yield Static(FLOOR_TEXT)

    Floor().run()


ENTER_READY = "Floor: type, then enter"
ENTERED = "entered: "


def enter() -> None:
    """The floor of measure 7: an Input; Enter puts its text in a Static (one widget repainted)."""
    from textual.app import App, ComposeResult
    from textual.widgets import Input, Static

    class Floor(App[None]):
        def compose(self) -> ComposeResult:
            yield Static(ENTER_READY, id="shown")
            yield Input(id="typed")

        def on_input_submitted(self, event: Input.Submitted) -> None:
            self.query_one("#shown", Static).update(ENTERED + event.value)
            event.input.value = ""

    Floor().run()


def watch(home: str) -> None:
    import asyncio

    from watchfiles import awatch

    async def main() -> None:
        print("ready", flush=True)
        async for _changes in awatch(home, debounce=50, step=10, recursive=False):
            print(f"changed {time.monotonic()}", flush=True)

    asyncio.run(main())


if __name__ == "__main__":
    if sys.argv[1] == "static":
        static()
    elif sys.argv[1] == "enter":
        enter()
    else:
        watch(sys.argv[2])
