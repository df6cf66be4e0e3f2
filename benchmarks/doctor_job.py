"""One doctor measurement in a fresh interpreter: ``doctor_job.py HOME ROUNDS`` prints ``RESULT {json}``.

Run with our interpreter and this checkout on the path (the runner does).
The first check is timed apart: it imports the scanners and reads the
confusables table and secret formats when it needs them, as the notebook's
first doctor run in a worker does. Later checks use a fresh Doctor (no
cache) to time the rules themselves, and one more on the same Doctor times
the cache. With ``add``, one entry is then added through the core and the
same Doctor checks again (what the notebook does after an agent's write),
and a new Doctor that remembers how far the last one read the log checks
once more (what the next ``persona-notebook doctor`` does).
"""

from __future__ import annotations

import json
import statistics
import sys
import time


def main(home: str, rounds: int, add: bool = False) -> None:
    started = time.perf_counter()
    from notebook_app.core.doctor.check import Doctor

    imported = time.perf_counter() - started
    doctor = Doctor()
    started = time.perf_counter()
    report = doctor.check(home)
    first = time.perf_counter() - started
    warm = []
    for _ in range(rounds):
        fresh = Doctor()
        started = time.perf_counter()
        fresh.check(home)
        warm.append(time.perf_counter() - started)
    started = time.perf_counter()
    doctor.check(home)
    cached = time.perf_counter() - started
    started = time.perf_counter()
    budget = doctor.exact_tokens(report)
    tokens = time.perf_counter() - started
    started = time.perf_counter()
    doctor.exact_tokens(report)
    tokens_cached = time.perf_counter() - started
    after_add = remembered = None
    if add:  # the notebook's case: an agent adds, the kept Doctor checks again
        from notebook_app.core.record.log.actor import CLI
        from notebook_app.core.memory.tool import MemoryTool

        MemoryTool(home, by=CLI).call({"action": "add", "text": "one more entry after the first check"})
        started = time.perf_counter()
        doctor.check(home)
        after_add = time.perf_counter() - started
        Doctor(remember=True).check(home)  # a process that keeps how far it read the log (the CLI, the notebook)
        started = time.perf_counter()
        Doctor(remember=True).check(home)  # the next process: reads only what was appended
        remembered = time.perf_counter() - started
    result = {
        "after_add_s": after_add,
        "remembered_s": remembered,
        "import_s": imported,
        "first_s": first,
        "warm_s": statistics.median(warm),
        "cached_s": cached,
        "tokens_s": tokens,
        "tokens_cached_s": tokens_cached,
        "tokens": budget.tokens,
        "findings": len(report.findings),
        "problems": len(report.problems),
    }
    print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), add=sys.argv[3:] == ["add"])
