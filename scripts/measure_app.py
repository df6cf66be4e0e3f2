"""Measure the notebook headless: external-write-to-screen latency, and a 2 MiB MEMORY.md.

    .venv/bin/python scripts/measure_app.py [--trials 15]

Latency: a separate process writes through the core's memory tool and prints
the wall-clock time right after its write returns; the app is polled every
2 ms until the Next-session view is drawing the new line. Responsiveness: a
5 ms interval timer on the app's event loop records the longest gap between
its ticks (an event-loop stall) while a 2 MiB home loads, while 20
characters are typed into the form (each one a dry run) and while an
outside write is picked up.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from notebook_app.app.app import NotebookApp
from notebook_app.app.widgets.home.entry_view import EntryView
from notebook_app.app.widgets.session.session_pane import SessionPane
from notebook_app.core.home.soul import MAX_FILE_BYTES

SIZE = (120, 40)
WRITER = (
    "import sys, time\n"
    "from notebook_app.core.memory.tool import memory_tool\n"
    "result = memory_tool(sys.argv[1]).call({'action': 'add', 'text': sys.argv[2]})\n"
    "print(time.time(), result.is_error)\n"
)


class StallMeter:
    """Gaps between ticks of a 5 ms timer: how long the event loop was blocked.

    The worst gap includes Python's garbage collector, which pauses any
    Textual app now and then; the 99th percentile shows the steady state.
    """

    def __init__(self, app: NotebookApp) -> None:
        self.gaps: list[float] = []
        self.last = time.perf_counter()
        app.set_interval(0.005, self.tick)

    def tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self.last)
        self.last = now

    def reset(self) -> None:
        self.gaps = []
        self.last = time.perf_counter()

    def report(self, figures: dict[str, float], phase: str) -> None:
        gaps = sorted(self.gaps) or [0.0]
        figures[f"{phase}_loop_gap_p99_ms"] = gaps[min(len(gaps) - 1, int(len(gaps) * 0.99))] * 1000
        figures[f"{phase}_loop_gap_max_ms"] = gaps[-1] * 1000


async def wait_for(pilot, condition, timeout: float = 30.0) -> float:
    started = time.perf_counter()
    while not condition():
        if time.perf_counter() - started > timeout:
            raise TimeoutError
        await pilot.pause(0.002)
    return time.perf_counter() - started


def shows(app, text: str) -> bool:
    view = app.screen.query_one("#next", SessionPane).query_one("LineView")
    document = view.visible_document
    return document is view.document and text in document.lines[-3:]


async def latency(trials: int, big: bool) -> list[float]:
    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch)
        (home / "SOUL.md").write_text("A calm assistant.\n")
        (home / "MEMORY.md").write_text(big_memory() if big else "- first note\n")
        app = NotebookApp(home, theme="dark", watch=True, home_label="bench", clock=lambda _: "00:00:00")
        results = []
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: getattr(app.screen, "state", None) is not None)
            await wait_for(pilot, lambda: any(w.group == "watch" and w.is_running for w in app.screen.workers))
            await pilot.pause(0.2)
            for trial in range(trials):
                text = f"outside write {trial}"
                writer = subprocess.Popen(
                    [sys.executable, "-c", WRITER, str(home), text], stdout=subprocess.PIPE, text=True
                )
                await wait_for(pilot, lambda text=text: shows(app, f"- {text}"))
                seen = time.time()
                written = float(writer.communicate()[0].split()[0])
                results.append((seen - written) * 1000)
                await pilot.pause(0.05)
        return results


def big_memory() -> str:
    line = "- note 00000: the buoy at station 42 reported a six-hour gap\n"
    count = (MAX_FILE_BYTES - 4096) // len(line)
    return "".join(line.replace("00000", f"{i:05d}") for i in range(count))


async def large_home() -> dict[str, float]:
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch)
        (home / "SOUL.md").write_text("A calm assistant.\n")
        text = big_memory()
        (home / "MEMORY.md").write_text(text)
        figures["memory_bytes"] = len(text.encode())
        figures["memory_lines"] = text.count("\n")
        app = NotebookApp(home, theme="dark", watch=True, home_label="bench", clock=lambda _: "00:00:00")
        opened = time.perf_counter()
        async with app.run_test(size=SIZE) as pilot:
            meter = StallMeter(app)
            await wait_for(pilot, lambda: getattr(app.screen, "state", None) is not None)
            view = app.screen.query_one("#pane-memory EntryView", EntryView)
            nxt = app.screen.query_one("#next", SessionPane).query_one("LineView")
            await wait_for(
                pilot,
                lambda: (
                    view.visible_document is view.document
                    and nxt.visible_document is nxt.document
                    and nxt.document.lines
                ),
            )
            figures["open_to_all_views_drawn_s"] = time.perf_counter() - opened
            meter.report(figures, "open")
            figures["widgets_on_screen"] = len(list(app.screen.query("*")))

            meter.reset()
            started = time.perf_counter()
            for _ in range(200):
                await pilot.press("down")
            figures["cursor_200_moves_with_pilot_frame_waits_s"] = time.perf_counter() - started
            meter.report(figures, "cursor")

            await pilot.press("a")
            meter.reset()
            keys = []
            for char in "prefers metric units!":
                before = time.perf_counter()
                await pilot.press(char)
                keys.append(time.perf_counter() - before)
            figures["keystroke_round_trip_median_ms"] = statistics.median(keys) * 1000
            figures["keystroke_round_trip_max_ms"] = max(keys) * 1000
            typed_at = time.perf_counter()
            await wait_for(pilot, lambda: shows(app, "- prefers metric units!"))
            figures["last_key_to_dry_run_drawn_ms"] = (time.perf_counter() - typed_at) * 1000
            meter.report(figures, "typing")
            await pilot.press("escape")

            meter.reset()
            writer = subprocess.run(
                [sys.executable, "-c", WRITER, str(home), "outside"], capture_output=True, text=True, check=True
            )
            written = float(writer.stdout.split()[0])
            await wait_for(pilot, lambda: shows(app, "- outside"))
            figures["outside_write_to_drawn_ms"] = (time.time() - written) * 1000
            meter.report(figures, "outside_write")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=15)
    args = parser.parse_args()
    small = asyncio.run(latency(args.trials, big=False))
    print(f"external write -> Next view drawn, small home, {len(small)} trials (ms):")
    print(f"  median {statistics.median(small):.1f}  min {min(small):.1f}  max {max(small):.1f}")
    large = asyncio.run(latency(max(3, args.trials // 3), big=True))
    print(f"external write -> Next view drawn, 2 MiB MEMORY.md, {len(large)} trials (ms):")
    print(f"  median {statistics.median(large):.1f}  min {min(large):.1f}  max {max(large):.1f}")
    print("2 MiB MEMORY.md:")
    for name, value in asyncio.run(large_home()).items():
        print(f"  {name}: {value:,.1f}" if isinstance(value, float) else f"  {name}: {value:,}")


if __name__ == "__main__":
    main()
