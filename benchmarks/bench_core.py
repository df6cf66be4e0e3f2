"""Measures 1–4: the memory tool and compose_soul, ours beside the two peers.

Every figure is taken in the implementation's own interpreter (see driver.py);
each round runs every implementation back to back, in a rotating order, and
ratios are formed within a round before the median is taken.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import statistics
import time
from pathlib import Path
from typing import Any

import driver
from benchlib import (
    OURS,
    Bench,
    DriverError,
    Goal,
    Impl,
    Row,
    Section,
    fmt_bytes,
    fmt_rate,
    fmt_ratio,
    fmt_time,
    median,
    paired_ratios,
    rotated,
)


def _rounds(bench: Bench, run_round) -> int:
    """Run ``config.rounds`` rounds; each runs every implementation once."""
    for r in range(bench.config.rounds):
        run_round(r)
    return bench.config.rounds


def _rewrite_cost(folder: Path, count: int) -> float:
    """Median seconds to rewrite a 1 KiB file in place with open("w"), as toolnexus does."""
    path = folder / "rewrite-probe"
    times = []
    for i in range(count):
        started = time.perf_counter()
        with open(path, "w") as handle:
            handle.write(f"{i}\n" + "x" * 1024)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _fsync_cost(folder: Path, count: int) -> float:
    """Median seconds of one fsync of a small file on the benchmark's disk."""
    path = folder / "fsync-probe"
    times = []
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        for i in range(count):
            os.pwrite(fd, f"{i}\n".encode(), 0)
            started = time.perf_counter()
            os.fsync(fd)
            times.append(time.perf_counter() - started)
    finally:
        os.close(fd)
    return statistics.median(times)


class Throughput:
    number = "1"
    title = "Core throughput"
    what = (
        "{adds:,} adds to an empty MEMORY.md; {edits:,} replaces, then {edits:,} removes, of whole entries "
        "spread over a {seeded:,}-entry file (each phase in a fresh home). Ops per second over the whole phase, "
        "through each implementation's public call; afterwards each file must equal the expected bytes exactly."
    )

    def run(self, bench: Bench) -> Section:
        cfg = bench.config
        section = Section(self.number, self.title, self.what.format(adds=cfg.adds, edits=cfg.edits, seeded=cfg.seeded))
        impls = bench.available()
        phases = ("add", "replace", "remove")
        rates: dict[str, dict[str, list[float | None]]] = {i.name: {p: [] for p in phases} for i in impls}
        inexact: set[str] = set()
        fsyncs: list[float] = []
        rewrites: list[float] = []

        def one_round(r: int) -> None:
            fsyncs.append(_fsync_cost(bench.scratch("fsync"), 3 if cfg.smoke else 15))
            rewrites.append(_rewrite_cost(bench.scratch("fsync"), 3 if cfg.smoke else 15))
            for impl in rotated(impls, r):
                home = bench.scratch("throughput", f"r{r}", impl.name)
                try:
                    out = bench.drive(
                        impl,
                        {
                            "job": "throughput",
                            "home": str(home),
                            "adds": cfg.adds,
                            "seeded": cfg.seeded,
                            "edits": cfg.edits,
                        },
                    )
                except DriverError as error:
                    section.notes.append(f"round {r + 1}: {error}")
                    out = {}
                for phase in phases:
                    figures = out.get(phase)
                    rates[impl.name][phase].append(figures["ops_per_s"] if figures else None)
                    if figures and not figures["exact"]:
                        inexact.add(f"{impl.label} {phase}")
                shutil.rmtree(home, ignore_errors=True)

        n = _rounds(bench, one_round)
        for phase in phases:
            row = Row(
                f"1 {phase}",
                {
                    "add": f"adds from empty (to {cfg.adds:,} entries)",
                    "replace": f"replaces on a {cfg.seeded:,}-entry file",
                    "remove": f"removes on a {cfg.seeded:,}-entry file",
                }[phase],
                {i.name: fmt_rate(median(rates[i.name][phase])) for i in impls},
            )
            for peer in impls:
                if peer.name != OURS and OURS in rates:
                    row.ratios[peer.name] = fmt_ratio(
                        paired_ratios(rates[OURS][phase], rates[peer.name][phase], higher_is_better=True)
                    )
            section.rows.append(row)
        section.notes.append(
            f"{n} round(s); figures are medians over rounds, ratios the median of per-round ratios (range in brackets)."
        )
        if inexact:
            section.notes.append(
                "FILE CHECK FAILED (bytes differ from the expected result): " + ", ".join(sorted(inexact))
            )
        else:
            section.notes.append("Every phase of every implementation left exactly the expected bytes.")

        census = _census(bench, impls, section)
        if census:
            section.rows.append(
                Row(
                    "1 durable",
                    "fsyncs / renames per add, replace, remove (counted, untimed)",
                    {
                        name: " · ".join(f"{c[p]['fsync']:g}/{c[p]['rename']:g}" for p in phases)
                        for name, c in census.items()
                    },
                )
            )
        fsync = statistics.median(fsyncs)
        bench.facts["fsync_s"] = fsync
        section.notes.append(
            f"One fsync of a small file on this disk took {fmt_time(fsync)} (median of probes at the start of each "
            "round). Row '1 durable' counts the fsync and rename calls each implementation makes per action (os "
            "wrapped in a separate, untimed process)."
        )
        section.notes.append(
            f"toolnexus never calls fsync, yet rewriting a 1 KiB file in place with open('w'), as it does on every "
            f"action, took {fmt_time(statistics.median(rewrites))} (median) on this disk: ext4 starts writing back a "
            "file that was truncated and rewritten as soon as it is closed (its auto_da_alloc heuristic), so on "
            "ext4 its every action costs about what an fsync does."
        )
        hermes = bench.impls.get("hermes")
        if OURS in rates and hermes and hermes.available:
            for phase in phases:
                ratio = median(paired_ratios(rates[OURS][phase], rates["hermes"][phase], higher_is_better=True))
                per_op = {name: median(rates[name][phase]) for name in (OURS, "hermes")}
                file_bytes = len(driver.render(OURS, [driver.entry("seed", 0)])) * cfg.seeded
                section.goals.append(
                    _throughput_goal(
                        phase, ratio, fsync, per_op, census, cfg.adds if phase == "add" else cfg.seeded, file_bytes
                    )
                )
        else:
            section.goals.append(Goal("Throughput ≥ 3× hermes", "—", "missed", _unavailable(bench, "hermes")))
        return section


def _census(bench: Bench, impls: list[Impl], section: Section) -> dict[str, dict[str, dict[str, float]]]:
    out = {}
    for impl in impls:
        try:
            out[impl.name] = bench.drive(
                impl, {"job": "census", "home": str(bench.scratch("census", impl.name)), "ops": 5, "seeded": 50}
            )
        except DriverError as error:
            section.notes.append(f"census: {error}")
    return out


def _compose_goal(bench: Bench, times: dict[str, list[float | None]]) -> Goal:
    """Issue 8: compose_soul within 1.5x of toolnexus's time, in the same run."""
    text = "compose_soul within 1.5× of toolnexus's time (issue 8)"
    if OURS not in times or "toolnexus" not in times:
        return Goal(text, "—", "pending", _unavailable(bench, "toolnexus"))
    speeds = paired_ratios(times[OURS], times["toolnexus"], higher_is_better=False)
    ratio = median([1 / speed for speed in speeds])
    if ratio is None:
        return Goal(text, "—", "missed", "no paired figures")
    if ratio <= 1.5:
        return Goal(text, f"{ratio:.2f}×", "met")
    return Goal(
        text, f"{ratio:.2f}×", "missed", "ours takes longer than 1.5× toolnexus's time to compose the same soul"
    )


def _unavailable(bench: Bench, name: str) -> str:
    impl = bench.impls.get(name)
    why = impl.reason if impl else "not configured"
    return f"{name} could not be measured: {why}"


def _syscalls(census: dict[str, dict[str, dict[str, float]]], name: str, phase: str) -> str:
    counts = census.get(name, {}).get(phase)
    if not counts:
        return "?"

    def n(count: float, word: str) -> str:
        return f"{count:g} {word}" + ("" if count == 1 else "s")

    return f"{n(counts['fsync'], 'fsync')} and {n(counts['rename'], 'rename')}"


def _throughput_goal(
    phase: str,
    ratio: float | None,
    fsync: float,
    rate: dict[str, float | None],
    census: dict[str, dict[str, dict[str, float]]],
    entries: int,
    file_bytes: int = 0,
) -> Goal:
    text = f"Throughput ≥ 3× hermes ({phase})"
    if ratio is None:
        return Goal(text, "—", "missed", "no paired figures")
    figure = f"{ratio:.2f}×"
    if ratio >= 3:
        return Goal(text, figure, "met")
    ours_op = 1 / rate[OURS] if rate.get(OURS) else None
    hermes_op = 1 / rate["hermes"] if rate.get("hermes") else None
    if ours_op is None or hermes_op is None:
        return Goal(text, figure, "missed", "no figures for one side")
    facts = (
        f"Per {phase}: ours {fmt_time(ours_op)} ({_syscalls(census, OURS, phase)}), hermes {fmt_time(hermes_op)} "
        f"({_syscalls(census, 'hermes', phase)}). One fsync of a small file here: {fmt_time(fsync)}. "
    )
    if phase == "add":
        share = fsync / ours_op
        if share < 0.6:
            where = (
                f"Its one fsync is about {share:.0%} of ours's add; "
                "the rest is fixed per-call work (journal, lock, stat)."
            )
        else:
            where = f"Its one fsync is about {share:.0%} of ours's add: only group commit would close it."
        reason = facts + "Both are durable before they return; ours appends, hermes rewrites the whole file. " + where
    else:
        reason = facts + (
            f"Each rewrites the whole {fmt_bytes(file_bytes)} file in both (temp file, fsync, rename); ours "
            "also syncs the directory, so the rename is durable when the call returns, and updates its journal. "
            "What would close it: no directory fsync, or edits that do not rewrite the whole file."
        )
    return Goal(text, figure, "missed", reason)


class AddCost:
    number = "2"
    title = "add on a 2 MiB MEMORY.md vs on 1 KiB"
    what = (
        "Median time of one add on a {small} and on a {large} MEMORY.md (each implementation's own format): each "
        "file is seeded, then takes {repeats} adds in a row with the implementation as its only writer (steady use; "
        "the file grows by {repeats} entries, a few KiB), alternating between the two files. The first add after "
        "seeding is timed apart: it is the first after an outside write. Growth factor = cost on the large file ÷ "
        "cost on the small one, per round."
    )

    def run(self, bench: Bench) -> Section:
        cfg = bench.config
        section = Section(
            self.number,
            self.title,
            self.what.format(
                small=fmt_bytes(cfg.small_bytes), large=fmt_bytes(cfg.large_bytes), repeats=cfg.cost_repeats
            ),
        )
        impls = bench.available()
        small: dict[str, list[float | None]] = {i.name: [] for i in impls}
        large: dict[str, list[float | None]] = {i.name: [] for i in impls}
        first: dict[str, list[float | None]] = {i.name: [] for i in impls}
        sizes: dict[str, tuple[int, int, int, int]] = {}

        def one_round(r: int) -> None:
            for impl in rotated(impls, r):
                home = bench.scratch("add_cost", f"r{r}", impl.name)
                try:
                    out = bench.drive(
                        impl,
                        {
                            "job": "add_cost",
                            "home": str(home),
                            "small_bytes": cfg.small_bytes,
                            "large_bytes": cfg.large_bytes,
                            "repeats": cfg.cost_repeats,
                        },
                    )
                    small[impl.name].append(out["small"]["median_s"])
                    large[impl.name].append(out["large"]["median_s"])
                    first[impl.name].append(out["large"]["first_s"])
                    sizes[impl.name] = tuple(out[k][b] for k in ("small", "large") for b in ("bytes", "bytes_after"))
                except DriverError as error:
                    section.notes.append(f"round {r + 1}: {error}")
                    for figures in (small, large, first):
                        figures[impl.name].append(None)
                shutil.rmtree(home, ignore_errors=True)

        n = _rounds(bench, one_round)
        growth = {
            name: [b / a if a and b else None for a, b in zip(small[name], large[name], strict=True)] for name in small
        }
        rows = [
            Row(
                "2 small",
                f"one add on {fmt_bytes(cfg.small_bytes)}",
                {i: fmt_time(median(v)) for i, v in small.items()},
            ),
            Row(
                "2 large",
                f"one add on {fmt_bytes(cfg.large_bytes)}",
                {i: fmt_time(median(v)) for i, v in large.items()},
            ),
            Row(
                "2 growth",
                "growth factor 1 KiB → 2 MiB (lower is better)",
                {i: (f"{median(v):.2f}×" if median(v) else "—") for i, v in growth.items()},
            ),
            Row(
                "2 first",
                f"first add on {fmt_bytes(cfg.large_bytes)} right after an outside write",
                {i: fmt_time(median(v)) for i, v in first.items()},
            ),
        ]
        if OURS in small:
            for impl in impls:
                if impl.name == OURS:
                    continue
                rows[0].ratios[impl.name] = fmt_ratio(
                    paired_ratios(small[OURS], small[impl.name], higher_is_better=False)
                )
                rows[1].ratios[impl.name] = fmt_ratio(
                    paired_ratios(large[OURS], large[impl.name], higher_is_better=False)
                )
                rows[3].ratios[impl.name] = fmt_ratio(
                    paired_ratios(first[OURS], first[impl.name], higher_is_better=False)
                )
        section.rows.extend(rows)
        section.notes.append(
            f"{n} round(s). File sizes, seeded → after the adds (small; large): "
            + "; ".join(
                f"{bench.impls[name].label} {fmt_bytes(a)} → {fmt_bytes(b)}; {fmt_bytes(c)} → {fmt_bytes(d)}"
                for name, (a, b, c, d) in sizes.items()
            )
            + ". The large file is the largest whole number of entries under 2 MiB, so compose_soul loads it uncut."
        )

        if OURS in small and "toolnexus" in small:
            ratio = median(paired_ratios(large[OURS], large["toolnexus"], higher_is_better=False))
            text = "add on a 2 MiB file ≥ 3× faster than toolnexus"
            if ratio is None:
                section.goals.append(Goal(text, "—", "missed", "no paired figures"))
            elif ratio >= 3:
                section.goals.append(Goal(text, f"{ratio:.2f}×", "met"))
            else:
                fsync = bench.facts.get("fsync_s")
                section.goals.append(
                    Goal(
                        text,
                        f"{ratio:.2f}×",
                        "missed",
                        f"Per add on 2 MiB: ours {fmt_time(median(large[OURS]))}, toolnexus "
                        f"{fmt_time(median(large['toolnexus']))}"
                        + (f"; one fsync of a small file here {fmt_time(fsync)}" if fsync else "")
                        + ". toolnexus rewrites the whole file in place and never fsyncs; ours appends the entry "
                        "and fsyncs it before returning. Where rewriting 2 MiB into the page cache costs less than "
                        "three durable appends, the ratio stays under 3×. What would close it: a cheaper durable "
                        "add (see the throughput goal for add), not giving up the fsync.",
                    )
                )
        else:
            section.goals.append(
                Goal("add on a 2 MiB file ≥ 3× faster than toolnexus", "—", "missed", _unavailable(bench, "toolnexus"))
            )
        if OURS in growth:
            g = median(growth[OURS])
            text = "add cost growth from 1 KiB to 2 MiB ≤ 3×"
            if g is None:
                section.goals.append(Goal(text, "—", "missed", "no figures"))
            elif g <= 3:
                section.goals.append(Goal(text, f"{g:.2f}×", "met"))
            else:
                section.goals.append(
                    Goal(
                        text,
                        f"{g:.2f}×",
                        "missed",
                        f"ours: {fmt_time(median(small[OURS]))} per add on {fmt_bytes(cfg.small_bytes)}, "
                        f"{fmt_time(median(large[OURS]))} on {fmt_bytes(cfg.large_bytes)}: some part of its add "
                        "still grows with the file. What would close it: find that part with a profile of "
                        "MemoryTool.call on a 2 MiB home, and make an add touch only the file's end.",
                    )
                )
        return section


class Safety:
    number = "3"
    title = "Safety under load"
    what = (
        "(a) {workers} processes × {adds} adds at the same moment (each waits for one 'go'), on one empty home; "
        "entries lost = expected entries missing from the file afterwards, per round. "
        "(b) a writer loops add / replace / remove on a {seeded:,}-entry MEMORY.md and is SIGKILLed at a random "
        "moment (uniform in 0–{window:.0f} ms after it is ready), {trials} trials per implementation; the file is "
        "read raw right after the kill, before anything could repair it, and is corrupt when it is neither the "
        "state before nor the state after the action in flight (the writer reports each finished action)."
    )

    def run(self, bench: Bench) -> Section:
        cfg = bench.config
        section = Section(
            self.number,
            self.title,
            self.what.format(
                workers=cfg.workers,
                adds=cfg.worker_adds,
                seeded=cfg.seeded,
                window=cfg.kill_window_s * 1000,
                trials=cfg.kill_trials,
            ),
        )
        impls = bench.available()
        lost: dict[str, list[int]] = {i.name: [] for i in impls}
        errors: dict[str, int] = {i.name: 0 for i in impls}
        first_error: dict[str, str] = {}
        for r in range(cfg.concurrency_rounds):
            for impl in rotated(impls, r):
                try:
                    missing, errs, first = self._concurrent(bench, impl, r)
                except DriverError as error:
                    section.notes.append(f"concurrency round {r + 1}: {error}")
                    continue
                lost[impl.name].append(missing)
                errors[impl.name] += errs
                if first:
                    first_error.setdefault(impl.name, first)

        rng = random.Random(20260529)
        corrupt: dict[str, dict[str, int]] = {i.name: {} for i in impls}
        trials: dict[str, int] = {i.name: 0 for i in impls}
        strays: dict[str, int] = {i.name: 0 for i in impls}
        for t in range(cfg.kill_trials):
            for impl in rotated(impls, t):
                delay = rng.uniform(0, cfg.kill_window_s)
                try:
                    verdict, stray = self._kill_trial(bench, impl, t, delay)
                except DriverError as error:
                    section.notes.append(f"kill trial {t + 1}: {error}")
                    continue
                trials[impl.name] += 1
                strays[impl.name] += stray
                if verdict != "ok":
                    corrupt[impl.name][verdict] = corrupt[impl.name].get(verdict, 0) + 1

        expected = cfg.workers * cfg.worker_adds
        section.rows.append(
            Row(
                "3a",
                f"entries lost of {expected:,} concurrent adds (median of rounds; worst)",
                {
                    name: (
                        f"{statistics.median(v):,.0f} ({100 * statistics.median(v) / expected:.0f}%); worst {max(v):,}"
                        if v
                        else "—"
                    )
                    for name, v in lost.items()
                },
            )
        )
        section.rows.append(
            Row(
                "3b",
                "corrupt files after SIGKILL of a writer",
                {
                    name: (f"{sum(c.values())} of {trials[name]}" + (f" ({_kinds(c)})" if c else ""))
                    for name, c in corrupt.items()
                },
            )
        )
        section.notes.append(
            f"{len(next(iter(lost.values()), []))} concurrency round(s). Calls that answered with an error during the "
            "concurrent adds: "
            + ", ".join(f"{bench.impls[n].label} {e}" for n, e in errors.items())
            + (
                " — first: " + "; ".join(f"{bench.impls[n].label}: {m}" for n, m in first_error.items())
                if first_error
                else ""
            )
            + ". An add that answers with an error is counted as lost too."
        )
        section.notes.append(
            "Temp files left behind by killed writers (not corruption; ours removes them at its next write): "
            + ", ".join(f"{bench.impls[n].label} {s}" for n, s in strays.items())
        )
        if OURS in lost:
            total_lost = sum(lost[OURS])
            total_corrupt = sum(corrupt[OURS].values())
            figure = f"{total_lost} lost in {len(lost[OURS])} round(s); {total_corrupt} corrupt of {trials[OURS]} kills"
            ok = total_lost == 0 and total_corrupt == 0 and lost[OURS] and trials[OURS]
            section.goals.append(
                Goal(
                    "Lose nothing and corrupt nothing",
                    figure,
                    "met" if ok else "missed",
                    ""
                    if ok
                    else "see rows 3a/3b: ours lost entries or left a "
                    "corrupt file (a bug to fix, not a figure to tune)",
                )
            )
        return section

    @staticmethod
    def _concurrent(bench: Bench, impl: Impl, r: int) -> tuple[int, int, str]:
        cfg = bench.config
        home = bench.scratch("concurrency", f"r{r}", impl.name)
        procs = [
            bench.spawn(impl, {"job": "worker", "home": str(home), "worker": w, "adds": cfg.worker_adds})
            for w in range(cfg.workers)
        ]
        try:
            for proc in procs:
                line = proc.stdout.readline() if proc.stdout else ""
                if line.strip() != "ready":
                    raise DriverError(
                        f"{impl.name} worker did not start: {proc.stderr.read() if proc.stderr else ''}"[-400:]
                    )
            for proc in procs:  # the barrier: every worker is loaded and waiting
                assert proc.stdin is not None
                proc.stdin.write("go\n")
                proc.stdin.flush()
            errors, first = 0, ""
            for proc in procs:
                out, err = proc.communicate(timeout=300)
                result = _result(impl, proc.returncode, out, err)
                errors += result["errors"]
                first = first or "; ".join(result["first_error"])
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        path = driver.memory_path(impl.name, home)
        present = set(driver.parse(impl.name, path.read_bytes())) if path.exists() else set()
        wanted = {driver.entry(f"w{w:03d}", i) for w in range(cfg.workers) for i in range(cfg.worker_adds)}
        shutil.rmtree(home, ignore_errors=True)
        return len(wanted - present), errors, first

    @staticmethod
    def _kill_trial(bench: Bench, impl: Impl, t: int, delay: float) -> tuple[str, int]:
        cfg = bench.config
        home = bench.scratch("kill", impl.name, f"t{t}")
        start = [driver.entry("seed", i) for i in range(cfg.seeded)]
        path = driver.seed(impl.name, home, start)
        proc = bench.spawn(impl, {"job": "writer", "home": str(home), "seeded": cfg.seeded, "ops": cfg.kill_ops})
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            if line.strip() != "ready":
                raise DriverError(
                    f"{impl.name} writer did not start: {(proc.stderr.read() if proc.stderr else '')[-400:]}"
                )
            time.sleep(delay)
            finished = proc.poll() is not None
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            out = proc.stdout.read()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        data = path.read_bytes() if path.exists() else b""
        done = [int(x.split()[1]) for x in out.splitlines() if x.startswith("done ")]
        k = done[-1] if done else 0
        ops = driver.kill_ops(cfg.seeded, cfg.kill_ops)
        before = start
        for op in ops[:k]:
            before = driver.apply_op(before, op)
        after = driver.apply_op(before, ops[k]) if k < len(ops) else before
        valid = {driver.render(impl.name, before), driver.render(impl.name, after)}
        stray = sum(
            1 for p in path.parent.iterdir() if p.name.startswith((".persona-notebook-", ".memory-tmp-", ".mem_"))
        )
        shutil.rmtree(home, ignore_errors=True)
        if finished and k == len(ops):
            return ("ok" if data in valid else "wrong final state"), stray
        if data in valid:
            return "ok", stray
        return _classify(impl.name, data, before, after), stray


def _result(impl: Impl, code: int | None, out: str, err: str) -> dict[str, Any]:
    for line in reversed(out.splitlines()):
        if line.startswith("RESULT "):
            import json

            return json.loads(line[7:])
    raise DriverError(f"{impl.name} worker failed (exit {code}): {err.strip()[-400:]}")


def _classify(impl: str, data: bytes, before: list[str], after: list[str]) -> str:
    if not data:
        return "empty"
    for state in (before, after):
        full = driver.render(impl, state)
        if full.startswith(data):
            return "cut"
    got = driver.parse(impl, data)
    if set(before) - set(got) and set(after) - set(got):
        return "entries lost"
    return "other"


def _kinds(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))


SIX = {
    "AGENTS.md": "# Operating instructions\n\nWork in small steps; say what you changed and why.\n",
    "SOUL.md": "# Soul\n\nCalm, exact, and kind. Prefers plain words to adjectives.\n",
    "IDENTITY.md": "# Identity\n\nName: Ada. A research assistant for a small lab.\n",
    "USER.md": "- name is Muthu\n- prefers metric units\n- works in IST\n",
    "TOOLS.md": "# Tools\n\nUse the memory tool for durable notes; it loads next session.\n",
    "HEARTBEAT.md": "# Heartbeat\n\nIf nothing needs attention, reply HEARTBEAT_OK.\n",
}


class Compose:
    number = "4"
    title = "compose_soul on a full home"
    what = (
        "compose_soul on a home with all seven bootstrap files, MEMORY.md {large} (the other six a few lines each); "
        "median of {repeats} calls per round. hermes has no compose_soul: its nearest step, building the frozen "
        "memory snapshot (MemoryStore.load_from_disk) from a {large} MEMORY.md and USER.md, is shown for scale "
        "only — it is not the same work (it also scans every entry for prompt-injection patterns)."
    )

    def run(self, bench: Bench) -> Section:
        cfg = bench.config
        section = Section(
            self.number, self.title, self.what.format(large=fmt_bytes(cfg.large_bytes), repeats=cfg.compose_repeats)
        )
        impls = bench.available()
        homes: dict[str, Path] = {}
        for impl in impls:
            home = bench.scratch("compose", impl.name)
            if impl.name == "hermes":
                driver.seed("hermes", home, driver.entries_for_size("base", cfg.large_bytes, "hermes"))
                driver.user_path("hermes", home).write_text("name is Muthu\n§\nprefers metric units\n§\nworks in IST")
            else:
                for name, text in SIX.items():
                    (home / name).write_text(text)
                driver.seed(impl.name, home, driver.entries_for_size("base", cfg.large_bytes))
            homes[impl.name] = home
        times: dict[str, list[float | None]] = {i.name: [] for i in impls}
        souls: dict[str, set[str]] = {i.name: set() for i in impls}
        found: dict[str, list[str]] = {}

        def one_round(r: int) -> None:
            for impl in rotated(impls, r):
                repeats = cfg.hermes_compose_repeats if impl.name == "hermes" else cfg.compose_repeats
                try:
                    out = bench.drive(impl, {"job": "compose", "home": str(homes[impl.name]), "repeats": repeats})
                except DriverError as error:
                    section.notes.append(f"round {r + 1}: {error}")
                    times[impl.name].append(None)
                    continue
                times[impl.name].append(out["median_s"])
                souls[impl.name].add(out["soul_sha256"])
                found[impl.name] = out["found"]

        n = _rounds(bench, one_round)
        row = Row(
            "4",
            f"compose_soul, 7 files, MEMORY.md {fmt_bytes(cfg.large_bytes)} (hermes: memory snapshot, not comparable)",
            {name: fmt_time(median(v)) for name, v in times.items()},
        )
        for impl in impls:
            if impl.name != OURS and OURS in times:
                ratio = fmt_ratio(paired_ratios(times[OURS], times[impl.name], higher_is_better=False))
                row.ratios[impl.name] = ratio if impl.name != "hermes" else f"({ratio}, not comparable)"
        section.rows.append(row)
        section.goals.append(_compose_goal(bench, times))
        section.notes.append(
            "Ours does more per file than toolnexus: it reads under a shared lock (so that it never loads a "
            "half-finished append) and classifies each file from the descriptor it opened (so that a FIFO, a device "
            "or a link loop is named, never read). It reads each file once, at most the cap plus one byte, and "
            "copies the text only into the soul; the sha256 digests the notebook's diff and the session records use "
            "are computed when asked, so compose_soul pays none. toolnexus reads and decodes, then copies each body "
            "again to strip it and to format its section."
        )
        same = OURS in souls and "toolnexus" in souls and souls[OURS] == souls["toolnexus"] and len(souls[OURS]) == 1
        section.notes.append(
            f"{n} round(s). found: "
            + "; ".join(f"{bench.impls[k].label} {v}" for k, v in found.items())
            + (". Ours and toolnexus composed byte-identical souls." if same else ".")
        )
        for home in homes.values():
            shutil.rmtree(home, ignore_errors=True)
        return section


class HermesGate:
    """Not a measure of the issue: what hermes's tool entry adds on top of its store."""

    number = "i"
    title = "hermes: the approval gate left out of the timings"
    what = (
        "hermes's memory_tool() consults its write-approval gate before every action, and the gate reloads "
        "hermes's config each time. It is not memory work, so measures 1–3 drive hermes's MemoryStore directly; "
        "this shows what the gate would add to one add on a small file."
    )

    def run(self, bench: Bench) -> Section:
        section = Section(self.number, self.title, self.what)
        hermes = bench.impls.get("hermes")
        if not hermes or not hermes.available:
            section.pending = _unavailable(bench, "hermes")
            return section
        out = bench.drive(
            hermes, {"job": "gate", "home": str(bench.scratch("gate")), "repeats": 5 if bench.config.smoke else 40}
        )
        section.rows.append(
            Row(
                "i",
                "hermes add: memory_tool() with gate vs MemoryStore.add",
                {"hermes": f"{fmt_time(out['tool_median_s'])} vs {fmt_time(out['store_median_s'])}"},
            )
        )
        return section


MEASURES = [Throughput(), AddCost(), Safety(), Compose(), HermesGate()]
