"""The history's timed jobs, run in our interpreter: ``history_jobs.py '{"job": …}'`` prints ``RESULT <json>``.

Kept apart from ``driver.py`` (which must import every implementation the
same way): these jobs build a long history through the core and time
reading it.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def build(home: Path, records: int, *, entry_bytes: int, edits: int = 0) -> float:
    """``records`` writes through the core (adds, and ``edits`` entry edits spread over the file); seconds taken."""
    from notebook_app.core.memory.edits.guarded_splice import edit_entry
    from notebook_app.core.record.log.actor import CLI, NOTEBOOK
    from notebook_app.core.memory.tool import MemoryTool

    home.mkdir(parents=True, exist_ok=True)
    tool = MemoryTool(home, durable=False, by=CLI)
    started = time.perf_counter()
    pad = "x" * max(0, entry_bytes - 20)
    adds = records - edits
    every = max(1, adds // max(1, edits)) if edits else 0
    done_edits = 0
    for i in range(adds):
        result = tool.call({"action": "add", "text": f"entry {i:06d} {pad}"})
        if result.is_error:
            raise SystemExit(result.output)
        if every and i % every == every - 1 and done_edits < edits:
            line = i // 2 + 1
            expect = f"- entry {line - 1:06d} {pad}"
            if not edit_entry(
                home, "MEMORY.md", line, expect, expect + " (edited)", by=NOTEBOOK, durable=False
            ).is_error:
                done_edits += 1
    return time.perf_counter() - started


def timed(call, repeats: int) -> list[float]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return times


def job_list(job: dict[str, Any]) -> dict[str, Any]:
    """Measure 10: the newest 100 of a log of ``records`` records."""
    from notebook_app.core.history.query import history

    home = Path(job["home"])
    built = build(home, job["records"], entry_bytes=16)
    times = timed(lambda: history(home, limit=100), job["repeats"])
    shown = history(home, limit=100)
    log = home / ".notebook" / "events.jsonl"
    return {
        "records": job["records"],
        "build_s": built,
        "median_s": statistics.median(times),
        "first_s": times[0],
        "listed": len(shown),
        "log_bytes": log.stat().st_size,
        "bytes_per_record": log.stat().st_size / job["records"],
    }


def job_blame(job: dict[str, Any]) -> dict[str, Any]:
    """Measure 11: blame of a MEMORY.md written by ``records`` records (adds and entry edits)."""
    from notebook_app.core.history.origins import blame

    home = Path(job["home"])
    built = build(home, job["records"], entry_bytes=job["entry_bytes"], edits=job["edits"])
    times = timed(lambda: blame(home, "MEMORY.md"), job["repeats"])
    result = blame(home, "MEMORY.md")
    owners = {owner.id for owner in result.owners if owner is not None}
    return {
        "records": job["records"],
        "build_s": built,
        "median_s": statistics.median(times),
        "first_s": times[0],
        "file_bytes": (home / "MEMORY.md").stat().st_size,
        "lines": len(result.texts),
        "owners": len(owners),
    }


JOBS = {"list": job_list, "blame": job_blame}


def main(argv: list[str]) -> int:
    job = json.loads(argv[1])
    print("RESULT " + json.dumps(JOBS[job["job"]](job)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
