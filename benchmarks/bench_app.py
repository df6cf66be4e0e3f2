"""Measures 5–8: the Textual app against Textual's own floor.

The app runs as a person runs it, ``persona-notebook HOME`` in a terminal: a
pseudo-terminal of 120 × 40 whose screen a terminal emulator (pyte, in the
harness venv ``benchmarks/.peers/apptools``) reads; see app_harness.py. The
floors run with our interpreter too (app_floor.py), so both sides use the
same Textual and watchfiles. Ratios here are TIMES, ours ÷ floor (or 2 MiB ÷
1 KiB), paired within a trial, then the median.

Measures 5-7 have two floors: "floor", the same screen written plainly with
stock Textual widgets (``app_floor.py plain``; the goals are held against it),
and "one Static", the bare app of the earlier goals, kept for the record.

When the app is missing or cannot be driven, each measure says so and its
goal stays pending: no figure here is ever estimated.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
from pathlib import Path
from typing import Any

import driver
from benchlib import HERE, OURS, REPO, Bench, DriverError, Goal, Row, Section, fmt_bytes, fmt_time, median

DEMO = REPO / "notebook_app" / "demo_home"
HARNESS = HERE / "app_harness.py"


def app_status(bench: Bench) -> str | None:
    """None when the app can be measured; otherwise why not (checked once per run)."""
    if "app_status" in bench.facts:
        return bench.facts["app_status"]
    why = _check(bench)
    bench.facts["app_status"] = why
    return why


def _check(bench: Bench) -> str | None:
    ours = bench.impls.get(OURS)
    if ours is None or ours.python is None:
        return "our interpreter is not available"
    if not (REPO / "notebook_app" / "app" / "app.py").is_file():
        return "the app is not built yet: notebook_app/app/app.py does not exist in this tree"
    if not DEMO.is_dir():
        return "the demo home (notebook_app/demo_home) is missing"
    probe = subprocess.run(
        [
            str(ours.python),
            "-c",
            "from notebook_app.app.launch import launch; from notebook_app.app.app import NotebookApp",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    if probe.returncode != 0:
        tail = probe.stderr.strip().splitlines()[-1:] or ["(no message)"]
        return f"the app does not import: {tail[0]}"
    tools = bench.facts.get("apptools")
    if tools is None or tools.error or tools.python is None:
        return "the harness venv (pyte) could not be built: " + (tools.error if tools and tools.error else "not built")
    return None


def harness(bench: Bench, job: dict[str, Any], timeout: float = 600) -> dict[str, Any]:
    """Run one job of app_harness.py in the harness venv."""
    tools = bench.facts["apptools"]
    job = {**job, "ours_python": str(bench.impls[OURS].python), "timeout": 90}
    try:
        done = subprocess.run(
            [str(tools.python), str(HARNESS), json.dumps(job)],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=HERE,
            env=bench.environment(),
        )
    except subprocess.TimeoutExpired:
        raise DriverError(f"app harness {job['job']}: no answer within {timeout:.0f} s") from None
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("RESULT "):
            result = json.loads(line[len("RESULT ") :])
            if "error" in result:
                raise DriverError(result["error"])
            return result
    tail = "\n".join(done.stderr.strip().splitlines()[-6:])
    raise DriverError(f"app harness {job['job']} failed (exit {done.returncode}): {tail}")


def home(bench: Bench, name: str, memory_bytes: int | None = None) -> Path:
    """A copy of the demo home; MEMORY.md replaced by one of ``memory_bytes`` when given."""
    path = bench.work / "app-homes" / name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    for item in DEMO.iterdir():
        if item.suffix == ".md":
            shutil.copyfile(item, path / item.name)
    if memory_bytes is not None:
        driver.seed("ours", path, driver.entries_for_size("base", memory_bytes))
    return path


def time_ratio(ours: list[float], floor: list[float]) -> list[float]:
    return [a / b for a, b in zip(ours, floor, strict=True) if a > 0 and b > 0]


def fmt_times(ratios: list[float]) -> str:
    if not ratios:
        return "—"
    mid = statistics.median(ratios)
    return f"{mid:.2f}×" if len(ratios) == 1 else f"{mid:.2f}× ({min(ratios):.2f}–{max(ratios):.2f})"


PLAIN_GOAL = 1.2
"""Ours ÷ the plain stock-widget floor, at most (measures 5-7)."""


def plain_goal(section: Section, text: str, ratios: list[float], gap: str) -> None:
    """The goal against the plain floor: met at ≤ PLAIN_GOAL, else missed with ``gap`` (where the time goes)."""
    ratio = median(ratios)
    if ratio is None:
        section.goals.append(Goal(text, "—", "missed", "no paired figures"))
    elif ratio <= PLAIN_GOAL:
        section.goals.append(Goal(text, f"{ratio:.2f}×", "met"))
    else:
        section.goals.append(Goal(text, f"{ratio:.2f}×", "missed", gap))


class _AppMeasure:
    number = "?"
    title = ""
    what = ""
    goal: str | None = None

    def run(self, bench: Bench) -> Section:
        section = Section(self.number, self.title, self.what.format(**self.counts(bench)))
        why = app_status(bench)
        if why is None:
            try:
                self.measure(bench, section)
                return section
            except DriverError as error:
                text = str(error)
                first, _, screen = text.partition("\n")
                why = f"FAILED in this run: {first}"
                if screen:
                    section.notes.append("The screen when it gave up:\n\n```\n" + screen.rstrip() + "\n```")
        section.pending = why
        if self.goal:
            section.goals.append(Goal(self.goal, "—", "pending", why))
        return section

    def counts(self, bench: Bench) -> dict[str, Any]:
        return {}

    def measure(self, bench: Bench, section: Section) -> None:
        raise NotImplementedError


class AppStart(_AppMeasure):
    number = "5"
    title = "App start to first full paint"
    what = (
        "From process start (spawn of `persona-notebook HOME` on a copy of the demo home) to the arrival of the "
        "terminal output after which the screen shows every pane filled: the home's files listed with MEMORY.md's "
        "size, and both the Current and the Next session souls. The floor: the same screen written plainly with "
        "stock Textual widgets (`app_floor.py plain`), judged painted by the same test; one Static: a bare "
        "Textual app showing one Static. Both spawned with the same interpreter. {repeats} of each, in turn; "
        "ratio = ours ÷ floor per round."
    )
    goal = f"App start ≤ {PLAIN_GOAL}× the same screen in stock Textual widgets"

    def counts(self, bench: Bench) -> dict[str, Any]:
        return {"repeats": 1 if bench.config.smoke else 8}

    def measure(self, bench: Bench, section: Section) -> None:
        repeats = self.counts(bench)["repeats"]
        out = harness(bench, {"job": "start", "home": str(home(bench, "demo")), "repeats": repeats})
        ratios = time_ratio(out["app_s"], out["plain_s"])
        section.rows.append(
            Row(
                "5",
                "start to first full paint, demo home",
                {
                    "ours": fmt_time(median(out["app_s"])),
                    "floor": fmt_time(median(out["plain_s"])),
                    "one Static": fmt_time(median(out["floor_s"])),
                },
                {"floor": fmt_times(ratios), "one Static": fmt_times(time_ratio(out["app_s"], out["floor_s"]))},
            )
        )
        extra = (median(out["app_s"]) or 0) - (median(out["plain_s"]) or 0)
        plain_goal(
            section,
            self.goal,
            ratios,
            f"Ours needs {fmt_time(extra)} more than the stock screen. Both pay Textual's import and start-up; "
            "ours adds its own imports (the model, the core's read half, the themes' tomllib), more CSS to parse, "
            "56 widgets to style against the floor's 20, and three panes of wrapped, numbered text to lay out "
            "(the floor's Logs neither wrap nor number). Callgrind and the cuts so far: docs/benchmarks history "
            "in git (bench_app.py before issue 20).",
        )


class ExternalWrite(_AppMeasure):
    number = "6"
    title = "External write → visible in the Next-session preview"
    what = (
        "Another process appends a line to MEMORY.md of the demo home while the app runs. Two end points: the "
        "preview reacts (first repaint of the Next-session pane's head, where its change count is) and the line "
        "itself is on screen in that pane. Floor: raw watchfiles, awatch(debounce=50, step=10) on a copy of the "
        "home (the app's own settings), from the write to its notification. {trials} trials, app and floor "
        "alternating; after each app trial the file is cut back (untimed) until the preview is in sync again."
    )
    goal = f"External write to screen ≤ {PLAIN_GOAL}× the same screen in stock Textual widgets"

    def counts(self, bench: Bench) -> dict[str, Any]:
        return {"trials": 2 if bench.config.smoke else 20}

    def measure(self, bench: Bench, section: Section) -> None:
        trials = self.counts(bench)["trials"]
        out = harness(
            bench,
            {
                "job": "external",
                "home": str(home(bench, "external")),
                "floor_home": str(home(bench, "floor")),
                "plain_home": str(home(bench, "plain")),
                "trials": trials,
            },
        )
        static = fmt_time(median(out["floor_s"]))
        shown = time_ratio(out["shown_s"], out["plain_shown_s"])
        section.rows.append(
            Row(
                "6 shown",
                "outside write → the line on screen in the preview",
                {
                    "ours": fmt_time(median(out["shown_s"])),
                    "floor": fmt_time(median(out["plain_shown_s"])),
                    "one Static": static,
                },
                {"floor": fmt_times(shown), "one Static": fmt_times(time_ratio(out["shown_s"], out["floor_s"]))},
            )
        )
        section.rows.append(
            Row(
                "6 reacted",
                "outside write → the preview's head repainted",
                {
                    "ours": fmt_time(median(out["reacted_s"])),
                    "floor": fmt_time(median(out["plain_reacted_s"])),
                    "one Static": static,
                },
                {
                    "floor": fmt_times(time_ratio(out["reacted_s"], out["plain_reacted_s"])),
                    "one Static": fmt_times(time_ratio(out["reacted_s"], out["floor_s"])),
                },
            )
        )
        gap = (median(out["shown_s"]) or 0) - (median(out["plain_shown_s"]) or 0)
        plain_goal(
            section,
            self.goal,
            shown,
            f"Ours takes {fmt_time(gap)} more than the stock screen. Both wait for the same watchfiles notification "
            "(the one-Static column); after it ours hashes the file to tell its own writes apart, reads, composes "
            "and diffs the home in a worker, and Textual renders every widget across each repainted row, so "
            "wrapped Next scrolling to the new line costs a good part of a frame.",
        )


FORM_ADD_GAP = (
    "Enter reaches the form, the write (lock, journal, fsync, history record) and the read after it run in a "
    "worker, back on the loop 6-8 ms later; then one frame repaints the form's rows, the file list, Next's head "
    "and MEMORY.md's pane. The floor appends with a plain open() and no fsync, on the loop. On 2 MiB the "
    "trial's cut-back is an outside write, so our add first records it in the history (about 14 ms, measure 2 "
    "'first')."
)


class FormAdd(_AppMeasure):
    number = "7"
    title = "An add through the form → file pane and preview updated"
    what = (
        "Two apps run side by side on copies of the demo home whose MEMORY.md is {small} and {large}. In each, "
        "'a' opens the form and the text is typed; once its dry run shows, enter is pressed and the clock starts. "
        "Done at the output after which, in one frame, the form has closed, the file pane shows MEMORY.md's new "
        "size and the Next-session pane's head has changed from the dry run's. {trials} adds per home, the two "
        "homes taking turns; after each, MEMORY.md is cut back (untimed) until the preview is in sync. The floor: the "
        "same screen written plainly with stock Textual widgets (`app_floor.py plain`) on copies of the same two "
        "homes, whose Input appends its text to MEMORY.md on enter and repaints every pane, typed and timed the "
        "same way, done when MEMORY.md's size and Next's head have changed. One Static: a bare Textual app whose "
        "Input puts its text in a Static on enter."
    )
    goal = "Form add with 2 MiB ≤ 3× the same with 1 KiB"

    def counts(self, bench: Bench) -> dict[str, Any]:
        cfg = bench.config
        return {
            "small": fmt_bytes(cfg.small_bytes),
            "large": fmt_bytes(cfg.large_bytes),
            "trials": 1 if cfg.smoke else 10,
        }

    def measure(self, bench: Bench, section: Section) -> None:
        cfg = bench.config
        trials = self.counts(bench)["trials"]
        out = harness(
            bench,
            {
                "job": "form_add",
                "small_home": str(home(bench, "form-small", cfg.small_bytes)),
                "large_home": str(home(bench, "form-large", cfg.large_bytes)),
                "plain_small_home": str(home(bench, "plain-small", cfg.small_bytes)),
                "plain_large_home": str(home(bench, "plain-large", cfg.large_bytes)),
                "trials": trials,
            },
        )
        growth = time_ratio(out["large_s"], out["small_s"])
        static = out.get("floor_s") or []
        for label, size in (("small", cfg.small_bytes), ("large", cfg.large_bytes)):
            ours, plain = out[f"{label}_s"], out[f"plain_{label}_s"]
            ratios = time_ratio(ours, plain)
            section.rows.append(
                Row(
                    f"7 {label}",
                    f"form add, MEMORY.md {fmt_bytes(size)}",
                    {
                        "ours": fmt_time(median(ours)),
                        "floor": fmt_time(median(plain)),
                        "one Static": fmt_time(median(static)) if static else "—",
                    },
                    {"floor": fmt_times(ratios), "one Static": fmt_times(time_ratio(ours, static)) if static else "—"},
                )
            )
            text = f"Form add on {fmt_bytes(size)} ≤ {PLAIN_GOAL}× the same screen in stock Textual widgets"
            plain_goal(section, text, ratios, FORM_ADD_GAP)
        section.rows.append(Row("7 growth", "2 MiB ÷ 1 KiB, paired by trial", {"ours": fmt_times(growth)}))
        ratio = median(growth)
        if ratio is None:
            section.goals.append(Goal(self.goal, "—", "missed", "no paired figures"))
        elif ratio <= 3:
            section.goals.append(Goal(self.goal, f"{ratio:.2f}×", "met"))
        else:
            section.goals.append(
                Goal(
                    self.goal,
                    f"{ratio:.2f}×",
                    "missed",
                    "after the write the app re-reads and re-composes the whole home and diffs and repaints it; "
                    "with a 2 MiB MEMORY.md that work grows with the file (the appended lines alone are now "
                    "decoded, split and wrapped; the read, compose and diff still pass over the file).",
                )
            )


class PeakRSS(_AppMeasure):
    number = "8"
    title = "Peak memory (RSS) of the app"
    goal = "App RSS with a 200 MiB MEMORY.md ≤ 2× its RSS with a 2 MiB one"
    what = (
        "Peak resident set (VmHWM) of the app process once fully painted and idle for one second, on a copy of "
        "the demo home, on one whose MEMORY.md is {large}, and on one whose MEMORY.md is {huge} (far over the "
        "cap: the app reads only the cap and a margin); median of {repeats} starts each. The bare Textual "
        "floor's is shown beside it for scale, and the {huge} home's against the {large} one's."
    )

    def counts(self, bench: Bench) -> dict[str, Any]:
        return {
            "large": fmt_bytes(bench.config.large_bytes),
            "huge": fmt_bytes(self.huge_bytes(bench)),
            "repeats": 1 if bench.config.smoke else 3,
        }

    @staticmethod
    def huge_bytes(bench: Bench) -> int:
        return (20 if bench.config.smoke else 200) * 1024 * 1024

    def huge_home(self, bench: Bench) -> Path:
        """The demo with a MEMORY.md of :meth:`huge_bytes`, written in 2 MiB blocks of entries."""
        path = home(bench, "rss-huge")
        block = "".join(f"- entry {i:07d}: a line to fill a very large memory file\n" for i in range(36_000)).encode()
        with open(path / "MEMORY.md", "wb") as out:
            left = self.huge_bytes(bench)
            while left > 0:
                out.write(block[:left])
                left -= len(block)
        return path

    def measure(self, bench: Bench, section: Section) -> None:
        repeats = self.counts(bench)["repeats"]
        peaks: dict[str, float] = {}
        for key, label, path in (
            ("demo", "demo home", home(bench, "rss-demo")),
            (
                "large",
                f"MEMORY.md {fmt_bytes(bench.config.large_bytes)}",
                home(bench, "rss-large", bench.config.large_bytes),
            ),
            ("huge", f"MEMORY.md {fmt_bytes(self.huge_bytes(bench))}", self.huge_home(bench)),
        ):
            out = harness(bench, {"job": "rss", "home": str(path), "repeats": repeats, "settle": 1.0})
            peaks[key] = statistics.median(out["app_kib"])
            ratios = {"one Static": f"{peaks[key] / out['floor_kib']:.2f}×"}
            if key == "huge":
                ratios["large"] = f"{peaks['huge'] / peaks['large']:.2f}×"
            section.rows.append(
                Row(
                    "8",
                    f"peak RSS, {label}",
                    {
                        "ours": f"{peaks[key] / 1024:.1f} MiB",
                        "one Static": f"{out['floor_kib'] / 1024:.1f} MiB",
                    },
                    ratios,
                )
            )
        growth = peaks["huge"] / peaks["large"]
        if bench.config.smoke:
            section.goals.append(Goal(self.goal, f"{growth:.2f}×", "pending", "a smoke run uses 20 MiB, not 200 MiB"))
        else:
            section.goals.append(Goal(self.goal, f"{growth:.2f}×", "met" if growth <= 2 else "missed"))


MEASURES = [AppStart(), ExternalWrite(), FormAdd(), PeakRSS()]
