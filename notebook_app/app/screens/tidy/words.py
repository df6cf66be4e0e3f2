"""Tidy's proposal in words for the Tidy view: a hunk's row, its detail, the summary of what is accepted.

Pure functions over the core's :class:`~notebook_app.core.tidy.Proposal`, so the
screen only places them; the CLI says the same facts in its own layout.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING

from notebook_app.core.text.hidden import with_markers

if TYPE_CHECKING:
    from notebook_app.core.tidy.model import Hunk, Proposal, Stray


def plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def hunk_line(hunk: Hunk) -> str:
    """The row of a hunk: its kind, where it starts, the first entry it touches (and how many more)."""
    first = hunk.entries[0]
    text = with_markers(first.text) if first.text else "(empty line)"
    more = f"  (+{len(hunk.entries) - 1} more)" if len(hunk.entries) > 1 else ""
    return f"{hunk.kind.value:<15} line {first.line:<5} {text}{more}"


def hunk_detail(hunk: Hunk, archive: str) -> str:
    """A hunk in full: what happens to each entry, why, and what says so."""
    fate = "removed (an exact copy or an empty line)" if hunk.kind.removes else f"moved to {archive}"
    lines = [f"{hunk.kind.value} · {hunk.file} · {hunk.id}", with_markers(hunk.reason), f"each entry below is {fate}:"]
    lines += [f"  line {e.line}: {with_markers(e.text) if e.text else '(empty)'}" for e in hunk.entries]
    if hunk.evidence:
        lines.append("evidence: " + ", ".join(f"{name} {value}" for name, value in hunk.evidence))
    return "\n".join(lines)


def stray_line(stray: Stray) -> str:
    span = f"line {stray.first}" if stray.first == stray.last else f"lines {stray.first}–{stray.last}"
    return f"not an entry    {span}: {with_markers(stray.sample)}"


def accepted_summary(hunks: Iterable[Hunk], archive: str) -> str:
    """What applying the accepted hunks would do, in one line."""
    chosen = list(hunks)
    if not chosen:
        return "none accepted: space accepts the selected hunk, A all of them"
    moved = sum(len(h.entries) for h in chosen if not h.kind.removes)
    removed = sum(len(h.entries) for h in chosen if h.kind.removes)
    parts = []
    if moved:
        parts.append(f"{plural(moved, 'entry moves', 'entries move')} to {archive}")
    if removed:
        parts.append(f"{removed} removed")  # only exact copies and empty lines are: the hunk says which
    return f"{len(chosen)} accepted: " + ", ".join(parts) + " · y applies"


def proposal_summary(proposal: Proposal, accepted: Collection[str], stale: int) -> str:
    """The view's top line: how many hunks for which files, then what the accepted ones would do."""
    files = ", ".join(proposal.looked_at) or "no entry file"
    if not proposal.hunks and not stale:
        return f"Nothing to tidy in {files} as {proposal.host} loads them: no duplicates, superseded facts, " + (
            "empty lines or file over its cap."
        )
    head = f"{plural(len(proposal.hunks), 'hunk', 'hunks')} for {files} as {proposal.host} loads them"
    if stale:
        head += f" · {plural(stale, 'hunk', 'hunks')} gone stale (an agent wrote): never applied"
    chosen = [hunk for hunk in proposal.hunks if hunk.id in accepted]
    return f"{head}\n{accepted_summary(chosen, proposal.archive)}"


def confirm_words(hunks: Iterable[Hunk], archive: str) -> str:
    """The dry run ``y`` asks to confirm: every entry each accepted hunk moves or removes."""
    chosen = list(hunks)
    lines = [f"y again applies {plural(len(chosen), 'hunk', 'hunks')} as one write (h then u undoes it); esc cancels:"]
    for hunk in chosen:
        verb = "remove" if hunk.kind.removes else f"move to {archive}"
        for entry in hunk.entries:
            text = with_markers(entry.text) if entry.text else "(empty line)"
            lines.append(f"  {verb}: {hunk.file} line {entry.line}: {text}")
    return "\n".join(lines)
