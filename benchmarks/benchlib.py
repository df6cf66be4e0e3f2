"""What every benchmark module shares: the implementations, driving them, the figures.

A benchmark module exposes ``MEASURES``, a list of objects with ``number``,
``title``, ``what`` and ``run(bench) -> Section``. The runner calls them in
order and turns the sections into RESULTS.md, so a new measure plugs in by
appearing in a module's ``MEASURES``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DRIVER = HERE / "driver.py"

OURS = "ours"


@dataclass
class Impl:
    """One implementation and the interpreter that runs it."""

    name: str
    label: str
    python: Path | None
    version: str = "?"
    reason: str | None = None
    """Why it cannot be measured; None when it can."""

    @property
    def available(self) -> bool:
        return self.python is not None and self.reason is None


@dataclass
class Config:
    """Counts for one run; ``smoke`` keeps every loop to a few iterations."""

    smoke: bool
    rounds: int
    adds: int
    seeded: int
    edits: int
    cost_repeats: int
    small_bytes: int
    large_bytes: int
    workers: int
    worker_adds: int
    concurrency_rounds: int
    kill_trials: int
    kill_ops: int
    kill_window_s: float
    compose_repeats: int
    hermes_compose_repeats: int

    @classmethod
    def full(cls) -> Config:
        return cls(
            smoke=False,
            rounds=3,
            adds=2000,
            seeded=2000,
            edits=500,
            cost_repeats=30,
            small_bytes=1024,
            large_bytes=2 * 1024 * 1024,
            workers=8,
            worker_adds=200,
            concurrency_rounds=3,
            kill_trials=30,
            kill_ops=3000,
            kill_window_s=0.25,
            compose_repeats=20,
            hermes_compose_repeats=2,
        )

    @classmethod
    def smoke_test(cls) -> Config:
        return cls(
            smoke=True,
            rounds=1,
            adds=40,
            seeded=200,
            edits=10,
            cost_repeats=3,
            small_bytes=1024,
            large_bytes=2 * 1024 * 1024,
            workers=3,
            worker_adds=10,
            concurrency_rounds=1,
            kill_trials=2,
            kill_ops=300,
            kill_window_s=0.05,
            compose_repeats=2,
            hermes_compose_repeats=1,
        )


class DriverError(Exception):
    pass


@dataclass
class Bench:
    """Everything a measure needs: implementations, counts, a scratch folder."""

    impls: dict[str, Impl]
    config: Config
    work: Path
    facts: dict[str, Any] = field(default_factory=dict)
    """Figures one measure leaves for a later one (e.g. the cost of an fsync)."""
    log: Callable[[str], None] = print

    def available(self) -> list[Impl]:
        return [impl for impl in self.impls.values() if impl.available]

    def peers(self) -> list[Impl]:
        return [impl for impl in self.impls.values() if impl.name != OURS]

    def scratch(self, *parts: str) -> Path:
        path = self.work.joinpath(*parts)
        path.mkdir(parents=True, exist_ok=True)
        return path

    def command(self, impl: Impl, job: dict[str, Any]) -> list[str]:
        assert impl.python is not None
        return [str(impl.python), str(DRIVER), impl.name, json.dumps(job)]

    def environment(self) -> dict[str, str]:
        """The caller's environment without its Python settings, plus this checkout on the path.

        Ours is imported from the checkout the runner lives in, so a second
        worktree measures its own code, not the one the venv was installed from.
        """
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "HERMES_", "VIRTUAL_ENV"))}
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPATH"] = str(REPO)
        return env

    def drive(self, impl: Impl, job: dict[str, Any], timeout: float = 300.0) -> dict[str, Any]:
        """Run one job in the implementation's own interpreter; its RESULT."""
        try:
            done = subprocess.run(
                self.command(impl, job),
                capture_output=True,
                text=True,
                timeout=timeout,
                cwd=HERE,
                env=self.environment(),
            )
        except subprocess.TimeoutExpired:
            raise DriverError(f"{impl.name} {job['job']}: no answer within {timeout:.0f} s") from None
        return parse_result(impl, job, done.returncode, done.stdout, done.stderr)

    def spawn(self, impl: Impl, job: dict[str, Any]) -> subprocess.Popen[str]:
        return subprocess.Popen(
            self.command(impl, job),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=HERE,
            env=self.environment(),
        )


def parse_result(impl: Impl, job: dict[str, Any], code: int, stdout: str, stderr: str) -> dict[str, Any]:
    for line in reversed(stdout.splitlines()):
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT ") :])
    tail = "\n".join(stderr.strip().splitlines()[-6:])
    raise DriverError(f"{impl.name} {job['job']} failed (exit {code}): {tail}")


def rotated(items: list[Any], round_index: int) -> list[Any]:
    """The same items in another order each round, so none always goes first."""
    if not items:
        return items
    k = round_index % len(items)
    return items[k:] + items[:k]


# --------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------


def median(values: Iterable[float]) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def paired_ratios(ours: list[float | None], peer: list[float | None], *, higher_is_better: bool) -> list[float]:
    """Round-by-round speed ratios, > 1 meaning ours is faster.

    Only rounds where both ran count; each ratio compares two figures taken
    within the same round, moments apart, under the same load.
    """
    ratios = []
    for mine, theirs in zip(ours, peer, strict=False):
        if mine is None or theirs is None or mine <= 0 or theirs <= 0:
            continue
        ratios.append(mine / theirs if higher_is_better else theirs / mine)
    return ratios


def fmt_ratio(ratios: list[float]) -> str:
    if not ratios:
        return "—"
    mid = statistics.median(ratios)
    if len(ratios) == 1:
        return f"{mid:.2f}×"
    return f"{mid:.2f}× ({min(ratios):.2f}–{max(ratios):.2f})"


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def fmt_rate(ops: float | None) -> str:
    return "—" if ops is None else f"{ops:,.0f} ops/s"


def fmt_bytes(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.2f} MiB"
    if size >= 1024:
        return f"{size / 1024:.1f} KiB"
    return f"{size} B"


# --------------------------------------------------------------------------
# Sections of the results
# --------------------------------------------------------------------------


@dataclass
class Row:
    """One line of the results table."""

    measure: str
    what: str
    figures: dict[str, str]
    """Implementation name -> the figure shown (median, or a count)."""
    ratios: dict[str, str] = field(default_factory=dict)
    """Peer (or floor) name -> ``ours : that`` speed ratio, > 1 = ours faster."""


@dataclass
class Goal:
    text: str
    figure: str
    status: str
    """met, missed or pending."""
    reason: str = ""


@dataclass
class Section:
    number: str
    title: str
    what: str
    rows: list[Row] = field(default_factory=list)
    goals: list[Goal] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    pending: str | None = None
    """Set when the measure could not run yet: why."""
    seconds: float = 0.0
