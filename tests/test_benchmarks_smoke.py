"""The benchmarks still run: benchmarks/run.py --smoke, end to end, in a subprocess.

This checks that every measure runs and reports, never how fast anything is.
It measures ours only (``--peers off``): the peers' venvs are hundreds of MB
from the package index, which ``make bench`` builds and ``make test`` must
not. Only the small harness venv (pyte) is built or reused; when it cannot
be, the app measures say why and the test still checks the rest.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RUNNER = REPO / "benchmarks" / "run.py"
RESULTS = REPO / "benchmarks" / "RESULTS.md"


def _digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


def test_smoke_run_completes_and_reports_every_measure(tmp_path: Path) -> None:
    out = tmp_path / "RESULTS.md"
    committed = _digest(RESULTS)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run(
        [sys.executable, str(RUNNER), "--smoke", "--out", str(out), "--peers", "off", "--install-timeout", "420"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=1500,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    text = out.read_text()

    for heading in (
        "## Machine",
        "## Implementations",
        "## Results",
        "## Goals (from issue 5)",
        "## How the peers differ",
    ):
        assert heading in text, heading
    assert "SMOKE RUN" in text

    # Measures 1–4 report a figure for ours in every row.
    for measure in ("1 add", "1 replace", "1 remove", "2 small", "2 large", "2 growth", "3a", "3b", "4"):
        row = re.search(rf"^\| {re.escape(measure)} \| [^|]+ \| ([^|]+) \|", text, re.MULTILINE)
        assert row, f"row {measure} missing"
        assert row.group(1).strip() not in ("", "—"), f"row {measure} has no figure for ours"
    assert "FILE CHECK FAILED" not in text

    # No peer was built, and the results say so.
    for peer in ("toolnexus==0.21.0", "hermes-agent==0.19.0"):
        line = next(line for line in text.splitlines() if line.startswith(f"| {peer} |"))
        assert "no (--peers off)" in line, line

    # Measures 5–8 are there, measured or marked pending with a reason.
    for number in ("5", "6", "7", "8"):
        assert re.search(rf"^\| {number} ", text, re.MULTILINE), f"measure {number} missing"
    assert "FAILED in this run" not in text

    # Measures 10–12 (the history's cost) report a figure for ours.
    for measure in ("10 add", "10 growth", "11", "12", "15 splice", "15 merge"):
        row = re.search(rf"^\| {re.escape(measure)} \| [^|]+ \| ([^|]+) \|", text, re.MULTILINE)
        assert row, f"row {measure} missing"
        assert row.group(1).strip() not in ("", "—"), f"row {measure} has no figure for ours"

    # Measures 1g and 2g (measures 1 and 2 with the home's git on) report both figures side by side.
    for measure in ("1g add", "2g small", "2g large"):
        row = re.search(rf"^\| {re.escape(measure)} \| [^|]+ \| ([^|]+) \| ([^|]+) \|", text, re.MULTILINE)
        assert row, f"row {measure} missing"
        assert "—" not in row.group(1) + row.group(2), f"row {measure} lacks git off or git on"
    assert "CHECK FAILED (bytes, or fewer commits" not in text

    # Measure 14 (one find keystroke) reports a figure for ours.
    for measure in ("14 loop", "14 count", "14 editor", "14 editor count"):
        row = re.search(rf"^\| {re.escape(measure)} \| [^|]+ \| ([^|]+) \|", text, re.MULTILINE)
        assert row, f"row {measure} missing"
        assert row.group(1).strip() not in ("", "—"), f"row {measure} has no figure for ours"

    # Every goal of the issue is listed with a status.
    for goal in (
        "Lose nothing and corrupt nothing",
        "Throughput ≥ 3× hermes",
        "add on a 2 MiB file",
        "App start",
        "adds/s with the history on",
        "newest 100 of 100,000 records",
        "blame of a 2 MiB MEMORY.md",
        "a find keystroke under a frame",
        "a find keystroke in the built-in editor under a frame",
    ):
        assert re.search(rf"^\| {re.escape(goal)}.*\| (met|\*\*missed\*\*|pending) \|", text, re.MULTILINE), goal

    # The goals table keeps its cells short: each measure's reasons are one note of five lines at most.
    assert "| goal | measured | status | note |" in text
    notes = text.split("### Notes on the goals", 1)[1].split("\n## ", 1)[0] if "### Notes on the goals" in text else ""
    for paragraph in notes.strip().split("\n\n")[1:]:
        assert len(paragraph.splitlines()) <= 5 and "(cut: over five lines)" not in paragraph, paragraph

    # A smoke run never touches the committed results.
    assert _digest(RESULTS) == committed


def test_smoke_run_refuses_to_overwrite_the_committed_results() -> None:
    done = subprocess.run(
        [sys.executable, str(RUNNER), "--smoke", "--out", str(RESULTS), "--peers", "off"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 2
    assert "never overwrites" in done.stderr
