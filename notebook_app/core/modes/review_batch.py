"""One agent session's pending proposals as one batch: their dry runs in order, shown as one diff.

An agent that tidies (the MCP ``tidy`` prompt) proposes a consolidation as
several calls; a person reads them together, as the change they make
together, and still decides each one (accepting it in parts). The batch's
dry run applies its proposals oldest first, each against the file as the
ones before leave it, as approving them all would; one that would then miss
is named with the core's words and left out of the diff. It only reads.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from dataclasses import dataclass, replace

from notebook_app.core.home.files import FileRead, FileStatus, read_file
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.refusals import Rejection, text_of
from notebook_app.core.home.soul import home_path
from notebook_app.core.memory.review.proposals import Proposal, ProposalStatus
from notebook_app.core.memory.review.decisions import READ_LIMIT, proposal_dry_run

CONTEXT = 2


@dataclass(frozen=True)
class Batch:
    """One session's pending proposals, oldest first, and what approving them all in order would do."""

    session: str | None
    """The agent session's id; None for proposals of no session (each is a batch of its own)."""
    proposals: tuple[Proposal, ...]
    applies: tuple[str, ...] = ()
    """The ids that would apply, in order."""
    misses: tuple[tuple[str, str], ...] = ()
    """(id, the core's refusal) of each that would miss after the ones before it."""
    diff: str = ""
    """Each touched file, headed by its name, its changed lines with ``CONTEXT`` lines around: one diff."""


def session_batches(proposals: Iterable[Proposal]) -> list[tuple[Proposal, ...]]:
    """The pending ``proposals`` grouped by their agent session, in the order each session first proposed."""
    groups: dict[object, list[Proposal]] = {}
    for proposal in proposals:
        if proposal.status != ProposalStatus.PENDING:
            continue
        key: object = proposal.by.session if proposal.by.session is not None else ("alone", proposal.id)
        groups.setdefault(key, []).append(proposal)
    return [tuple(group) for group in groups.values()]


def preview_batch(home: str | os.PathLike[str], proposals: Iterable[Proposal], files: FileMap = FLAT) -> Batch:
    """The batch of ``proposals`` (one session's, oldest first) dry-run in order against the files now (where
    ``files`` keeps them, in their dialect)."""
    root = home_path(home)
    chosen = tuple(proposals)
    reads: dict[str, FileRead] = {}
    before: dict[str, str] = {}
    applies: list[str] = []
    misses: list[tuple[str, str]] = []
    for proposal in chosen:
        name = proposal.file
        if name is None:
            misses.append((proposal.id, "the proposal names no file"))
            continue
        if name not in reads:
            reads[name] = read_file(root / files.relative(name), limit=READ_LIMIT)
            before[name] = text_of(reads[name]) or ""
        outcome = proposal_dry_run(proposal, reads[name], files)
        if isinstance(outcome, Rejection):
            misses.append((proposal.id, outcome.message))
            continue
        after = outcome.apply(text_of(reads[name]) or "").encode("utf-8", "surrogateescape")
        reads[name] = replace(reads[name], status=FileStatus.REGULAR, data=after, size=len(after))
        applies.append(proposal.id)
    diff = "\n".join(
        part for name in before if (part := _file_diff(name, before[name], text_of(reads[name]) or "")) is not None
    )
    session = chosen[0].by.session if chosen else None
    return Batch(session, chosen, tuple(applies), tuple(misses), diff)


def _file_diff(name: str, old: str, new: str) -> str | None:
    """``name``'s changed lines, ``-`` / ``+`` / space marked, each hunk headed by its first line's number."""
    if old == new:
        return None
    was, now = _lines(old), _lines(new)
    shown = [f"{name}:"]
    for group in difflib.SequenceMatcher(None, was, now, autojunk=False).get_grouped_opcodes(CONTEXT):
        shown.append(f"from line {group[0][1] + 1}:")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                shown += [f" {line}" for line in was[i1:i2]]
            else:
                shown += [f"-{line}" for line in was[i1:i2]] + [f"+{line}" for line in now[j1:j2]]
    return "\n".join(shown)


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # a final line ending starts no line of its own
    return lines
