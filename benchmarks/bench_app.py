"""Measures 5–8: the Textual app against Textual's own floor.

The app runs as a person runs it, ``persona-notebook HOME`` in a terminal: a
pseudo-terminal of 120 × 40 whose screen a terminal emulator (pyte, in the
harness venv ``benchmarks/.peers/apptools``) reads; see app_harness.py. The
floors run with our interpreter too (app_floor.py), so both sides use the
same Textual and watchfiles. Ratios here are TIMES, ours ÷ floor (or 2 MiB ÷
1 KiB), paired within a trial, then the median.

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
        [str(ours.python), "-c", "from notebook_app.app import launch; from notebook_app.app.app import NotebookApp"],
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
        "size, and both the Current and the Next session souls. The floor: a bare Textual app showing one Static, "
        "spawned with the same interpreter and timed to the output that shows its text. {repeats} of each, "
        "alternating; ratio = ours ÷ floor per pair."
    )
    goal = "App start ≤ 1.5× the bare-Textual floor"

    def counts(self, bench: Bench) -> dict[str, Any]:
        return {"repeats": 1 if bench.config.smoke else 8}

    def measure(self, bench: Bench, section: Section) -> None:
        repeats = self.counts(bench)["repeats"]
        out = harness(bench, {"job": "start", "home": str(home(bench, "demo")), "repeats": repeats})
        ratios = time_ratio(out["app_s"], out["floor_s"])
        section.rows.append(
            Row(
                "5",
                "start to first full paint, demo home",
                {"ours": fmt_time(median(out["app_s"])), "floor": fmt_time(median(out["floor_s"]))},
                {"floor": fmt_times(ratios)},
            )
        )
        ratio = median(ratios)
        if ratio is None:
            section.goals.append(Goal(self.goal, "—", "missed", "no paired figures"))
        elif ratio <= 1.5:
            section.goals.append(Goal(self.goal, f"{ratio:.2f}×", "met"))
        else:
            extra = median(out["app_s"]) - median(out["floor_s"])
            section.goals.append(
                Goal(
                    self.goal,
                    f"{ratio:.2f}×",
                    "missed",
                    f"ours needs {fmt_time(extra)} more than the floor. Where it goes, measured in a pty "
                    "(python -X importtime, cProfile, the time and size of each frame's output): Textual's "
                    "driver starts 20-30 ms later than the floor's, after about 50 ms (under -X importtime) of "
                    "imports one Static does not need (the app's model and widgets, the core with its hashing and "
                    "json, argparse for the command line, tomllib for the themes); then 45-60 ms pass before the "
                    "screen's first output, its pointer shape (the floor: 7-12 ms), among them Textual parsing the "
                    "app's and its widgets' CSS (14-23 ms in-process, once), and 65-100 ms more to the first frame "
                    "(the floor: 10-20 ms): composing, styling (Textual applies the stylesheet node by node) "
                    "and the first layout and render of three panes of wrapped text, the file list and the "
                    "header. The harness sees the full paint within the first 8 KB of that frame, so its size "
                    "(about 30 KB) matters little. Already cut: the main screen is the default screen, so its "
                    "first frame is the full home (pushed from on_mount it was rendered inside Textual's start-up "
                    "batch and thrown away); the home is read in a thread while Textual loads; the agent-sessions "
                    "view loads on first use; one Strip per row; the theme is applied before the stylesheet is "
                    "first parsed (it was parsed again and every widget restyled); watchfiles and anyio load when "
                    "the watch starts; the footer's keys already come after the first frame; the core and the "
                    "CLI's verbs load their modules on first use (the doctor, history, review and host modules "
                    "no longer load with the app: imports 1.39 -> 1.21 G instructions under callgrind, Textual's "
                    "own 0.86 G); the entries are focused first (Textual focused the file list, then on_mount the "
                    "entries: each focus restyles the Home column, whose :focus-within walks its three file panes "
                    "and each LineView's twelve component classes); the cycle collector skips what the imports "
                    "made (gc.freeze); Textual's restyle of every widget when a screen is first shown, right "
                    "after each was styled as it mounted, is skipped (KeyedScreen; it doubled the stylesheet's "
                    "work at start); :focus-within, which made Textual restyle the whole Home column at each "
                    "focus move, is a class the screen sets on the panes around the focus and restyles them alone "
                    "(FocusWithin); the watchers, which load anyio, are made after the first frame; the built-in "
                    "editor's buffer (Textual's TextArea and tree-sitter) loads when E is used; opening a home "
                    "loads only the core's read half (core.reading: the lock taken shared, the journal's slot 0, "
                    "the bookkeeping names), while the write path (storage, recording, the event log, the journal's "
                    "writer slots, the memory tool, the splice, the hand edit and its merge) loads with the first "
                    "write, the tool's planner with the first dry run and the matcher with the first search "
                    "(tests/app/test_start_imports.py holds that); the shipped themes' palettes are built by the "
                    "tests, not at each start; a character class with ranges up to U+3FFFF compiles when first "
                    "needed; importlib.resources loads only for the demo. Under callgrind (in a pty, 120x40, "
                    "process start to the end of the first frame that shows the home, with the bytecode compiled "
                    "as an install has it) the start went 1.80 -> 1.64 G instructions, the floor's is 0.88 G, most "
                    "of it importing Textual; without __pycache__ (a fresh checkout, which this harness measured "
                    "until it compiled first) ours was 2.33 G. What is left of ours: imports, about 0.22 G, mostly "
                    "building classes (each of the 28 dataclasses that load with the app costs some 3 M "
                    "instructions: Python 3.11 compiles every generated method from source; then the widget and "
                    "screen classes), Textual widgets the floor does not use (Header, Footer, Label: 19 M) and "
                    "tomllib for the themes; and about 0.5 G of start-up work: App.__init__, parsing the app's "
                    "TCSS, styling 56 widgets (the line views' component classes), the first layout and render of "
                    "three panes. What would narrow it: composing the hidden memory form and find bar (14 of the "
                    "56 nodes) after the first paint, which needs every use of them to wait for their widgets; "
                    "fewer widgets per row (each container's rows are rendered and cut at every widget edge on the "
                    "row). Textual's own import is most of the floor itself, and its start-up (driver, stylesheet, "
                    "first layout) is paid by any Textual app with three panes, so 1.5x one Static is not in reach "
                    "by trimming the app alone.",
                )
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
    goal = "External write to screen ≤ 1.5× the watchfiles floor"

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
                "trials": trials,
            },
        )
        floor = fmt_time(median(out["floor_s"]))
        shown = time_ratio(out["shown_s"], out["floor_s"])
        section.rows.append(
            Row(
                "6 shown",
                "outside write → the line on screen in the preview",
                {"ours": fmt_time(median(out["shown_s"])), "floor": floor},
                {"floor": fmt_times(shown)},
            )
        )
        section.rows.append(
            Row(
                "6 reacted",
                "outside write → the preview's head repainted",
                {"ours": fmt_time(median(out["reacted_s"])), "floor": floor},
                {"floor": fmt_times(time_ratio(out["reacted_s"], out["floor_s"]))},
            )
        )
        ratio = median(shown)
        if ratio is None:
            section.goals.append(Goal(self.goal, "—", "missed", "no paired figures"))
        elif ratio <= 1.5:
            section.goals.append(Goal(self.goal, f"{ratio:.2f}×", "met"))
        else:
            gap = median(out["shown_s"]) - median(out["floor_s"])
            section.goals.append(
                Goal(
                    self.goal,
                    f"{ratio:.2f}×",
                    "missed",
                    f"The notification itself is the floor ({floor}); after it the app spends about "
                    f"{fmt_time(gap)} more. Measured in a pty on the demo home: telling its own writes apart "
                    "(hashing the file) 0.3 ms, the worker's read, compose and diff 1.5-2 ms, applying the new "
                    "state to the widgets 3-4 ms, then Textual's layout and render of what changed, about 20 ms: "
                    "the file list, the file summary, the file pane and the Next pane, scrolled to the new line "
                    "(about 9 KB of terminal output), which the terminal and its emulator then read. Already "
                    "cut: only labels, rows and panes that changed are updated, and a layout is asked for only "
                    "when a size can change (13 KB -> 9 KB per write); the soul and file views repaint only the "
                    "rows whose look changed and set their scrollable height without Textual's whole-view "
                    "repaint and layout, and no longer repaint their scrollbars at each layout (the last stop's "
                    "run: 3.99x). A 1.5x budget is 8 ms for all of that; what is left is mostly Next scrolling "
                    "to the new line, which moves every row of it, and Textual renders every widget across each "
                    "repainted row of the screen, so the goal cannot be met by trimming the app's own steps.",
                )
            )


FORM_ADD_GAP = (
    "The floor repaints one Static. Measured in a pty with timestamps inside the app (demo home, 120x40): "
    "enter reaches the form and the write and the read after it run in a worker, back on the loop 6-8 ms "
    "after enter (1-2 ms of that is the write and the read; the rest is key dispatch and the hops to the "
    "thread and back); applying the new state to the widgets takes 4 ms; then, once Textual's update timer "
    "fires, one frame: layout 2 ms and the render of 21 of the 40 rows 7-8 ms (8 KB of output): the form's "
    "rows, the file list, Next's head and MEMORY.md's pane. Textual renders every widget across each "
    "repainted row of the screen, so a result that touches rows in three columns costs a good part of a "
    "frame. Already cut: the form lies over the panes' last rows in a layer of its own, so opening or "
    "closing it resizes no pane (it was a full layout and repaint of the screen in two to three frames, "
    "34 KB of output each); focus in the form keeps the panes' focus marks, so closing it restyles no pane "
    "border; the soul and file views (one base, RowView) repaint only the rows whose look changed, set "
    "their scrollable height without Textual's whole-view repaint and layout, redraw their scrollbars only "
    "when a size changes (Textual redrew every one at each layout), and move focus without a restyle of "
    "their component classes or a whole-view repaint; Next, scrolled to its end above the form, keeps its "
    "scrollable height for 0.25 s after the form closes instead of moving every row in the result's "
    "frame; a file pane sets its border title only when it changes; the written state is presented once; "
    "the toast and the footer's keys wait 0.1 s (the toast's mount had delayed the frame with the heads by "
    "12-15 ms); the soul diff splits two texts only from their first differing line (write and read on "
    "2 MiB 29 -> 9 ms); earlier cuts stay (the doctor waits for 0.3 s of quiet, the cycle collector skips "
    "what the imports made, on 2 MiB only the appended lines are decoded, split and wrapped). On 2 MiB the "
    "trial's cut-back is an outside write, so the add first records it in the history (the file hashed "
    "and its last recorded state rebuilt from a snapshot, about 14 ms in the core, measure 2 'first'). "
    "What would narrow it further: the file list repainting only its changed row (Textual's OptionList "
    "re-renders every option), hashing the same bytes once when an outside change is recorded, fewer "
    "message hops between enter and the write. Within 2x of a one-Static repaint, about 10 ms for the "
    "write, its read and a frame that touches half the screen's rows, is not in reach with Textual's "
    "row-wide rendering."
)


class FormAdd(_AppMeasure):
    number = "7"
    title = "An add through the form → file pane and preview updated"
    what = (
        "Two apps run side by side on copies of the demo home whose MEMORY.md is {small} and {large}. In each, 'a' "
        "opens the form and the text is typed; once its dry run shows, enter is pressed and the clock starts. Done "
        "at the output after which, in one frame, the form has closed, the file pane shows MEMORY.md's new size and "
        "the Next-session pane's head has changed from the dry run's. {trials} adds per home, the two homes taking "
        "turns; after each, MEMORY.md is cut back (untimed) until the preview is in sync. The floor: a bare Textual "
        "app (our interpreter) whose Input puts its text in a Static on enter, typed and timed the same way."
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
                "trials": trials,
            },
        )
        growth = time_ratio(out["large_s"], out["small_s"])
        floor = out.get("floor_s") or []
        small_ratio = time_ratio(out["small_s"], floor) if floor else []
        large_ratio = time_ratio(out["large_s"], floor) if floor else []
        section.rows.append(
            Row(
                "7 small",
                f"form add, MEMORY.md {fmt_bytes(cfg.small_bytes)}",
                {"ours": fmt_time(median(out["small_s"])), "floor": fmt_time(median(floor)) if floor else "—"},
                {"floor": fmt_times(small_ratio)} if floor else {},
            )
        )
        section.rows.append(
            Row(
                "7 large",
                f"form add, MEMORY.md {fmt_bytes(cfg.large_bytes)}",
                {"ours": fmt_time(median(out["large_s"])), "floor": fmt_time(median(floor)) if floor else "—"},
                {"floor": fmt_times(large_ratio)} if floor else {},
            )
        )
        section.rows.append(Row("7 growth", "2 MiB ÷ 1 KiB, paired by trial", {"ours": fmt_times(growth)}))
        for label, ratios in (("1 KiB", small_ratio), ("2 MiB", large_ratio)):
            value = median(ratios)
            goal = f"Form add on {label} ≤ 2× a bare Textual app repainting one widget on enter (issue 9)"
            if value is None:
                section.goals.append(Goal(goal, "—", "pending", "no paired floor figures"))
            else:
                section.goals.append(Goal(goal, f"{value:.2f}×", "met" if value <= 2 else "missed", "" if value <= 2 else FORM_ADD_GAP))
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
            ("large", f"MEMORY.md {fmt_bytes(bench.config.large_bytes)}", home(bench, "rss-large", bench.config.large_bytes)),
            ("huge", f"MEMORY.md {fmt_bytes(self.huge_bytes(bench))}", self.huge_home(bench)),
        ):
            out = harness(bench, {"job": "rss", "home": str(path), "repeats": repeats, "settle": 1.0})
            peaks[key] = statistics.median(out["app_kib"])
            ratios = {"floor": f"{peaks[key] / out['floor_kib']:.2f}×"}
            if key == "huge":
                ratios["large"] = f"{peaks['huge'] / peaks['large']:.2f}×"
            section.rows.append(
                Row(
                    "8",
                    f"peak RSS, {label}",
                    {
                        "ours": f"{peaks[key] / 1024:.1f} MiB",
                        "floor": f"{out['floor_kib'] / 1024:.1f} MiB",
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
