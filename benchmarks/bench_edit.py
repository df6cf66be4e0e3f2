"""The built-in editor's save (issue 13): ctrl+s on a 2 MiB MEMORY.md, core write and what the app does after.

15. One edit of a line in the middle of a MEMORY.md of about 2 MiB, saved the
    way the editor saves it: the buffer's text, the guarded hand edit (fsync'd),
    the notebook's re-read of the home, the editor's new base. Once with the
    file as the editor found it (one splice), once after an agent's add
    meanwhile (the three-way merge). Medians, in our interpreter
    (``edit_jobs.py``).

16. The conflict view on a ~2 MiB MEMORY.md with 8 conflicts spread through
    it, in the real app headless: the event loop's work to open it and per key
    (1/2/3, up/down), every loop callback timed; the same on a ~40 kB file
    shows what grows with the file.
"""

from __future__ import annotations

import json
import statistics
import subprocess
from typing import Any

from bench_find import percentile
from benchlib import HERE, OURS, Bench, Row, Section, fmt_time, parse_result

JOBS = HERE / "edit_jobs.py"


def drive_edit(bench: Bench, job: dict[str, Any]) -> dict[str, Any]:
    impl = bench.impls[OURS]
    assert impl.python is not None
    done = subprocess.run(
        [str(impl.python), str(JOBS), json.dumps(job)],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=HERE,
        env=bench.environment(),
    )
    return parse_result(impl, job, done.returncode, done.stdout, done.stderr)


class EditorSave:
    number = "15"
    title = "the built-in editor's save of a 2 MiB MEMORY.md"
    what = (
        "ctrl+s after changing one line in the middle of a ~2 MiB MEMORY.md, as the editor runs it: the "
        "buffer's text, the guarded hand edit (fsync'd), the notebook's re-read of the home, the editor's new "
        "base; median of {repeats}, unchanged on disk (one splice) and after an agent's add meanwhile (merged)."
    )

    def run(self, bench: Bench) -> Section:
        repeats = 3 if bench.config.smoke else 15
        section = Section(self.number, self.title, self.what.format(repeats=repeats))
        out = drive_edit(
            bench,
            {
                "job": "save",
                "home": str(bench.scratch("editor-save") / "h"),
                "bytes": 2 * 1024 * 1024,
                "repeats": repeats,
            },
        )
        size = f"{out['file_bytes']:,} bytes, {out['lines']:,} lines"
        for kind, label in (("splice", "unchanged on disk: one splice"), ("merge", "an agent added meanwhile: merged")):
            figures = out[kind]
            section.rows.append(Row(f"15 {kind}", f"save, {label} ({size})", {OURS: fmt_time(figures["total"])}))
            section.notes.append(
                f"{kind}: buffer text {fmt_time(figures['buffer'])}, guarded write {fmt_time(figures['core'])}, "
                f"re-read of the home {fmt_time(figures['reread'])}, new base {fmt_time(figures['base'])}."
            )
        section.notes.append(
            "The write and the re-read run in a worker: the editor "
            "stays responsive; only the new base is on the event loop."
        )
        return section


class ConflictKeys:
    number = "16"
    title = "the conflict view's keys on a 2 MiB MEMORY.md"
    what = (
        "A save that conflicts at 8 places spread through a ~2 MiB MEMORY.md, its conflict view "
        "pushed in the real app (headless, 120 x 40); {rounds} rounds of 8 keys (down, down, up, 1, "
        "2, 3, up, up). Per key, the event loop's work (every asyncio callback timed) until both "
        "sides show the new state, and its longest callback; the same on a ~40 kB file. Opening "
        "(once per round, a new view): the loop's work until both sides are drawn and wrapped."
    )

    def run(self, bench: Bench) -> Section:
        rounds = 1 if bench.config.smoke else 5
        section = Section(self.number, self.title, self.what.format(rounds=rounds))
        for label, size in (("2 MiB", 2 * 1024 * 1024), ("40 kB", 40_000)):
            out = drive_edit(
                bench,
                {
                    "job": "conflict",
                    "home": str(bench.scratch(f"conflict-{size}") / "h"),
                    "bytes": size,
                    "conflicts": 8,
                    "rounds": rounds,
                },
            )
            loop = [k["loop_s"] for k in out["keys"]]
            longest = [k["longest_s"] for k in out["keys"]]
            size_words = f"{out['file_bytes']:,} bytes, {out['lines']:,} lines"
            section.rows += [
                Row(
                    f"16 key {label}",
                    f"event-loop work per key, median / 90th percentile ({size_words})",
                    {OURS: f"{fmt_time(statistics.median(loop))} / {fmt_time(percentile(loop, 0.9))}"},
                ),
                Row(
                    f"16 longest {label}",
                    "the key's longest loop callback, median / 90th percentile",
                    {OURS: f"{fmt_time(statistics.median(longest))} / {fmt_time(percentile(longest, 0.9))}"},
                ),
                Row(
                    f"16 open {label}",
                    "opening the view, median: event-loop work / longest callback",
                    {
                        OURS: f"{fmt_time(statistics.median(o['loop_s'] for o in out['opens']))} / "
                        f"{fmt_time(statistics.median(o['longest_s'] for o in out['opens']))}"
                    },
                ),
            ]
        section.notes.append(
            "Both sides are drawn once per merge in a worker, after the view's first frame; a key "
            "re-marks them (cost: the number of conflicts) and the moved banner's one row is "
            "spliced in, not the lines after it re-wrapped. Before (both sides rebuilt on the loop "
            "at every key), the same job on 2 MiB: 1/2/3 cost 209 ms of loop work per key (median; "
            "longest callback 179 ms), up/down 19 ms; opening 206 ms (longest callback 74 ms)."
        )
        return section


MEASURES = [EditorSave(), ConflictKeys()]
