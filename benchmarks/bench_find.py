"""Measure 14: one find keystroke on a 2 MiB home (issue 13), against a bare Textual app's keystroke.

Each side runs in a fresh interpreter of ours (find_job.py), headless: the
notebook on a copy of the demo home whose MEMORY.md is 2 MiB, '/' and a query
typed key by key; the floor, a bare Textual app whose Input shows its length
in a Static, typed the same way. Figures per keystroke: the event loop's work
(every callback it ran, timed, from the key until the count is shown) and the
time until the count is shown.
"""

from __future__ import annotations

import json
import statistics
import subprocess
from typing import Any

from bench_app import home
from benchlib import HERE, OURS, Bench, DriverError, Goal, Row, Section, fmt_bytes, fmt_time, parse_result

JOB = HERE / "find_job.py"
QUERY = "units, short"
"""Typed one key at a time: its first letters match across the 2 MiB file, the whole of it every entry."""
FRAME_S = 0.016


def run_job(bench: Bench, job: dict[str, Any]) -> dict[str, Any]:
    impl = bench.impls[OURS]
    if impl.python is None:
        raise DriverError("our interpreter is not available")
    try:
        done = subprocess.run(
            [str(impl.python), str(JOB), json.dumps(job)],
            capture_output=True,
            text=True,
            timeout=900,
            cwd=HERE,
            env=bench.environment(),
        )
    except subprocess.TimeoutExpired:
        raise DriverError("find job: no answer within 900 s") from None
    return parse_result(impl, job, done.returncode, done.stdout, done.stderr)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


class FindKeystroke:
    number = "14"
    title = "One find keystroke on a 2 MiB home"
    what = (
        "The notebook, headless at 120 × 40, on the demo home with MEMORY.md grown to {large}: '/' opens "
        "the find bar and “{query}” is typed key by key, {rounds} times ({keys} keystrokes; the first "
        "letters match across the whole file). Per keystroke: the event loop's work (every asyncio "
        "callback timed, from the key until the count for that query is on screen; the search runs in a "
        "worker) and the time until the count is shown. The same keys on the demo home with a {small} "
        "MEMORY.md show what does not grow with the home. The floor: a bare Textual app whose Input shows "
        "its length in a Static, typed the same way. The editor rows: the same keys in the built-in "
        "editor's find bar (E on the large MEMORY.md, then ctrl+f), each match selected in the buffer."
    )

    def run(self, bench: Bench) -> Section:
        cfg = bench.config
        rounds = 1 if cfg.smoke else 5
        section = Section(
            self.number,
            self.title,
            self.what.format(
                large=fmt_bytes(cfg.large_bytes),
                small=fmt_bytes(cfg.small_bytes),
                query=QUERY,
                rounds=rounds,
                keys=rounds * len(QUERY),
            ),
        )
        path = home(bench, "find-large", cfg.large_bytes)
        ours = run_job(bench, {"home": str(path), "rounds": rounds, "query": QUERY})
        small = run_job(
            bench, {"home": str(home(bench, "find-small", cfg.small_bytes)), "rounds": rounds, "query": QUERY}
        )
        editor = run_job(bench, {"home": str(path), "rounds": rounds, "query": QUERY, "editor": True})
        floor = run_job(bench, {"floor": True, "rounds": rounds, "query": QUERY})
        loop = {name: [k["loop_s"] for k in out["keystrokes"]] for name, out in (("ours", ours), ("floor", floor))}
        shown = {
            name: [k["to_count_s"] for k in out["keystrokes"] if k["to_count_s"] is not None]
            for name, out in (("ours", ours), ("floor", floor))
        }
        first = [k["loop_s"] for k in ours["keystrokes"] if len(k["typed"]) == 1]

        def ratio(ours_s: float, floor_s: float) -> dict[str, str]:
            return {"floor": f"{ours_s / floor_s:.2f}×"} if floor_s > 0 else {}

        loop_mid = {name: statistics.median(values) for name, values in loop.items()}
        loop_p90 = {name: percentile(values, 0.9) for name, values in loop.items()}
        shown_mid = {name: statistics.median(values) for name, values in shown.items() if values}
        section.rows += [
            Row(
                "14 loop",
                "event-loop work per keystroke, median",
                {n: fmt_time(v) for n, v in loop_mid.items()},
                ratio(loop_mid["ours"], loop_mid["floor"]),
            ),
            Row(
                "14 loop p90",
                "event-loop work per keystroke, 90th percentile",
                {n: fmt_time(v) for n, v in loop_p90.items()},
                ratio(loop_p90["ours"], loop_p90["floor"]),
            ),
            Row(
                "14 small",
                f"event-loop work per keystroke, median, MEMORY.md {fmt_bytes(cfg.small_bytes)} (the same keys)",
                {"ours": fmt_time(statistics.median(k["loop_s"] for k in small["keystrokes"]))},
            ),
            Row(
                "14 first",
                "event-loop work of a query's first key (the most matches on screen), median",
                {"ours": fmt_time(statistics.median(first))},
            ),
            Row(
                "14 editor",
                f"the built-in editor on the {fmt_bytes(cfg.large_bytes)} MEMORY.md "
                "(E, ctrl+f, the same keys): event-loop work per keystroke, median",
                {"ours": fmt_time(statistics.median(k["loop_s"] for k in editor["keystrokes"]))},
            ),
            Row(
                "14 editor p90",
                "the same, 90th percentile",
                {"ours": fmt_time(percentile([k["loop_s"] for k in editor["keystrokes"]], 0.9))},
            ),
            Row(
                "14 editor count",
                "the same: key pressed → count shown, median",
                {
                    "ours": fmt_time(
                        statistics.median(k["to_count_s"] for k in editor["keystrokes"] if k["to_count_s"] is not None)
                    )
                },
            ),
            Row(
                "14 count",
                "key pressed → count shown, median (the floor: its Static updated)",
                {n: fmt_time(v) for n, v in shown_mid.items()},
                ratio(shown_mid["ours"], shown_mid["floor"]) if len(shown_mid) == 2 else {},
            ),
        ]
        section.notes.append(
            f"MEMORY.md {ours['memory_bytes']:,} bytes; the count at the end: "
            f"{ours['last_count']}. Both sides are driven by Textual's Pilot, whose press waits "
            "for the app to be idle: the floor's time to count is that harness's own cost."
        )
        median_loop = loop_mid["ours"]
        section.goals.append(
            Goal(
                "a find keystroke under a frame (16 ms) of work on the event loop (median)",
                fmt_time(median_loop),
                "met" if median_loop < FRAME_S else "missed",
                ""
                if median_loop < FRAME_S
                else "see row 14 small: the loop's work per key does not grow with the home; it is Textual "
                "repainting the rows whose highlights changed in five panes (find's own handlers take under 1 ms)",
            )
        )
        editor_loop = statistics.median(k["loop_s"] for k in editor["keystrokes"])
        section.goals.append(
            Goal(
                "a find keystroke in the built-in editor under a frame (16 ms) of work on the event loop (median)",
                fmt_time(editor_loop),
                "met" if editor_loop < FRAME_S else "missed",
                ""
                if editor_loop < FRAME_S
                else "see rows 14 editor: the search runs in a worker; "
                "the loop selects the match and repaints the buffer",
            )
        )
        return section


MEASURES = [FindKeystroke()]
