"""Measure 17: tidy's proposal on a 2 MiB MEMORY.md, its near-duplicate search blocked against all pairs.

Issue 23 asks for tidy on a 2 MiB MEMORY.md (about 33,000 entries) under 2 s,
its near-duplicate search sub-quadratic, measured against the naive all-pairs
version on the same home. The home is generated: entries of 5–10 words drawn
from a vocabulary with a long tail (as real notes are: a few common words,
many rare ones), 2% of them rewordings of an earlier entry. Both searches run
on the same word sets in one fresh interpreter of ours, and must find the same
pairs; the whole of ``tidy()`` is timed apart.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

from benchlib import OURS, REPO, Bench, Goal, Row, Section, fmt_bytes, fmt_time

JOB = """
import json, sys, time
from pathlib import Path
from notebook_app.core.tidy.near import naive_pairs, near_pairs, words
from notebook_app.core.tidy.propose import tidy
home = Path(sys.argv[1])
started = time.perf_counter(); proposal = tidy(home); whole = time.perf_counter() - started
text = (home / "MEMORY.md").read_text()
sets = [words(line[2:]) for line in text.splitlines()]
started = time.perf_counter(); fast = near_pairs(sets); blocked = time.perf_counter() - started
started = time.perf_counter(); slow = naive_pairs(sets); naive = time.perf_counter() - started
print("RESULT " + json.dumps({"tidy_s": whole, "blocked_s": blocked, "naive_s": naive, "pairs": len(fast),
      "same": fast == slow, "hunks": len(proposal.hunks), "entries": len(sets)}))
"""


def make_home(folder: Path, size: int, seed: int = 23) -> tuple[int, int]:
    """A MEMORY.md of generated entries just under ``size`` bytes, 2% of them rewordings of an earlier one."""
    rng = random.Random(seed)
    syllables = "ka lo mi ne ru ta vo shi pe da gu ri so te ba".split()
    vocabulary = list(dict.fromkeys("".join(rng.choices(syllables, k=rng.randint(2, 4))) for _ in range(20_000)))
    weights = [1 / (rank + 20) for rank in range(len(vocabulary))]
    lines: list[str] = []
    total = 0
    while True:
        if lines and rng.random() < 0.02:
            line = rng.choice(lines).rstrip("\n") + " " + rng.choices(vocabulary, weights)[0] + "\n"
        else:
            line = "- " + " ".join(rng.choices(vocabulary, weights, k=rng.randint(5, 10))) + "\n"
        if total + len(line) > size:
            break
        lines.append(line)
        total += len(line)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "MEMORY.md").write_text("".join(lines), encoding="utf-8")
    return total, len(lines)


class TidyNear:
    number = "17"
    title = "Tidy on a large MEMORY.md: blocked near-duplicate search against all pairs"
    what = (
        "`tidy(home)` (every rule, the contract's host) on a generated MEMORY.md of {size}, then its near-duplicate "
        "search on the same entries twice: blocked by its rarest words' sets of entries (ours) and all pairs "
        "(naive), which must find the same pairs. One run each, in a fresh interpreter."
    )

    def run(self, bench: Bench) -> Section:
        size = 256 * 1024 if bench.config.smoke else 2 * 1024 * 1024
        section = Section(self.number, self.title, self.what.format(size=fmt_bytes(size)))
        home = bench.scratch("tidy")
        actual, entries = make_home(home, size)
        done = subprocess.run(
            [str(bench.impls[OURS].python), "-c", JOB, str(home)],
            capture_output=True,
            text=True,
            timeout=1800,
            cwd=REPO,
            env=bench.environment(),
        )
        line = next((printed for printed in done.stdout.splitlines() if printed.startswith("RESULT ")), None)
        if line is None:
            section.notes.append(f"the job failed ({done.returncode}): {done.stderr[-500:]}")
            return section
        out = json.loads(line[len("RESULT ") :])
        what = f"MEMORY.md {fmt_bytes(actual)} ({entries:,} entries)"
        section.rows.append(Row("17 tidy", f"tidy(), {what}: {out['hunks']:,} hunks", {OURS: fmt_time(out["tidy_s"])}))
        section.rows.append(
            Row(
                "17 near",
                f"near-duplicate pairs, {what}: {out['pairs']:,} found, the same by both: {out['same']}",
                {OURS: fmt_time(out["blocked_s"]), "naive": fmt_time(out["naive_s"])},
                {"naive": f"{out['naive_s'] / out['blocked_s']:.0f}×"},
            )
        )
        text = "Tidy on a 2 MiB MEMORY.md under 2 s (issue 23)"
        if bench.config.smoke:
            section.goals.append(Goal(text, "—", "pending", "not measured in this run (the smoke size is smaller)"))
        else:
            status = "met" if out["tidy_s"] < 2.0 else "missed"
            section.goals.append(Goal(text, fmt_time(out["tidy_s"]), status))
        return section


MEASURES = [TidyNear()]
