"""The conflict view's two sides as documents: drawn once per merge, re-marked per key. No Textual.

Drawing a side (joining its chunks, splitting and marking the lines) costs the
whole text: on a 2 MiB file that is for a worker, once per merge
(:func:`draw_side`). A key (1/2/3, ↑↓) changes one conflict's state and where
the banner stands, so :func:`side_document` shares the drawn lines and only
describes the conflicts' states (:class:`ConflictMarks`): its cost is the
number of conflicts, not the size of the file.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from notebook_app.app.view_model.documents import Document, Mark, file_document
from notebook_app.core.text.merge import Conflict, MergeResult, split_lines

Choice = Literal["mine", "theirs", "both"]
SideName = Literal["mine", "theirs"]
KEEPS: dict[SideName, tuple[Choice, ...]] = {"mine": ("mine", "both"), "theirs": ("theirs", "both")}
"""Which choices keep each side's lines."""


@dataclass(frozen=True)
class Side:
    """One side's whole text drawn (headings marked), and where each conflict's lines are in it."""

    name: SideName
    drawn: Document
    spans: tuple[tuple[int, int], ...]
    """Each conflict's first line and how many lines it has on this side (0: removed here)."""

    @property
    def starts(self) -> list[int]:
        return [start for start, _ in self.spans]


def draw_side(merge: MergeResult, name: SideName) -> Side:
    """``name``'s text (the merged chunks with this side of each conflict), drawn once: the slow part, for a worker."""
    lines: list[str] = []
    spans: list[tuple[int, int]] = []
    for chunk in merge.chunks:
        if isinstance(chunk, Conflict):
            part = chunk.ours if name == "mine" else chunk.theirs
            spans.append((len(lines), len(part)))
        else:
            part = split_lines(chunk)
        lines.extend(part)
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines[:-1]) + (lines[-1] if lines else "")
    return Side(name, file_document(text), tuple(spans))


def mark_of(name: SideName, choice: Choice | None) -> Mark:
    """How a conflict's lines are marked on side ``name``: not chosen yet, kept, or dropped."""
    return Mark.CONFLICT if choice is None else Mark.ADDED if choice in KEEPS[name] else Mark.REMOVED


class ConflictMarks(Mapping[int, Mark]):
    """A drawn side's own marks with each conflict's lines marked by its state, without copying either.

    Two of the same side compare by their states alone, so a view sees at once
    whether a key changed anything.
    """

    def __init__(self, base: Mapping[int, Mark], spans: tuple[tuple[int, int], ...], states: tuple[Mark, ...]) -> None:
        self.base = base
        self.spans = spans
        self.states = states
        self._starts = [start for start, _ in spans]

    def _conflict_at(self, line: int) -> int | None:
        index = bisect_right(self._starts, line) - 1
        if index >= 0:
            start, count = self.spans[index]
            if line < start + count:
                return index
        return None

    def __getitem__(self, line: int) -> Mark:
        index = self._conflict_at(line) if isinstance(line, int) else None
        return self.states[index] if index is not None else self.base[line]

    def __iter__(self) -> Iterator[int]:
        conflict_lines = [line for start, count in self.spans for line in range(start, start + count)]
        yield from sorted({*self.base, *conflict_lines})

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ConflictMarks) and other.base is self.base and other.spans is self.spans:
            return other.states == self.states
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]  # equal by value, so unhashable; typeshed's Mapping has a __hash__


def side_document(side: Side, choices: Sequence[Choice | None], current: int) -> Document:
    """``side`` with each conflict marked by its choice and a banner under the current one; shares the drawn lines."""
    drawn = side.drawn
    marks = ConflictMarks(drawn.marks, side.spans, tuple(mark_of(side.name, choice) for choice in choices))
    banners: dict[int, str] = {}
    if 0 <= current < len(side.spans) and drawn.lines:
        start, count = side.spans[current]
        choice = choices[current]
        state = "1 / 2 / 3" if choice is None else f"keeping {choice}"
        empty = "" if count else " (removed on this side)"
        banners[max(0, start + count - 1 if count else start - 1)] = (
            f"▲ conflict {current + 1} of {len(side.spans)}{empty}: {state}"
        )
    return Document(drawn.lines, marks, banners, drawn.source)
