"""Measure 13: an agent's proposal in review mode → listed in the notebook's review view.

Driven like measures 5–8 (bench_app.py): the app in a 120 × 40
pseudo-terminal read by pyte (app_harness.py, job ``review``). The agent is
the mcp SDK's own client on ``persona-notebook mcp HOME --review``
(review_agent.py); the floor is raw watchfiles on the home's ``.notebook``
folder, notified of the same call's log write. Ratios are times, ours ÷
floor, paired within a trial.
"""

from __future__ import annotations

from typing import Any

from bench_app import _AppMeasure, fmt_times, harness, home, time_ratio
from benchlib import Bench, Row, Section, fmt_time, median


class ProposalShown(_AppMeasure):
    number = "13"
    title = "An agent's proposal (MCP, review mode) → listed in the notebook's review view"
    what = (
        "The notebook runs on a copy of the demo home with its review view open ('p'). An agent, the "
        "mcp SDK's client on `persona-notebook mcp HOME --review` (review_agent.py), calls memory "
        "add; the clock starts just before the call and stops at the terminal output after which the "
        "proposal's row is in the view's list. Floor: raw watchfiles, awatch(debounce=50, step=10) on "
        "the home's .notebook folder (where the log is, watched as the app watches it), from the same "
        "send to its notification of that call's log write; so the floor holds the MCP round trip up "
        "to the write too. Also shown: the agent's own wait for its answer. {trials} trials; between "
        "them the queue is rejected from the command line and the view opened again, empty (untimed)."
    )

    def counts(self, bench: Bench) -> dict[str, Any]:
        return {"trials": 2 if bench.config.smoke else 20}

    def measure(self, bench: Bench, section: Section) -> None:
        trials = self.counts(bench)["trials"]
        out = harness(bench, {"job": "review", "home": str(home(bench, "review")), "trials": trials})
        floor = fmt_time(median(out["floor_s"]))
        section.rows.append(
            Row(
                "13 shown",
                "agent's call → the proposal listed in the review view",
                {"ours": fmt_time(median(out["shown_s"])), "floor": floor},
                {"floor": fmt_times(time_ratio(out["shown_s"], out["floor_s"]))},
            )
        )
        section.rows.append(
            Row(
                "13 answer", "agent's call → its answer (queued for review)", {"ours": fmt_time(median(out["reply_s"]))}
            )
        )
        gap = median([a - b for a, b in zip(out["shown_s"], out["floor_s"], strict=True)])
        if gap is not None:
            section.notes.append(
                f"After watchfiles' notification the notebook needs a median {fmt_time(gap)} more: reading the "
                "queue and each proposal's dry run in a worker (1-14 ms, traced in a pty), then Textual's repaint of "
                "the list and its detail, most of the rest; measure 6's outside write, run the same way, pays a "
                "similar repaint after its own notification."
            )


MEASURES = [ProposalShown()]
