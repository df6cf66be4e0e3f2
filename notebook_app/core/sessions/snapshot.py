"""Sessions: the frozen current snapshot, the live next-session preview, the gap.

Section 4 of the contract made concrete. A session's soul is composed once,
when it starts, and never changes; the preview is ``compose`` evaluated now;
the diff between them is what the next session will load differently.
"""

from __future__ import annotations

import difflib
import os
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.soul import BOOTSTRAP_ORDER, BootstrapFile, Composition, SkippedFile, compose, home_path
from notebook_app.core.text.common_runs import common_prefix

if TYPE_CHECKING:
    from notebook_app.core.hosts.profile import HostProfile

_EXACT_DIFF_LIMIT = 20_000
"""Changed-region lines above which the diff falls back to a linear multiset diff."""


@dataclass(frozen=True)
class Snapshot:
    """A soul as composed at one moment, with the facts the notebook shows."""

    number: int
    taken_at: datetime
    compose_seconds: float
    composition: Composition

    @property
    def soul(self) -> str:
        return self.composition.soul

    @property
    def found(self) -> list[str]:
        return self.composition.found

    @property
    def files(self) -> tuple[BootstrapFile, ...]:
        return self.composition.files

    @property
    def skipped(self) -> tuple[SkippedFile, ...]:
        """Bootstrap files that were there but did not load."""
        return self.composition.skipped


def take_snapshot(
    home: str | os.PathLike[str], number: int, *, host: HostProfile | None = None, files: FileMap = FLAT
) -> Snapshot:
    """The soul of ``home`` now, as the contract (or ``host``) loads it; ``files``: where the home keeps them."""
    started = time.perf_counter()
    composition = compose(home, host=host, layout=files)
    return Snapshot(
        number=number,
        taken_at=datetime.now(UTC),
        compose_seconds=time.perf_counter() - started,
        composition=composition,
    )


@dataclass(frozen=True)
class FileDiff:
    """How one bootstrap file's section differs between two souls.

    Line numbers index the lines of the section body (``body.split("\\n")``):
    ``removed`` in the older body, ``added`` in the newer one.
    """

    name: str
    status: Literal["added", "removed", "changed"]
    removed: tuple[tuple[int, str], ...]
    added: tuple[tuple[int, str], ...]

    @property
    def change_count(self) -> int:
        return len(self.removed) + len(self.added)


@dataclass(frozen=True)
class SoulDiff:
    files: tuple[FileDiff, ...]

    @property
    def in_sync(self) -> bool:
        return not self.files

    @property
    def change_count(self) -> int:
        """Lines added plus lines removed, over all files."""
        return sum(f.change_count for f in self.files)

    def file(self, name: str) -> FileDiff | None:
        return next((f for f in self.files if f.name == name), None)


def diff_lines(old: Sequence[str], new: Sequence[str]) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """Removed and added lines, each with its index in its own sequence.

    The common head and tail are skipped in linear time, so one edit in a
    2 MiB file costs one pass; only the changed middle is matched, exactly
    while it is small and by line counts beyond ``_EXACT_DIFF_LIMIT``.
    """
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    old_mid = old[head : len(old) - tail]
    new_mid = new[head : len(new) - tail]
    removed: list[tuple[int, str]] = []
    added: list[tuple[int, str]] = []
    if len(old_mid) + len(new_mid) <= _EXACT_DIFF_LIMIT:
        matcher = difflib.SequenceMatcher(None, old_mid, new_mid, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag in ("replace", "delete"):
                removed.extend((head + i, old_mid[i]) for i in range(i1, i2))
            if tag in ("replace", "insert"):
                added.extend((head + j, new_mid[j]) for j in range(j1, j2))
        return removed, added
    surplus_old = Counter(old_mid) - Counter(new_mid)
    surplus_new = Counter(new_mid) - Counter(old_mid)
    for offset, line in enumerate(old_mid):
        if surplus_old[line] > 0:
            surplus_old[line] -= 1
            removed.append((head + offset, line))
    for offset, line in enumerate(new_mid):
        if surplus_new[line] > 0:
            surplus_new[line] -= 1
            added.append((head + offset, line))
    return removed, added


def diff_bodies(old: str, new: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """:func:`diff_lines` of two texts' lines, splitting only from the first line that differs.

    The lines both texts start with are skipped by comparing the texts
    themselves (C-speed slices): an add to a 2 MiB MEMORY.md splits only its
    end, where splitting both sides whole and comparing 70,000 lines one by
    one took most of a read.
    """
    start = old.rfind("\n", 0, common_prefix(old, new)) + 1
    head = old.count("\n", 0, start)
    removed, added = diff_lines(old[start:].split("\n"), new[start:].split("\n"))
    if not head:
        return removed, added
    return [(head + index, line) for index, line in removed], [(head + index, line) for index, line in added]


def diff_compositions(old: Composition, new: Composition) -> SoulDiff:
    """Per-file line diff; files whose loaded bytes hash the same are skipped."""
    old_files = {f.name: f for f in old.files}
    new_files = {f.name: f for f in new.files}
    diffs = []
    for name in BOOTSTRAP_ORDER:
        before, after = old_files.get(name), new_files.get(name)
        if before is None and after is None:
            continue
        if before and after and before.body == after.body and before.digest == after.digest:
            continue  # bodies first: a digest is computed only for a file whose body is unchanged
        if before and after:
            removed, added = diff_bodies(before.body, after.body)
        else:
            removed, added = diff_lines(
                before.body.split("\n") if before else [], after.body.split("\n") if after else []
            )
        status: Literal["added", "removed", "changed"] = (
            "added" if before is None else "removed" if after is None else "changed"
        )
        diffs.append(FileDiff(name, status, tuple(removed), tuple(added)))
    return SoulDiff(tuple(diffs))


class Session:
    """The notebook's session: one frozen snapshot and the live preview beside it."""

    def __init__(self, home: str | os.PathLike[str], number: int = 1, files: FileMap = FLAT) -> None:
        self.home = home_path(home)
        self.files = files
        self.current = take_snapshot(self.home, number, files=files)

    def preview(self, host: HostProfile | None = None) -> Snapshot:
        """What the next session would load if it started now (as ``host`` would load it)."""
        return take_snapshot(self.home, self.current.number + 1, host=host, files=self.files)

    def diff(self, preview: Snapshot | None = None) -> SoulDiff:
        """What changes when the next session starts."""
        return diff_compositions(self.current.composition, (preview or self.preview()).composition)

    def advance(self, preview: Snapshot | None = None) -> Snapshot:
        """Start the next session: the preview (or a fresh one) becomes current."""
        self.current = preview if preview is not None else self.preview()
        return self.current
