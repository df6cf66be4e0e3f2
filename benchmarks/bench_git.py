"""Measures 1 and 2 with the home's git on (issue 26), beside the same jobs with it off, in one run.

1g. The throughput job of measure 1 (adds from empty; replaces and removes on a
    seeded file), ours with git off and ours with git on (``git on --yes``
    through the core first, untimed: every write then also commits its file).
2g. The add-cost job of measure 2 (adds on 1 KiB and on 2 MiB), the same two ways.

Rounds alternate which goes first; each ratio is formed within one round. Git
runs with no user or system config (``GIT_CONFIG_GLOBAL=/dev/null``): no
signing, no hooks of the user's, so the figure is git's own cost. Each job
checks that git holds one commit per write.
"""

from __future__ import annotations

import subprocess
from typing import Any

from benchlib import OURS, Bench, DriverError, Row, Section, fmt_rate, fmt_ratio, fmt_time, median, paired_ratios

OFF, ON = "git off", "git on"
WAYS = (OFF, ON)


def _git_version() -> str:
    try:
        return subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip() or "git: ?"
    except OSError:
        return ""


def _drive(bench: Bench, job: dict[str, Any], way: str) -> dict[str, Any]:
    return bench.drive(bench.impls[OURS], {**job, "git": way == ON}, timeout=1800)


class GitThroughput:
    number = "1g"
    title = "Core throughput with git on, beside git off"
    what = (
        "The throughput job of measure 1 ({adds:,} adds from empty; {edits:,} replaces, then {edits:,} removes, "
        "on a {seeded:,}-entry file), ours with the home's git off and with it on (every write also a commit of "
        "its file, by the git command), rounds alternating. Ratio: ops/s with git on ÷ with git off, per round "
        "(under 1: git on is slower)."
    )

    def run(self, bench: Bench) -> Section:
        cfg = bench.config
        section = Section(self.number, self.title, self.what.format(adds=cfg.adds, edits=cfg.edits, seeded=cfg.seeded))
        if not _git_version():
            section.pending = "git is not on PATH"
            return section
        phases = ("add", "replace", "remove")
        rates: dict[str, dict[str, list[float | None]]] = {w: {p: [] for p in phases} for w in WAYS}
        short: list[str] = []
        for r in range(cfg.rounds):
            for way in WAYS if r % 2 == 0 else tuple(reversed(WAYS)):
                home = bench.scratch("git-throughput", f"r{r}", way.replace(" ", "-"))
                job = {"job": "throughput", "home": str(home), "adds": cfg.adds, "seeded": cfg.seeded}
                try:
                    out = _drive(bench, {**job, "edits": cfg.edits}, way)
                except DriverError as error:
                    section.notes.append(f"round {r + 1}, {way}: {error}")
                    out = {}
                for phase in phases:
                    figures = out.get(phase)
                    rates[way][phase].append(figures["ops_per_s"] if figures else None)
                    if figures and (not figures["exact"] or (way == ON and figures["commits"] < figures["ops"])):
                        short.append(f"round {r + 1} {phase}")
        for phase in phases:
            row = Row(
                f"1g {phase}",
                {"add": "adds/s from empty", "replace": "replaces/s", "remove": "removes/s"}[phase],
                {OFF: fmt_rate(median(rates[OFF][phase])), ON: fmt_rate(median(rates[ON][phase]))},
            )
            row.ratios[ON] = fmt_ratio(paired_ratios(rates[ON][phase], rates[OFF][phase], higher_is_better=True))
            section.rows.append(row)
        section.notes.append(f"{cfg.rounds} round(s); {_git_version()}; no user or system git config.")
        section.notes.append(
            "CHECK FAILED (bytes, or fewer commits than writes): " + ", ".join(short)
            if short
            else "Every phase left the expected bytes, and with git on one commit per write."
        )
        return section


class GitAddCost:
    number = "2g"
    title = "add on 1 KiB and on 2 MiB with git on, beside git off"
    what = (
        "The add-cost job of measure 2 ({repeats} adds in a row on a 1 KiB and on a 2 MiB MEMORY.md; the first "
        "add after seeding timed apart: with git on it also commits the seeded file, authored outside), ours with "
        "git off and with it on, rounds alternating. Ratio: speed with git on ÷ with git off (time off ÷ time on), "
        "per round."
    )

    def run(self, bench: Bench) -> Section:
        cfg = bench.config
        section = Section(self.number, self.title, self.what.format(repeats=cfg.cost_repeats))
        if not _git_version():
            section.pending = "git is not on PATH"
            return section
        kinds = ("small", "large", "first")
        times: dict[str, dict[str, list[float | None]]] = {w: {k: [] for k in kinds} for w in WAYS}
        for r in range(cfg.rounds):
            for way in WAYS if r % 2 == 0 else tuple(reversed(WAYS)):
                home = bench.scratch("git-add-cost", f"r{r}", way.replace(" ", "-"))
                job = {"job": "add_cost", "home": str(home), "small_bytes": cfg.small_bytes}
                try:
                    out = _drive(bench, {**job, "large_bytes": cfg.large_bytes, "repeats": cfg.cost_repeats}, way)
                    times[way]["small"].append(out["small"]["median_s"])
                    times[way]["large"].append(out["large"]["median_s"])
                    times[way]["first"].append(out["large"]["first_s"])
                except DriverError as error:
                    section.notes.append(f"round {r + 1}, {way}: {error}")
                    for kind in kinds:
                        times[way][kind].append(None)
        words = {"small": "one add on 1 KiB", "large": "one add on 2 MiB", "first": "first add on 2 MiB after seeding"}
        for kind in kinds:
            on, off = times[ON][kind], times[OFF][kind]
            row = Row(f"2g {kind}", words[kind], {OFF: fmt_time(median(off)), ON: fmt_time(median(on))})
            row.ratios[ON] = fmt_ratio(paired_ratios(on, off, higher_is_better=False))
            section.rows.append(row)
        rate = {w: median(times[w]["small"]) for w in WAYS}
        section.notes.append(
            f"{cfg.rounds} round(s); {_git_version()}; adds/s on 1 KiB: "
            + ", ".join(f"{w} {1 / t:,.0f}" for w, t in rate.items() if t)
            + ". Each job checked one commit per add with git on."
        )
        return section


MEASURES = [GitThroughput(), GitAddCost()]
