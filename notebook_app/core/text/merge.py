"""A three-way, line-based merge: a person's edit against what another writer wrote meanwhile.

``base`` is the text the editor started from, ``theirs`` the file now (the
agent wrote since), ``ours`` the edit. Each side's changes against the base
are found with :mod:`difflib` (stdlib, no dependency for a few dozen lines of
diff3); changes to different places both apply, the same change made on both
sides applies once, and changes that touch or overlap become a
:class:`Conflict` holding both versions. Nothing either side wrote is ever
dropped: a clean merge holds every line either side added, and a conflict
keeps both. Pure: no files, no lock; :mod:`..memory.edits.hand_edit` does the writing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

Lines = tuple[str, ...]


@dataclass(frozen=True)
class Conflict:
    """One place both sides changed differently: the base's lines there and each side's."""

    base_line: int
    """Where it starts in the base, numbered from 1 (for an insertion: the line it comes before)."""
    line: int
    """Where it starts in ``theirs``, the file as it is now, numbered from 1."""
    base: Lines
    ours: Lines
    theirs: Lines
    """Lines with their line endings, exactly as in each text."""


@dataclass(frozen=True)
class MergeResult:
    """A merge: the merged text when clean, else the conflicts; ``chunks`` has both, in order."""

    chunks: tuple[str | Conflict, ...]
    """Merged text, interleaved with the conflicts where they stand: what a conflict view shows."""
    theirs_lines: int
    """How many lines the other writer wrote since the base (added or changed): for "merged with N lines"."""

    @property
    def conflicts(self) -> tuple[Conflict, ...]:
        return tuple(chunk for chunk in self.chunks if isinstance(chunk, Conflict))

    @property
    def clean(self) -> bool:
        return not self.conflicts

    @property
    def text(self) -> str | None:
        """The merged text; None when a conflict is left."""
        return _concat(chunk for chunk in self.chunks if isinstance(chunk, str)) if self.clean else None

    def resolve(self, pick: Callable[[Conflict], Sequence[str]]) -> str:
        """The text with each conflict replaced by the lines ``pick`` chooses (mine, theirs, both…)."""
        return _concat(chunk if isinstance(chunk, str) else _concat(pick(chunk)) for chunk in self.chunks)


def mine(conflict: Conflict) -> Lines:
    return conflict.ours


def theirs(conflict: Conflict) -> Lines:
    return conflict.theirs


def both(conflict: Conflict) -> Lines:
    """Their lines, then mine: the agent's first, as the end-of-file rule orders them."""
    return _joinable(conflict.theirs) + conflict.ours


def split_lines(text: str) -> Lines:
    """``text`` as lines, each keeping its ``\\n`` (a ``\\r`` before it stays with it); never ``splitlines``."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return tuple(line for line in lines if line)


def merge3(base: str, theirs: str, ours: str, *, end_inserts_both: bool = False) -> MergeResult:
    """Merge ``ours`` (the edit) and ``theirs`` (the file now) against ``base``.

    ``end_inserts_both``: lines both sides inserted after the base's end are
    not a conflict; the result is theirs, then ours (decided for MEMORY.md and
    USER.md: both agent and person add entries at the end). A base whose last
    line has no line ending counts as ending with one when both sides kept it
    and added after it.
    """
    base_lines, theirs_lines, ours_lines = split_lines(base), split_lines(theirs), split_lines(ours)
    if base_lines and not base.endswith("\n"):
        ended = base_lines[-1] + "\n"
        if _continues(theirs_lines, base_lines, ended) and _continues(ours_lines, base_lines, ended):
            base_lines = base_lines[:-1] + (ended,)
    ours_hunks = _hunks(base_lines, ours_lines)
    theirs_hunks = _hunks(base_lines, theirs_lines)
    if end_inserts_both:
        ours_hunks, theirs_hunks = _end_apart(ours_hunks, len(base_lines)), _end_apart(theirs_hunks, len(base_lines))
    written = sum(len(lines) for _, _, lines in theirs_hunks)
    chunks: list[str | Conflict] = []
    position = 0  # in the base
    shift = 0  # theirs' line number minus the base's, before ``position``
    for start, end, group_ours, group_theirs in _groups(ours_hunks, theirs_hunks):
        chunks.append("".join(base_lines[position:start]))
        mine_now = _apply(base_lines, start, end, group_ours)
        theirs_now = _apply(base_lines, start, end, group_theirs)
        at_end = start == end == len(base_lines)
        if not group_theirs or mine_now == theirs_now:
            chunks.append("".join(mine_now))
        elif not group_ours:
            chunks.append("".join(theirs_now))
        elif at_end and end_inserts_both:
            chunks.append("".join(_joinable(theirs_now) + mine_now))
        else:
            chunks.append(Conflict(start + 1, start + shift + 1, base_lines[start:end], mine_now, theirs_now))
        shift += len(theirs_now) - (end - start)
        position = end
    chunks.append("".join(base_lines[position:]))
    return MergeResult(tuple(chunk for chunk in chunks if chunk != ""), written)


def follow_line(before: str, after: str, row: int) -> int:
    """Where line ``row`` (from 0) of ``before`` stands in ``after``: a cursor kept on its line when a merge adds
    lines around it.

    A line both texts hold moves with the lines added or removed above it; a
    line inside a changed place keeps its offset there, as far as the new
    lines reach. A row past the last line (the empty one after a final line
    break) stays past the last line.
    """
    old, new = split_lines(before), split_lines(after)
    for tag, old_start, old_end, new_start, new_end in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if old_start <= row < old_end:
            return new_start + (
                row - old_start if tag == "equal" else min(row - old_start, max(new_end - new_start - 1, 0))
            )
    return max(0, row - len(old) + len(new))


Hunk = tuple[int, int, Lines]
"""Base lines ``[start, end)`` become ``lines`` on one side."""


def _hunks(base: Lines, side: Lines) -> list[Hunk]:
    matcher = SequenceMatcher(None, base, side, autojunk=False)
    return [(i1, i2, side[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _end_apart(hunks: list[Hunk], end: int) -> list[Hunk]:
    """A last hunk that changes the last lines and adds more, split into the change and an insertion at the end.

    So that "changed the last entry and added one" meets the other side's
    added entry as two insertions at the end (theirs, then ours), not as a
    change and an insertion in whatever order difflib grouped them. The side's
    text is the same either way.
    """
    if hunks:
        start, stop, lines = hunks[-1]
        kept = stop - start
        if stop == end and kept and len(lines) > kept:
            return [*hunks[:-1], (start, stop, lines[:kept]), (end, end, lines[kept:])]
    return hunks


def _groups(ours: list[Hunk], theirs: list[Hunk]) -> list[tuple[int, int, list[Hunk], list[Hunk]]]:
    """Hunks of both sides gathered where they overlap: each group is merged, or conflicts, as one place."""
    tagged = sorted([(h, 0) for h in ours] + [(h, 1) for h in theirs], key=lambda item: (item[0][0], item[0][1]))
    groups: list[tuple[int, int, list[Hunk], list[Hunk]]] = []
    for hunk, side in tagged:
        if groups and _joins(groups[-1], hunk, side):
            g_start, g_end, g_ours, g_theirs = groups[-1]
            (g_ours if side == 0 else g_theirs).append(hunk)
            groups[-1] = (g_start, max(g_end, hunk[1]), g_ours, g_theirs)
        else:
            groups.append((hunk[0], hunk[1], [hunk] if side == 0 else [], [hunk] if side == 1 else []))
    return groups


def _joins(group: tuple[int, int, list[Hunk], list[Hunk]], hunk: Hunk, side: int) -> bool:
    """Whether ``hunk`` is the same place as ``group``: it overlaps it, or both sides insert at one point.

    Changes that only abut (one side's line 2, the other's line 3; an
    insertion right after the other's changed line) have one order and merge;
    two insertions at one point have none and conflict.
    """
    _, g_end, g_ours, g_theirs = group
    start, end, _ = hunk
    if start < g_end:
        return True
    other = g_theirs if side == 0 else g_ours
    return start == end and any(o_start == o_end == start for o_start, o_end, _ in other)


def _apply(base: Lines, start: int, end: int, hunks: list[Hunk]) -> Lines:
    """The base's lines ``[start, end)`` with one side's hunks in that range applied."""
    out: list[str] = []
    position = start
    for h_start, h_end, lines in hunks:
        out.extend(base[position:h_start])
        out.extend(lines)
        position = h_end
    out.extend(base[position:end])
    return tuple(out)


def _continues(side: Lines, base: Lines, ended: str) -> bool:
    """``side`` keeps the base, its last line now ended, and adds after it."""
    n = len(base)
    return len(side) > n and side[: n - 1] == base[:-1] and side[n - 1] == ended


def _concat(pieces: Iterable[str]) -> str:
    """``pieces`` joined so that no line is glued to the next: a piece that ends without a line ending gets one
    when more follows (a last line without ending, moved before lines the other side added)."""
    out: list[str] = []
    for piece in pieces:
        if not piece:
            continue
        if out and not out[-1].endswith("\n"):
            out[-1] += "\n"
        out.append(piece)
    return "".join(out)


def _joinable(lines: Lines) -> Lines:
    """``lines`` with a line ending added to the last, so that lines put after it start a line."""
    if lines and not lines[-1].endswith("\n"):
        return lines[:-1] + (lines[-1] + "\n",)
    return lines
