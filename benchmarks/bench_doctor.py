"""Measure 9: the doctor on a home with a large MEMORY.md, and how its time grows with size.

Issue 12 asks for the doctor on a 2 MiB MEMORY.md (about 34,000 entries)
under one second, growing linearly (duplicates and conflicts by hashing,
never pairwise). Each size is measured in a fresh interpreter of ours
(``doctor_job.py``), on the demo persona with its MEMORY.md grown to just
under that size with distinct entries.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

from benchlib import HERE, OURS, REPO, Bench, Goal, Row, Section, fmt_bytes, fmt_time

DEMO = REPO / "notebook_app" / "demo_home"
WORDS = (
    "project urchin barren mapping transects Point Pinos advisor drafts Fridays buoy feed wiki sensors cite NOAA "
    "tide tables shared drive slow Mondays suggest offline copies otter census autumn digest kelp papers deadline "
    "abstract logger clock drifted figures palettes partner dive logistics"
).split()


def make_home(folder: Path, size: int, seed: int = 12) -> tuple[int, int]:
    """The demo persona with a MEMORY.md of distinct entries just under ``size`` bytes."""
    shutil.copytree(DEMO, folder, dirs_exist_ok=True)
    rng = random.Random(seed)
    lines, total = [], 0
    while True:
        line = f"- note {len(lines)}: " + " ".join(rng.choice(WORDS) for _ in range(7)) + "\n"
        if total + len(line) > size:
            break
        lines.append(line)
        total += len(line)
    (folder / "MEMORY.md").write_text("".join(lines), encoding="utf-8")
    return total, len(lines)


class DoctorScaling:
    number = "9"
    title = "Doctor on a large MEMORY.md"
    what = (
        "`Doctor().check(home)` (every rule, the contract's host) on the demo persona with MEMORY.md grown to "
        "{sizes} of distinct entries, each size in a fresh interpreter: the first check (which imports the "
        "scanners it needs), the median of {rounds} checks with a fresh Doctor (no cache), one check served from "
        "the per-digest cache, and the exact token count (o200k_base) done after. Then the same on a home whose "
        "MEMORY.md was written through the core by 10,000 records, so the doctor also scans the log for secrets."
    )

    def run(self, bench: Bench) -> Section:
        smoke = bench.config.smoke
        sizes = [256 * 1024, 512 * 1024] if smoke else [1024 * 1024, 2 * 1024 * 1024, 4 * 1024 * 1024]
        rounds = 1 if smoke else 5
        section = Section(
            self.number, self.title, self.what.format(sizes=", ".join(fmt_bytes(s) for s in sizes), rounds=rounds)
        )
        ours = bench.impls[OURS]
        warm: dict[int, float] = {}
        for size in sizes:
            home = bench.scratch("doctor", str(size))
            actual, entries = make_home(home, size)
            done = subprocess.run(
                [str(ours.python), str(HERE / "doctor_job.py"), str(home), str(rounds)],
                capture_output=True,
                text=True,
                timeout=600,
                cwd=HERE,
                env=bench.environment(),
            )
            line = next((printed for printed in done.stdout.splitlines() if printed.startswith("RESULT ")), None)
            if line is None:
                section.notes.append(f"{fmt_bytes(size)}: the job failed ({done.returncode}): {done.stderr[-500:]}")
                continue
            out = json.loads(line[len("RESULT ") :])
            warm[size] = out["warm_s"]
            section.rows.append(
                Row(
                    f"9 {fmt_bytes(size)}",
                    f"doctor, MEMORY.md {fmt_bytes(actual)} ({entries:,} "
                    "entries): first / no cache / cached; exact tokens",
                    {
                        OURS: f"{fmt_time(out['first_s'])} / {fmt_time(out['warm_s'])} / {fmt_time(out['cached_s'])}; "
                        f"{fmt_time(out['tokens_s'])} ({out['tokens']:,} tokens)"
                    },
                )
            )
            shutil.rmtree(home, ignore_errors=True)
        if len(warm) >= 2:
            small, large = min(warm), max(warm)
            growth = warm[large] / warm[small]
            section.rows.append(
                Row(
                    "9 growth",
                    f"time ÷ time, {fmt_bytes(large)} vs {fmt_bytes(small)} (×{large / small:g} the size)",
                    {OURS: f"{growth:.2f}×"},
                )
            )
        self._history(bench, section, records=300 if smoke else 10_000, rounds=rounds)
        one_line = self._one_line(bench, section, size=256 * 1024 if smoke else 2 * 1024 * 1024, rounds=rounds)
        two = warm.get(2 * 1024 * 1024)
        text = "Doctor on a 2 MiB MEMORY.md under 1 s (issue 12)"
        if two is None:
            section.goals.append(Goal(text, "—", "pending", "not measured in this run (smoke sizes are smaller)"))
        else:
            status = "met" if two < 1.0 else "missed"
            section.goals.append(
                Goal(
                    text,
                    fmt_time(two),
                    status,
                    "" if status == "met" else "the rules take longer than a second on this machine",
                )
            )
        text = "Doctor on 2 MiB of one line under 1 s (issue 34)"
        if one_line is None:
            section.goals.append(Goal(text, "—", "pending", "not measured in this run (smoke sizes are smaller)"))
        else:
            status = "met" if one_line < 1.0 else "missed"
            note = "" if status == "met" else "a rule reads one long line slower than its length allows"
            section.goals.append(Goal(text, fmt_time(one_line), status, note))
        section.notes.append(
            "Each size runs in its own interpreter; 'first' includes importing the scanners (detect-secrets' "
            "formats, the confusables table when a word needs it); the goal is judged on the median without cache."
        )
        return section

    def _one_line(self, bench: Bench, section: Section, *, size: int, rounds: int) -> float | None:
        """Issue 34's home: MEMORY.md is ``- a\\u200bb`` and one line of ``size`` × ``y`` (the lookalike rule was
        quadratic in it: 6 s at 20,000, hours at 2 MiB). Returns the median without cache at 2 MiB, else None."""
        ours = bench.impls[OURS]
        home = bench.scratch("doctor", "one-line")
        shutil.copytree(DEMO, home, dirs_exist_ok=True)
        (home / "MEMORY.md").write_text("- a\u200bb\n" + "y" * size + "\n", encoding="utf-8")
        done = subprocess.run(
            [str(ours.python), str(HERE / "doctor_job.py"), str(home), str(rounds)],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=HERE,
            env=bench.environment(),
        )
        shutil.rmtree(home, ignore_errors=True)
        line = next((printed for printed in done.stdout.splitlines() if printed.startswith("RESULT ")), None)
        if line is None:
            section.notes.append(f"one line: the job failed ({done.returncode}): {done.stderr[-500:]}")
            return None
        out = json.loads(line[len("RESULT ") :])
        section.rows.append(
            Row(
                "9 line",
                f"doctor, MEMORY.md of one line of {fmt_bytes(size)} with no space (issue 34): first / no cache",
                {OURS: f"{fmt_time(out['first_s'])} / {fmt_time(out['warm_s'])}"},
            )
        )
        return out["warm_s"] if size >= 2 * 1024 * 1024 else None

    def _history(self, bench: Bench, section: Section, *, records: int, rounds: int) -> None:
        """The same check on a home whose MEMORY.md (about 2 MiB)
        was written by ``records`` records: the log is scanned too."""
        ours = bench.impls[OURS]
        home = bench.scratch("doctor", "history")
        built = subprocess.run(
            [
                str(ours.python),
                "-c",
                "import sys, history_jobs; from pathlib import Path; "
                f"history_jobs.build(Path(sys.argv[1]), {records}, entry_bytes=212, edits=100)",
                str(home),
            ],
            capture_output=True,
            text=True,
            timeout=900,
            cwd=HERE,
            env=bench.environment(),
        )
        done = subprocess.run(
            [str(ours.python), str(HERE / "doctor_job.py"), str(home), str(rounds), "add"],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=HERE,
            env={**bench.environment(), "XDG_STATE_HOME": str(bench.scratch("doctor", "state"))},
        )
        line = next((printed for printed in done.stdout.splitlines() if printed.startswith("RESULT ")), None)
        if built.returncode or line is None:
            section.notes.append(f"history: the job failed: {(built.stderr + done.stderr)[-500:]}")
            return
        out = json.loads(line[len("RESULT ") :])
        log = home / ".notebook" / "events.jsonl"
        section.rows.append(
            Row(
                "9 history",
                f"doctor, MEMORY.md {fmt_bytes((home / 'MEMORY.md').stat().st_size)} written by {records:,} records "
                f"(log {fmt_bytes(log.stat().st_size)}): first / no cache / after one more add, the same Doctor / "
                "a new process that remembers how far the last read the log",
                {
                    OURS: f"{fmt_time(out['first_s'])} / {fmt_time(out['warm_s'])} / {fmt_time(out['after_add_s'])} / "
                    f"{fmt_time(out['remembered_s'])}"
                },
            )
        )
        shutil.rmtree(home, ignore_errors=True)


MEASURES = [DoctorScaling()]
