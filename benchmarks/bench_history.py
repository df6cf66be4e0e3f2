"""The history's cost (issue 10): add with recording on, listing a long log, blame of a large file.

10. The memory tool with its history, against the same core as it was just
   before the history (the parent of the commit that added the event log,
   taken from git into a scratch folder), in one run, rounds alternating:
   adds/s from empty, replaces/s and removes/s on a 2,000-entry file (the
   throughput job of measure 1), and one add on 1 KiB and on 2 MiB (the job
   of measure 2).
11. Listing the newest 100 records of a log of 100,000 (made through the core).
12. Blame of a 2 MiB MEMORY.md written by 10,000 records (adds, and entry
    edits spread over the file).

(Measure 9 is the doctor's, on the main line.)
"""

from __future__ import annotations

import io
import json
import subprocess
import tarfile
from pathlib import Path
from typing import Any

from benchlib import (
    HERE,
    OURS,
    REPO,
    Bench,
    DriverError,
    Goal,
    Impl,
    Row,
    Section,
    fmt_rate,
    fmt_ratio,
    fmt_time,
    median,
    paired_ratios,
    parse_result,
    rotated,
)

BEFORE = "before"
"""The column of the core as it was before the history."""
JOBS = HERE / "history_jobs.py"


def before_tree(bench: Bench) -> Path | str:
    """The core just before the event log was added, extracted from git; or why it cannot be."""
    where = bench.scratch("before-history")
    if (where / "notebook_app").is_dir():
        return where
    try:
        added = subprocess.run(
            ["git", "log", "--diff-filter=A", "--format=%H", "--", "notebook_app/core/event_store.py"],
            capture_output=True,
            text=True,
            cwd=REPO,
            check=True,
        ).stdout.split()
        if not added:
            return "git does not know when the event log was added"
        archive = subprocess.run(
            ["git", "archive", f"{added[-1]}^", "notebook_app"], capture_output=True, cwd=REPO, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        return f"cannot read the earlier core from git: {error}"
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
            tar.extractall(where, filter="data")
        else:  # our own git archive: its files and folders, none outside the folder
            safe = [
                m
                for m in tar.getmembers()
                if (m.isfile() or m.isdir()) and not Path(m.name).is_absolute() and ".." not in Path(m.name).parts
            ]
            tar.extractall(where, members=safe)
    return where


def drive_tree(bench: Bench, impl: Impl, tree: Path, job: dict[str, Any]) -> dict[str, Any]:
    """The driver's job for ``ours``, importing the core from ``tree``."""
    env = {**bench.environment(), "PYTHONPATH": str(tree)}
    done = subprocess.run(bench.command(impl, job), capture_output=True, text=True, timeout=600, cwd=HERE, env=env)
    return parse_result(impl, job, done.returncode, done.stdout, done.stderr)


def drive_history(bench: Bench, job: dict[str, Any]) -> dict[str, Any]:
    impl = bench.impls[OURS]
    assert impl.python is not None
    done = subprocess.run(
        [str(impl.python), str(JOBS), json.dumps(job)],
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=HERE,
        env=bench.environment(),
    )
    return parse_result(impl, job, done.returncode, done.stdout, done.stderr)


class AddWithHistory:
    number = "10"
    title = "add with the history on, against the core before it"
    what = (
        "The throughput job of measure 1 ({adds:,} adds from empty; {edits} replaces and "
        "removes on a {seeded:,}-entry file) and the add-cost job of measure 2 ({repeats} "
        "adds on 1 KiB and on 2 MiB), run for this core (every write recorded in the event "
        "log) and for the core just before the history (from git), rounds alternating."
    )

    def run(self, bench: Bench) -> Section:
        cfg = bench.config
        section = Section(
            self.number,
            self.title,
            self.what.format(adds=cfg.adds, edits=cfg.edits, seeded=cfg.seeded, repeats=cfg.cost_repeats),
        )
        tree = before_tree(bench)
        if isinstance(tree, str):
            section.pending = tree
            return section
        ours = bench.impls[OURS]
        trees = {OURS: REPO, BEFORE: tree}
        rates: dict[str, dict[str, list[float | None]]] = {n: {"add": [], "replace": [], "remove": []} for n in trees}
        cost: dict[str, dict[str, list[float | None]]] = {n: {"small": [], "large": [], "first": []} for n in trees}
        for r in range(cfg.rounds):
            for name in rotated(list(trees), r):
                home = bench.scratch("history-add", f"r{r}", name)
                try:
                    out = drive_tree(
                        bench,
                        ours,
                        trees[name],
                        {
                            "job": "throughput",
                            "home": str(home / "t"),
                            "adds": cfg.adds,
                            "seeded": cfg.seeded,
                            "edits": cfg.edits,
                        },
                    )
                    for phase in rates[name]:
                        rates[name][phase].append(out[phase]["ops_per_s"])
                    out = drive_tree(
                        bench,
                        ours,
                        trees[name],
                        {
                            "job": "add_cost",
                            "home": str(home / "c"),
                            "small_bytes": cfg.small_bytes,
                            "large_bytes": cfg.large_bytes,
                            "repeats": cfg.cost_repeats,
                        },
                    )
                    cost[name]["small"].append(out["small"]["median_s"])
                    cost[name]["large"].append(out["large"]["median_s"])
                    cost[name]["first"].append(out["large"]["first_s"])
                except DriverError as error:
                    section.notes.append(f"round {r + 1}, {name}: {error}")
        for phase in ("add", "replace", "remove"):
            row = Row(
                f"10 {phase}",
                f"{phase}s/s, history on vs before it",
                {n: fmt_rate(median(rates[n][phase])) for n in trees},
            )
            row.ratios[BEFORE] = fmt_ratio(
                paired_ratios(rates[OURS][phase], rates[BEFORE][phase], higher_is_better=True)
            )
            section.rows.append(row)
        growth = {
            n: [b / a if a and b else None for a, b in zip(cost[n]["small"], cost[n]["large"], strict=True)]
            for n in trees
        }
        section.rows += [
            Row("10 small", "one add on 1.0 KiB", {n: fmt_time(median(cost[n]["small"])) for n in trees}),
            Row("10 large", "one add on 2.00 MiB", {n: fmt_time(median(cost[n]["large"])) for n in trees}),
            Row(
                "10 growth",
                "growth factor 1 KiB → 2 MiB",
                {n: (f"{median(growth[n]):.2f}×" if median(growth[n]) else "—") for n in trees},
            ),
            Row(
                "10 first",
                "first add on 2 MiB after an outside write (reads it whole; with history: and records it)",
                {n: fmt_time(median(cost[n]["first"])) for n in trees},
            ),
        ]
        g = median(growth[OURS])
        section.goals.append(
            Goal(
                "add cost growth 1 KiB → 2 MiB ≤ 1.1× with the history on",
                f"{g:.2f}×" if g else "—",
                "met" if g and g <= 1.1 else "missed",
                "" if g and g <= 1.1 else "some part of a recorded add still grows with the file",
            )
        )
        ratio = median(paired_ratios(rates[OURS]["add"], rates[BEFORE]["add"], higher_is_better=True))
        with_log, before = median(rates[OURS]["add"]), median(rates[BEFORE]["add"])
        spent = (
            f"recording adds {1e6 / with_log - 1e6 / before:,.0f} µs to an add of {1e6 / before:,.0f} µs "
            "(the event built and its line appended to the log and fsynced, the file's slot in the journal updated)"
            if with_log and before
            else "recording costs more than a fifth of an add"
        )
        section.goals.append(
            Goal(
                "adds/s with the history on within 20% of the core before it",
                f"{ratio:.2f}×" if ratio else "—",
                "met" if ratio and ratio >= 0.8 else "missed",
                "" if ratio and ratio >= 0.8 else spent,
            )
        )
        return section


class NewestRecords:
    number = "11"
    title = "listing the newest 100 of a long history"
    what = (
        "A log of {records:,} records made through the core (adds, "
        "not synced); `history(home, limit=100)`, median of {repeats}."
    )

    def run(self, bench: Bench) -> Section:
        records, repeats = (2_000, 3) if bench.config.smoke else (100_000, 15)
        section = Section(self.number, self.title, self.what.format(records=records, repeats=repeats))
        out = drive_history(
            bench,
            {"job": "list", "home": str(bench.scratch("history-list") / "h"), "records": records, "repeats": repeats},
        )
        section.rows.append(Row("11", f"newest 100 of {records:,} records", {OURS: fmt_time(out["median_s"])}))
        section.notes.append(
            f"The log: {out['log_bytes']:,} bytes, {out['bytes_per_record']:.0f} bytes per record (a CLI add of a "
            f"16-byte entry); made in {out['build_s']:.0f} s."
        )
        met = out["median_s"] < 0.1
        section.goals.append(
            Goal(
                "newest 100 of 100,000 records well under 100 ms", fmt_time(out["median_s"]), "met" if met else "missed"
            )
        )
        return section


class BlameLarge:
    number = "12"
    title = "blame of a 2 MiB MEMORY.md"
    what = (
        "A MEMORY.md of about 2 MiB written by {records:,} records ({edits} of them "
        "entry edits spread over it); `blame(home, 'MEMORY.md')`, median of {repeats}."
    )

    def run(self, bench: Bench) -> Section:
        records, edits, repeats, size = (300, 5, 3, 212) if bench.config.smoke else (10_000, 100, 9, 212)
        section = Section(self.number, self.title, self.what.format(records=records, edits=edits, repeats=repeats))
        job = {
            "job": "blame",
            "home": str(bench.scratch("history-blame") / "h"),
            "records": records,
            "edits": edits,
            "entry_bytes": size,
            "repeats": repeats,
        }
        out = drive_history(bench, job)
        section.rows.append(
            Row(
                "12",
                f"blame, {out['file_bytes']:,} bytes, {out['lines']:,} lines, {records:,} records",
                {OURS: fmt_time(out["median_s"])},
            )
        )
        met = out["median_s"] < 0.1
        section.goals.append(
            Goal(
                "blame of a 2 MiB MEMORY.md with 10,000 records well under 100 ms",
                fmt_time(out["median_s"]),
                "met" if met else "missed",
            )
        )
        return section


MEASURES = [AddWithHistory(), NewestRecords(), BlameLarge()]
