"""The rules of issue 23, applied to one parsed entry file, in order; an entry one rule takes, no later rule sees.

Exact duplicates (the later copies removed), empty bullets and blank runs
(removed), near duplicates and superseded facts (moved to the archive), then,
when what is left is still over the host's cap, the earliest entries moved
until it is at the target share of it.
"""

from __future__ import annotations

import re
from collections import defaultdict

from notebook_app.core.home.layout import Dialect
from notebook_app.core.memory import sections
from notebook_app.core.tidy import near
from notebook_app.core.tidy.ages import Ages, oldest_first, written
from notebook_app.core.tidy.budget import Budget, measure
from notebook_app.core.tidy.model import Entry, Hunk, Kind
from notebook_app.core.tidy.parse import Parsed

SECTIONS = Dialect.SECTIONS
KEY_LIMIT = 40
"""A key is the text before an entry's first ``:``, at most this many characters (issue 23)."""
_SPACES = re.compile(r"\s+")


def _where(entry: Entry, dialect: Dialect) -> str:
    return f"line {entry.line}" if dialect is Dialect.LINES else f"the entry on line {entry.line}"


def _lines(entries: tuple[Entry, ...] | list[Entry]) -> str:
    numbers = [str(entry.line) for entry in entries]
    return f"line {numbers[0]}" if len(numbers) == 1 else "lines " + ", ".join(numbers)


def exact_duplicates(parsed: Parsed, claimed: set[int]) -> list[Hunk]:
    first: dict[str, Entry] = {}
    later: defaultdict[str, list[Entry]] = defaultdict(list)
    for entry in parsed.entries:
        if entry.text in first:
            later[entry.text].append(entry)
        else:
            first[entry.text] = entry
    hunks = []
    for text, copies in later.items():
        kept = first[text]
        claimed.update(entry.line for entry in copies)
        hermes = "; Hermes keeps the first and drops the rest at its next write" if parsed.dialect is SECTIONS else ""
        hunks.append(
            Hunk(
                Kind.EXACT_DUPLICATE,
                parsed.name,
                tuple(copies),
                f"{_lines(copies)} of {parsed.name} repeat{'s' if len(copies) == 1 else ''} "
                f"{_where(kept, parsed.dialect)} word for word: the later "
                f"cop{'y is' if len(copies) == 1 else 'ies are'} removed{hermes}",
                (("kept", f"line {kept.line}"), ("copies", str(len(copies)))),
            )
        )
    return hunks


def empties(parsed: Parsed, claimed: set[int]) -> list[Hunk]:
    hunks = []
    for entry in parsed.empty_bullets:
        claimed.add(entry.line)
        reason = f"line {entry.line} of {parsed.name} is a bullet with no text: it is removed"
        hunks.append(Hunk(Kind.EMPTY, parsed.name, (entry,), reason, (("what", "an empty bullet"),)))
    for run in parsed.blank_runs:
        claimed.update(entry.line for entry in run)
        reason = (
            f"{_lines(run)} of {parsed.name} {'is a blank line' if len(run) == 1 else 'are blank lines'} after "
            f"the blank line {run[0].line - 1}: {'it is' if len(run) == 1 else 'they are'} removed, "
            "one blank line stays"
        )
        hunks.append(Hunk(Kind.EMPTY, parsed.name, run, reason, (("what", "a run of blank lines"),)))
    return hunks


def near_duplicates(parsed: Parsed, claimed: set[int], archive: str) -> list[Hunk]:
    live = [entry for entry in parsed.entries if entry.line not in claimed]
    sets = [near.words(entry.text) for entry in live]
    partners: defaultdict[int, set[int]] = defaultdict(set)
    for i, j in near.near_pairs(sets):
        partners[i].add(j)
        partners[j].add(i)
    # the entry whose words hold the others' is kept: most words, then the longest, then the earliest
    order = sorted(partners, key=lambda i: (-len(sets[i]), -len(live[i].text), live[i].line))
    done: set[int] = set()
    hunks = []
    for i in order:
        if i in done:
            continue
        done.add(i)
        moved = sorted((j for j in partners[i] if j not in done), key=lambda j: live[j].line)
        if not moved:
            continue
        done.update(moved)
        kept = live[i]
        entries = tuple(live[j] for j in moved)
        claimed.update(entry.line for entry in entries)
        ratios = ", ".join(str(near.score(sets[i], sets[j])) for j in moved)
        hunks.append(
            Hunk(
                Kind.NEAR_DUPLICATE,
                parsed.name,
                entries,
                f"{_lines(entries)} of {parsed.name} say{'s' if len(entries) == 1 else ''} what "
                f"{_where(kept, parsed.dialect)} says, in nearly the same words (token set ratio {ratios}): "
                f"line {kept.line} is kept, {'it moves' if len(entries) == 1 else 'they move'} to {archive}",
                (("ratio", ratios), ("kept", f"line {kept.line}: {kept.text}")),
            )
        )
    return hunks


def key_of(text: str) -> tuple[str, str] | None:
    """An entry's key (the text before its first ``:``, at most 40 characters, case-folded) and its value.

    None when there is no ``:``, nothing on either side, the key is too long, or the colon is a URL's
    (``https://``): those are sentences and links, not facts with a key.
    """
    key, colon, value = text.partition(":")
    key, value = _SPACES.sub(" ", key).strip().casefold(), value.strip()
    if not colon or not key or not value or len(key) > KEY_LIMIT or value.startswith("//"):
        return None
    return key, value


def superseded(parsed: Parsed, claimed: set[int], archive: str, ages: Ages) -> list[Hunk]:
    """Facts with one key and different values: the newest is kept, by when the history says each was written,
    else (no time for one of them, or two the same) by the later line."""
    by_key: defaultdict[str, list[tuple[Entry, str]]] = defaultdict(list)
    for entry in parsed.entries:
        if entry.line not in claimed and (pair := key_of(entry.text)) is not None:
            by_key[pair[0]].append((entry, pair[1]))
    hunks = []
    for key, found in by_key.items():
        times = [written(entry, ages) for entry, _ in found]
        timed = None not in times and len(set(times)) == len(times)
        newest = max(range(len(found)), key=lambda i: (times[i], found[i][0].line) if timed else found[i][0].line)
        kept, value = found[newest]
        older = tuple(entry for entry, then in found if entry is not kept and then.casefold() != value.casefold())
        if not older:
            continue
        claimed.update(entry.line for entry in older)
        newer_by = f"its write time, {times[newest]}" if timed else "the later line"
        said = f"written last ({times[newest]})" if timed else "the later line"
        hunks.append(
            Hunk(
                Kind.SUPERSEDED,
                parsed.name,
                older,
                f"{_lines(older)} of {parsed.name} give{'s' if len(older) == 1 else ''} '{key}' another value than "
                f"line {kept.line}, {said}, which is kept as the newer: "
                f"{'it moves' if len(older) == 1 else 'they move'} to {archive}",
                (("key", key), ("kept", f"line {kept.line}: {kept.text}"), ("newer by", newer_by)),
            )
        )
    return hunks


def _cost(entry: Entry, parsed: Parsed, budget: Budget) -> int:
    """What taking ``entry`` out saves, in the budget's unit: its line, or a ``§`` entry and one separator."""
    if parsed.dialect is Dialect.SECTIONS:
        return len(entry.raw) + len(sections.DELIMITER)

    return measure(entry.raw, budget.unit)


def over_budget(
    parsed: Parsed, claimed: set[int], budget: Budget, target: float, archive: str, ages: Ages
) -> list[Hunk]:
    """A file still over its cap: the entries least recently written (by the history, else the earliest lines)
    move until it is at ``target`` of the cap."""
    size = budget.size(parsed.text, parsed.dialect)
    lines = parsed.lines
    over = size > budget.cap or (budget.lines is not None and lines > budget.lines)
    if not over:
        return []
    taken = [e for e in (*parsed.entries, *parsed.empty_bullets, *(b for r in parsed.blank_runs for b in r))]
    for entry in taken:
        if entry.line in claimed:
            size -= _cost(entry, parsed, budget)
            lines -= 1 if parsed.dialect is Dialect.LINES else 0
    goal = int(budget.cap * target)
    line_goal = int(budget.lines * target) if budget.lines is not None else None
    moved: list[Entry] = []
    for entry in sorted(parsed.entries, key=lambda entry: oldest_first(entry, ages)):
        if size <= goal and (line_goal is None or lines <= line_goal):
            break
        if entry.line in claimed:
            continue
        moved.append(entry)
        size -= _cost(entry, parsed, budget)
        lines -= entry.raw.count("\n") if parsed.dialect is Dialect.LINES else 0
    if not moved:
        return []
    claimed.update(entry.line for entry in moved)
    moved.sort(key=lambda entry: entry.line)
    share = f"{round(target * 100)}%"
    by = "write time, then line order" if any(written(entry, ages) for entry in parsed.entries) else "line order"
    return [
        Hunk(
            Kind.OVER_BUDGET,
            parsed.name,
            tuple(moved),
            f"{parsed.name} is over its cap of {budget.said()}: its {len(moved):,} least recently written "
            f"entr{'y moves' if len(moved) == 1 else 'ies move'} to {archive}, which brings it to {share} of the cap",
            (("cap", budget.said()), ("target", share), ("after", f"{max(size, 0):,}"), ("oldest by", by)),
        )
    ]
