#!/usr/bin/env python3
"""Run every benchmark, ours beside the peers, and write RESULTS.md.

    .venv/bin/python benchmarks/run.py            # full run -> benchmarks/RESULTS.md
    .venv/bin/python benchmarks/run.py --smoke    # a few iterations -> a temp folder
    .venv/bin/python benchmarks/run.py --only 5,6 --out /tmp/app.md   # some measures only

The runner builds each peer's venv under benchmarks/.peers/ (reused once
built), then runs the measures of every benchmark module in turn. See
benchmarks/README.md for what each measure means.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_app  # noqa: E402
import bench_core  # noqa: E402
import bench_doctor  # noqa: E402
import bench_edit  # noqa: E402
import bench_find  # noqa: E402
import bench_git  # noqa: E402
import bench_history  # noqa: E402
import bench_review  # noqa: E402
import bench_tidy  # noqa: E402
from benchlib import HERE, OURS, REPO, Bench, Config, DriverError, Impl, Section  # noqa: E402
from peers import PEERS, TOOLS, PeerEnv, ensure_peer  # noqa: E402

RESULTS = HERE / "RESULTS.md"
MODULES = [
    # module, heading, columns, ratio column header ({peer}: the peer's label)
    (
        bench_core,
        "Core: the memory tool and compose_soul (measures 1–4)",
        ["ours", "toolnexus", "hermes"],
        "ours : {peer} (speed)",
    ),
    (
        bench_app,
        "App: the notebook against the same screen in stock Textual widgets, and one Static (measures 5–8)",
        ["ours", "floor", "one Static"],
        "time, ours ÷ {peer}",
    ),
    (
        bench_git,
        "Git: measures 1 and 2 with the home's git on, beside git off (issue 26)",
        ["git off", "git on"],
        "{peer} : git off (speed)",
    ),
    (
        bench_doctor,
        "Doctor: every rule on a large home (measure 9)",
        ["ours"],
        "",
    ),
    (
        bench_history,
        "History: recording every write, listing, blame (measures 10–12)",
        ["ours", "before"],
        "ours : {peer} (speed)",
    ),
    (
        bench_review,
        "Review: an agent's proposal to the notebook's review view (measure 13)",
        ["ours", "floor"],
        "time, ours ÷ {peer}",
    ),
    (
        bench_find,
        "Find: one keystroke on a 2 MiB home, against a bare Textual app's keystroke (measure 14)",
        ["ours", "floor"],
        "time, ours ÷ {peer}",
    ),
    (
        bench_edit,
        "Editing a whole file: the built-in editor's save (measure 15)",
        ["ours"],
        "",
    ),
    (
        bench_tidy,
        "Tidy: the proposal on a 2 MiB MEMORY.md, its near-duplicate search against all pairs (measure 17)",
        ["ours", "naive"],
        "time, naive ÷ ours",
    ),
]


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="a few iterations of everything; output to a temp folder")
    parser.add_argument(
        "--out", type=Path, help="where to write the results (default: RESULTS.md, or a temp file with --smoke)"
    )
    parser.add_argument(
        "--peers",
        choices=("build", "off"),
        default=os.environ.get("PERSONA_BENCH_PEERS", "build"),
        help="build (or reuse) the peers' venvs, or measure ours only (default: build; env PERSONA_BENCH_PEERS)",
    )
    parser.add_argument(
        "--only",
        type=lambda text: {part.strip() for part in text.split(",") if part.strip()},
        help="run only these measures, by number (e.g. 5,6,7); needs --out: a partial run never writes RESULTS.md",
    )
    parser.add_argument("--peers-dir", type=Path, default=HERE / ".peers", help="where the peers' venvs live")
    parser.add_argument("--ours-python", type=Path, help="our interpreter (default: the project's .venv)")
    parser.add_argument("--install-timeout", type=float, default=600.0, help="seconds allowed to build one peer venv")
    return parser.parse_args(argv)


def our_python(args: argparse.Namespace) -> Path:
    if args.ours_python:
        return args.ours_python
    venv = REPO / ".venv" / "bin" / "python"
    return venv if venv.exists() else Path(sys.executable)


def setup(args: argparse.Namespace, config: Config, work: Path) -> tuple[Bench, dict[str, PeerEnv]]:
    impls = {OURS: Impl(OURS, "ours", our_python(args))}
    envs: dict[str, PeerEnv] = {}
    wanted = dict(TOOLS) | (dict(PEERS) if args.peers == "build" else {})
    log(f"building or reusing venvs in {args.peers_dir}: {', '.join(wanted)} …")
    with ThreadPoolExecutor(max_workers=len(wanted)) as pool:
        futures = {
            name: pool.submit(ensure_peer, name, spec, args.peers_dir, timeout=args.install_timeout)
            for name, spec in wanted.items()
        }
        envs = {name: future.result() for name, future in futures.items()}
    for name, spec in PEERS.items():
        env = envs.get(name)
        if env is None:
            impls[name] = Impl(name, spec, None, reason="not built: this run measured ours only (--peers off)")
        elif env.error:
            impls[name] = Impl(name, spec, None, reason=env.error)
        else:
            impls[name] = Impl(name, spec, env.python)
    bench = Bench(impls, config, work, log=log)
    bench.facts["apptools"] = envs.get("apptools")
    for impl in impls.values():
        if impl.python is None:
            log(f"{impl.name}: unavailable — {impl.reason}")
            continue
        try:
            info = bench.drive(impl, {"job": "info", "home": str(bench.scratch("info", impl.name))}, timeout=180)
        except DriverError as error:
            impl.reason = f"installed, but cannot be imported: {error}"
            log(f"{impl.name}: {impl.reason}")
            continue
        impl.version = info["version"]
        impl.label = "ours" if impl.name == OURS else f"{PEERS[impl.name].split('==')[0]} {impl.version}"
        log(f"{impl.name}: {impl.label} on Python {info['python']} ({impl.python})")
    return bench, envs


def run_measures(
    bench: Bench, only: set[str] | None = None
) -> tuple[list[tuple[object, str, list[str], list[Section]]], list[str]]:
    out, crashed = [], []
    for module, heading, columns, _ratio in MODULES:
        sections = []
        for measure in module.MEASURES:
            if only is not None and measure.number not in only:
                continue
            log(f"measure {measure.number}: {measure.title} …")
            started = time.monotonic()
            try:
                section = measure.run(bench)
            except Exception as error:  # one broken measure must not hide the others
                traceback.print_exc()
                crashed.append(f"{measure.number}: {error}")
                section = Section(measure.number, measure.title, measure.what, pending=f"FAILED in this run: {error}")
            section.seconds = time.monotonic() - started
            log(f"measure {measure.number} took {section.seconds:.1f} s")
            sections.append(section)
        out.append((module, heading, columns, sections))
    return out, crashed


# --------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------


def machine() -> list[str]:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return [
        f"CPU: {cpu}, {os.cpu_count()} cores",
        f"OS: {platform.system()} {platform.release()} ({platform.machine()})",
        f"Python: {platform.python_version()} ({platform.python_implementation()})",
    ]


def git_state() -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "notebook_app"], capture_output=True, text=True, cwd=REPO
        ).stdout.strip()
    except OSError:
        return "?"
    return head + (" with uncommitted changes in notebook_app/" if dirty else "")


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


NOTE_WIDTH = 110
NOTE_LINES = 5
"""A goal's note: one paragraph per measure, at most this many lines of NOTE_WIDTH characters."""


def goal_note(section: Section, reasons: list[str]) -> str:
    """``**N. title.**`` and the measure's reasons (a sentence said by two goals, once), wrapped; a note over
    NOTE_LINES lines is cut with a mark."""
    import re
    import textwrap

    ended = [reason.strip() if reason.strip()[-1:] in ".!?:" else reason.strip() + "." for reason in reasons]
    sentences = dict.fromkeys(part for reason in ended for part in re.split(r"(?<=[.;:]) (?=[A-Z])", reason))
    wrapped = textwrap.wrap(f"**{section.number}. {section.title}.** " + " ".join(sentences), NOTE_WIDTH)
    if len(wrapped) > NOTE_LINES:
        wrapped = wrapped[:NOTE_LINES]
        wrapped[-1] = wrapped[-1][: NOTE_WIDTH - 24] + " … (cut: over five lines)"
    return "\n".join(wrapped)


def render(  # noqa: C901 (one report, written top to bottom: each section a branch)
    bench: Bench,
    envs: dict[str, PeerEnv],
    results: list[tuple[object, str, list[str], list[Section]]],
    *,
    date: str,
    loads: tuple[str, str],
    total: float,
    smoke: bool,
) -> str:
    impls = bench.impls
    lines = ["# Benchmark results", ""]
    lines.append(
        f"Generated by `benchmarks/run.py{' --smoke' if smoke else ''}` on {date}. Do not edit by hand: run it again."
    )
    lines.append("")
    if smoke:
        lines += ["**SMOKE RUN: a few iterations of each measure, to prove they run. The figures mean nothing.**", ""]
    lines += ["## Machine", ""]
    lines += [f"- {item}" for item in machine()]
    lines.append(
        f"- Load average (1 min) at start / end: {loads[0]} / {loads[1]} "
        "— the machine is shared, so figures are noisy; read the ratios"
    )
    lines.append(f"- Ours: persona-notebook {impls[OURS].version}, commit {git_state()}")
    lines.append("")
    lines += [
        "## Implementations",
        "",
        "| implementation | version | environment | built in this run |",
        "|---|---|---|---|",
    ]
    for name, impl in impls.items():
        if name == OURS:
            lines.append(f"| ours | {impl.version} | `{_rel(impl.python)}` | — |")
            continue
        env = envs.get(name)
        if env is None:
            built = "no (--peers off)"
        elif env.error:
            built = "failed"
        elif env.built_seconds is None:
            built = "reused"
        else:
            built = f"{env.built_seconds:.0f} s"
        version = impl.version if impl.available else f"UNAVAILABLE: {cell(impl.reason or '')}"
        lines.append(f"| {PEERS[name]} | {version} | `{_rel(impl.python) if impl.python else '—'}` | {built} |")
    lines.append("")

    lines += ["## Results", ""]
    lines.append(
        "Figures are medians over rounds or trials. In the core table a ratio is ours : peer as a speed ratio "
        "(> 1 means ours is faster); in the app table it is a ratio of times, ours ÷ floor "
        "(≤ 1.2 is the goal for measures 5–7). "
        "Every ratio is formed within one round or trial, from figures taken moments apart, and the median is "
        "taken after; the range of the per-round ratios is in brackets."
    )
    lines.append("")
    for (_module, heading, columns, sections), (*_, ratio_head) in zip(results, MODULES, strict=True):
        label = {c: (impls[c].label if c in impls else c) for c in columns}
        peers = columns[1:]  # the first column is the one the others are compared with (ours, or git off)
        lines += [f"### {heading}", ""]
        head = ["#", "measure"] + [label[c] for c in columns] + [ratio_head.format(peer=label[p]) for p in peers]
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "---|" * len(head))
        for section in sections:
            if section.pending:
                blank = ["—"] * (len(columns) + len(peers))
                lines.append(
                    f"| {section.number} | {cell(section.title)}: **pending** — {cell(section.pending)} | "
                    + " | ".join(blank)
                    + " |"
                )
                continue
            for row in section.rows:
                figures = [cell(row.figures.get(c, "—")) for c in columns]
                ratios = [cell(row.ratios.get(p, "—")) for p in peers]
                lines.append(f"| {row.measure} | {cell(row.what)} | " + " | ".join(figures + ratios) + " |")
        lines.append("")

    lines += [
        "## Goals (from issue 5)",
        "",
        "| goal | measured | status | note |",
        "|---|---|---|---|",
    ]
    notes: list[str] = []
    for _module, _heading, _columns, sections in results:
        for section in sections:
            reasons = list(dict.fromkeys(goal.reason for goal in section.goals if goal.reason))
            for goal in section.goals:
                status = {"met": "met", "missed": "**missed**", "pending": "pending"}.get(goal.status, goal.status)
                note = f"note {section.number}" if goal.reason else ""
                lines.append(f"| {cell(goal.text)} | {cell(goal.figure)} | {status} | {note} |")
            if reasons:
                notes.append(goal_note(section, reasons))
    lines.append("")
    if notes:
        lines += ["### Notes on the goals: where the time goes", ""]
        for note in notes:
            lines += [note, ""]

    lines += ["## What each measure did", ""]
    for _module, _heading, _columns, sections in results:
        for section in sections:
            lines.append(f"**{section.number}. {section.title}** ({section.seconds:.0f} s). {section.what}")
            lines.append("")
            for note in section.notes:
                lines.append(f"- {note}")
            if section.notes:
                lines.append("")
    lines += ["## How the peers differ, and how they were driven", ""]
    lines += [f"- {item}" for item in DIFFERENCES]
    lines.append("")
    lines += ["## This run", ""]
    lines.append(f"- Wall time: {total:.0f} s in all, peer venvs included.")
    for name, env in envs.items():
        what = f"the {name} venv ({env.spec})"
        if env.error:
            lines.append(f"- Building {what} FAILED: {cell(env.error)}")
        elif env.built_seconds is not None:
            lines.append(f"- Building {what} took {env.built_seconds:.0f} s (the venvs are built in parallel).")
        else:
            lines.append(f"- {what[0].upper()}{what[1:]} was reused from an earlier run.")
    lines.append("- Command: `.venv/bin/python benchmarks/run.py" + (" --smoke`" if smoke else "`"))
    lines.append("")
    return "\n".join(lines)


DIFFERENCES = [
    "Each implementation runs in its own interpreter and venv: ours from the project's `.venv`, each peer from "
    "`benchmarks/.peers/<name>/` (toolnexus 0.21.0 needs `mcp<2`; hermes-agent pins its own libraries). The driver "
    "(`benchmarks/driver.py`) is the same file in every venv and uses only the standard library.",
    "ours: `memory_tool(home).call(args)` — the synchronous call; `execute` is the same call moved to a thread.",
    "toolnexus: `await memory_tool(home).execute(args)`. Its `execute` is a coroutine that does only blocking file "
    "work and never suspends, so the driver steps it once instead of going through an event loop: the call is the "
    "same, the loop's own overhead is not charged to it. Its replace and remove act on every occurrence "
    "(`str.replace`), ours on the first; the entries used are all distinct and none occurs inside another, so both "
    "do the same edit here. It reads, edits and rewrites the whole file with no lock and no fsync.",
    "hermes-agent: `tools/memory_tool.py`'s `MemoryStore` (`add(target, content)`, `replace(target, old_text, "
    "content)`, `remove(target, old_text)`), which its `memory_tool()` dispatches to after its approval gate. "
    "Entries are stored without a `- ` prefix, joined by `\\n§\\n`, in `$HERMES_HOME/memories/MEMORY.md`; every "
    "action takes an flock on `MEMORY.md.lock`, re-reads and re-parses the file, deduplicates, and rewrites the "
    "whole file through a temp file, fsync and rename. replace/remove take a substring that must identify one "
    "entry and swap or drop that whole entry, so the driver passes whole entries. Its per-file character limits "
    "(2,200 for MEMORY.md, 1,375 for USER.md) are raised to 10^12 so that load tests are not refused. Each new "
    "entry is scanned for prompt-injection patterns (part of its add, so part of its time). The approval gate, "
    "which reloads hermes's config on every call, is left out of the timings and shown separately (row i).",
    "ours: every action holds an flock on the home that every process using the core shares; an add records its "
    "intent in a journal, appends `- text` and a newline and fsyncs; a replace or remove rewrites via temp file, "
    "fsync, rename and an fsync of the directory. compose_soul reads under a shared lock.",
    "Files are compared byte for byte with what each implementation's own format says they should hold; the "
    "crash test reads the file raw right after the kill, before any later writer could repair it.",
]


def _rel(path: Path | None) -> str:
    if path is None:
        return "—"
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    config = Config.smoke_test() if args.smoke else Config.full()
    out = args.out
    if out is None:
        out = Path(tempfile.mkdtemp(prefix="persona-bench-smoke-")) / "RESULTS.md" if args.smoke else RESULTS
    if args.smoke and out.resolve() == RESULTS.resolve():
        print("a smoke run never overwrites benchmarks/RESULTS.md; pass another --out", file=sys.stderr)
        return 2
    if args.only is not None and (args.out is None or out.resolve() == RESULTS.resolve()):
        print(
            "a run of some measures (--only) never overwrites benchmarks/RESULTS.md; pass another --out",
            file=sys.stderr,
        )
        return 2
    started = time.monotonic()
    load_start = f"{os.getloadavg()[0]:.2f}"
    if args.smoke:
        work = Path(tempfile.mkdtemp(prefix="persona-bench-work-"))
    else:
        work = HERE / ".work" / f"run-{os.getpid()}"
        work.mkdir(parents=True, exist_ok=True)
    try:
        bench, envs = setup(args, config, work)
        if not bench.impls[OURS].available:
            print(
                f"cannot run our implementation with {bench.impls[OURS].python}: {bench.impls[OURS].reason}\n"
                "Create the project's venv first (`make test` does), or pass --ours-python.",
                file=sys.stderr,
            )
            return 1
        results, crashed = run_measures(bench, args.only)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    text = render(
        bench,
        envs,
        results,
        date=date,
        loads=(load_start, f"{os.getloadavg()[0]:.2f}"),
        total=time.monotonic() - started,
        smoke=args.smoke,
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    log(f"wrote {out} in {time.monotonic() - started:.0f} s")
    print(out)
    if crashed:
        log("measures that failed: " + "; ".join(crashed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
