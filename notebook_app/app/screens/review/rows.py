"""A review row: one proposal in two lines that fit 80 columns, with what became of it or would.

What the list shows of each proposal (and the detail's call line): when, who,
its outcome or its dry run's miss or a secret it holds, and the call as it
stands (as approved, when a person edited it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from textual.content import Content

from notebook_app.core.history.undo_restore import who
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.memory.review.decisions import Proposal, ProposalStatus
from notebook_app.core.memory.review.batch import Batch
from notebook_app.core.memory.review.preview import ProposalPreview

MARKS = {
    ProposalStatus.APPROVED: ("✔ approved", "$text-success"),
    ProposalStatus.REJECTED: ("rejected", "$foreground-muted"),
    ProposalStatus.FAILED: ("✖ failed", "$text-error"),
}
LINE_STYLES = {"-": "$text-error", "+": "$text-success"}
NOTHING = (
    "Nothing to review. An agent's write waits here when its server runs with --review "
    "(or the home's review setting is on)."
)


@dataclass(frozen=True)
class Row:
    """One listed proposal: pending with its dry run now, or decided here with its outcome."""

    proposal: Proposal
    preview: ProposalPreview | None
    secrets: tuple[str, ...] = ()
    """The kinds of secret a pending proposal's text holds (the doctor's rule): approving would write them."""
    batch: Batch | None = None
    """Its agent session's pending proposals as one diff, when the session has more than this one pending."""


ROW_WIDTH = 74
"""What a row's call line may take: the queue's inside at 80 columns, less the row's indent."""


def clipped(text: str, limit: int) -> str:
    """``text``, or its words up to ``limit`` characters and ``…``; a word is cut only when it alone is too long."""
    if len(text) <= limit:
        return text
    space = text.rfind(" ", 0, limit)
    return (text[:space] if space > limit // 2 else text[: limit - 1]) + "…"


def call_words(proposal: Proposal, width: int) -> str:
    """``replace self: 'UTC' → 'IST'`` in at most ``width`` characters: the values share what the call leaves."""

    def shown(value: object, limit: int) -> str:
        return clipped(repr(value) if isinstance(value, str) else str(value), limit)

    head = f"{proposal.field('action')} {proposal.field('target') or 'self'}: "
    replacement = proposal.field("with")
    if replacement is None:
        return head + shown(proposal.field("text"), width - len(head))
    room = (width - len(head) - 3) // 2
    return f"{head}{shown(proposal.field('text'), room)} → {shown(replacement, room)}"


def row_prompt(row: Row, clock: Callable[[datetime], str]) -> Content:
    """Two lines that fit 80 columns: time, who and what became of it or would
    (``✖ not found``); the call under them.
    """
    proposal = row.proposal
    if proposal.status != ProposalStatus.PENDING:
        words, style = MARKS.get(proposal.status, (proposal.status, "$foreground-muted"))
        mark = (words + (" · edited" if proposal.edited else ""), style)
    elif row.preview is not None and isinstance(row.preview.outcome, Rejection):
        mark = ("✖ " + clipped(row.preview.outcome.message.split(":")[0], 30), "$text-error")
    elif row.secrets:
        kind = row.secrets[0]
        mark = ("⚠ " + clipped(f"holds {'an' if kind[0].lower() in 'aeiou' else 'a'} {kind}", 30), "$text-warning")
    else:
        mark = ("", "")
    return Content.assemble(
        (f"{clock(proposal.time)}  ", "$foreground-muted"),
        (clipped(who(proposal.by), 36), "$text-accent"),
        (f"  {mark[0]}" if mark[0] else "", mark[1]),
        "\n  ",
        (call_words(proposal, ROW_WIDTH), "bold" if proposal.status == ProposalStatus.PENDING else "$foreground-muted"),
    )


def batch_words(batch: Batch) -> list[Content | str | tuple[str, str]]:
    """Under a proposal's own dry run: its session's pending proposals together, as one diff, in order."""
    count = len(batch.proposals)
    parts: list[Content | str | tuple[str, str]] = [
        "\n\n",
        (
            f"Its session's batch: {count} proposals, oldest first, as one diff "
            "(y / x still decide each one; Y approves all shown)",
            "bold",
        ),
    ]
    if batch.misses:
        missed = len(batch.misses)
        parts += [
            "\n",
            (f"{missed} would miss after the ones before and {'is' if missed == 1 else 'are'} left out", "$text-error"),
        ]
    for line in batch.diff.split("\n") if batch.diff else ():
        parts += ["\n", (line, LINE_STYLES.get(line[:1], ""))]
    return parts
