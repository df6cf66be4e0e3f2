"""A proposal's dry run against its file as it is now: the lines approving would change, or the core's refusal.

The review view shows this for every proposal in the queue and computes it
again whenever the home changes, so a proposal that would now miss says
``not found: …`` before anyone approves it. It only reads.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from notebook_app.core.home.files import FileRead, read_file
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.refusals import Rejection, text_of
from notebook_app.core.home.soul import home_path
from notebook_app.core.memory.plan import Edit
from notebook_app.core.memory.review.decisions import READ_LIMIT, Proposal, proposal_dry_run

CONTEXT = 2


@dataclass(frozen=True)
class ProposalPreview:
    proposal: Proposal
    outcome: Edit | Rejection
    """What approving now would do, or the core's exact refusal (``not found: …``)."""
    lines: str = ""
    """The changed lines with ``CONTEXT`` lines around them, ``-`` / ``+`` / space marked; empty when it misses."""
    args: object = None
    """The arguments the dry run used: the proposal's, or a person's edit of them."""

    @property
    def misses(self) -> bool:
        return isinstance(self.outcome, Rejection)


def preview_proposals(
    home: str | os.PathLike[str], proposals: Iterable[Proposal], files: FileMap = FLAT
) -> list[ProposalPreview]:
    """Each proposal's dry run against its file now (each file read once, where ``files`` keeps it), in the
    order given."""
    root = home_path(home)
    reads: dict[str, FileRead] = {}
    previews = []
    for proposal in proposals:
        name = proposal.file or ""
        if name and name not in reads:
            reads[name] = read_file(root / files.relative(name), limit=READ_LIMIT)
        previews.append(preview_proposal(root, proposal, read=reads.get(name), files=files))
    return previews


def preview_proposal(
    home: str | os.PathLike[str],
    proposal: Proposal,
    *,
    args: object = None,
    read: FileRead | None = None,
    files: FileMap = FLAT,
) -> ProposalPreview:
    """One proposal's dry run now; ``args`` replaces what it sent (an edit before approval)."""
    used = proposal.args if args is None else args
    if proposal.file is None:
        return ProposalPreview(proposal, Rejection("the proposal names no file"), args=used)
    if read is None:
        read = read_file(Path(home_path(home)) / files.relative(proposal.file), limit=READ_LIMIT)
    shown = proposal if args is None else replace(proposal, args=args)
    outcome = proposal_dry_run(shown, read, files)
    if isinstance(outcome, Rejection):
        return ProposalPreview(proposal, outcome, args=used)
    return ProposalPreview(proposal, outcome, changed_lines(text_of(read) or "", outcome), args=used)


def changed_lines(text: str, edit: Edit, context: int = CONTEXT) -> str:
    """The lines ``edit`` touches in ``text``, before and after, headed by the first one's number."""
    after = edit.apply(text)
    first = text.count("\n", 0, edit.start)
    old_last = text.count("\n", 0, edit.end)
    new_last = after.count("\n", 0, edit.start + len(edit.inserted))
    low = max(0, first - context)
    old = _window(text, low, old_last + 1 + context)
    new = _window(after, low, new_last + 1 + context)
    body = [
        line
        for line in difflib.unified_diff(old, new, lineterm="", n=len(old) + len(new))
        if not line.startswith(("---", "+++", "@@"))
    ]
    return "\n".join([f"{edit.request.filename}, from line {low + 1}:"] + body)


def _window(text: str, start: int, end: int) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # a final line ending starts no line of its own
    return lines[start:end]
