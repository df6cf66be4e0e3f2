"""The ``tidy`` prompt (issue 23, item 3): the agent proposes a consolidation, a person decides.

What an MCP server in review mode hands an agent that is asked to tidy its
memory: the entry files as they are NOW (not the session's frozen soul: this
is a task on the files), tidy's rules in words (the same rules as
:mod:`.rules`, with their numbers taken from there), each file's budget, the
core's own dry run as hints, and the ask: ``replace`` / ``remove`` calls of
the ``memory`` tool, whose schema does not change. Review mode queues each
call as a proposal; nothing here writes. Built here, once, so the server only
serves it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.core.home.files import FileRead, FileStatus, read_file
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.reading import MEMORY_TARGETS
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.home.soul import MAX_FILE_BYTES
from notebook_app.core.memory.dialect import dialect_for
from notebook_app.core.tidy.budget import budget_for
from notebook_app.core.tidy.model import DEFAULT_TARGET, Hunk, Kind, archive_for
from notebook_app.core.tidy.near import THRESHOLD
from notebook_app.core.tidy.parse import shown
from notebook_app.core.tidy.propose import READ_LIMIT, tidy
from notebook_app.core.tidy.rules import KEY_LIMIT

if TYPE_CHECKING:
    from notebook_app.core.hosts.profile import HostProfile

PROMPT_NAME = "tidy"
PROMPT_TITLE = "Tidy your memory (for review)"
PROMPT_DESCRIPTION = (
    "Consolidate your memory as proposals a person reviews: your MEMORY.md and USER.md as they are now, "
    "tidy's rules and the core's own dry run as hints; answer with replace / remove calls of the memory "
    "tool, which this server queues for review. Offered only in review mode."
)
HINT_LIMIT = 200
"""Hunks listed as hints at most; the rest are counted."""
ENTRY_LIMIT = 20
"""Entries of one hunk listed at most; the rest are counted."""
CALL_LIMIT = 100
"""Entries given a ready-made call at most (finding a call's unique text scans the file before it)."""
CONTEXT_LIMIT = 8
"""Lines before an entry a call's text may take to be unique; past that the entry is listed without a call."""
CALL_TEXT_LIMIT = 4096
"""Characters a suggested call's text may hold; a longer one is left for the agent to split."""
_TARGET_OF = {name: target for target, name in MEMORY_TARGETS.items()}
_BACKTICKS = re.compile(r"`+")


@dataclass(frozen=True)
class Suggestion:
    """One call the prompt gives word for word: it takes out exactly ``lines`` of ``file``, as they are now."""

    file: str
    lines: tuple[int, ...]
    call: dict[str, str]
    """The ``memory`` tool's arguments: a ``remove``, or a ``replace`` of the lines before too by those alone."""


@dataclass(frozen=True)
class TidyPrompt:
    """The prompt's text, and the calls it gives word for word (taking out what tidy's dry run names)."""

    text: str
    suggested: tuple[Suggestion, ...] = ()


def tidy_prompt(home: Path, files: FileMap = FLAT, profile: HostProfile | None = None) -> TidyPrompt:
    """The ``tidy`` prompt for the entry files of ``home`` as ``files`` maps them, read now; never writes.

    ``profile`` gives a host's per-file cap (None: the contract's 2 MiB). A file that cannot be read is
    named with the reason; the rest of the prompt stands.
    """
    texts: dict[str, str] = {}
    shown_files: list[str] = []
    for name in MEMORY_TARGETS.values():
        if not files.loads(name):
            continue
        read = read_file(files.path(home, name), limit=READ_LIMIT + 1)
        shown_files.append(_file_section(name, read, files, profile, texts))
    proposal = tidy(home, files, profile, DEFAULT_TARGET)
    archive = archive_for(files.host)
    hints, suggested = _hints(proposal.hunks, texts)
    untidied = [f"- {u.file} was not tidied: {u.reason}." for u in proposal.untidied]
    strays = sum(stray.count for stray in proposal.strays)
    parts = [
        _INTRO,
        "## Your memory, read now\n\n" + _HOW_SHOWN + "\n\n" + "\n\n".join(shown_files),
        _rules(archive),
        _HOW_TO_CALL,
        "## Hints: the core's own dry run\n\n"
        + (
            "Check each against the files above: they are hints, not orders, and rewordings beyond them are "
            "yours to find.\n\n" + "\n".join(hints)
            if hints
            else "The core's dry run finds nothing to tidy. Look for rewordings and conflicts it cannot see; "
            "if there are none, make no calls and say so."
        )
        + ("\n\n" + "\n".join(untidied) if untidied else "")
        + (f"\n\n{strays:,} lines are not entries (headings, prose): leave them as they are." if strays else ""),
    ]
    return TidyPrompt("\n\n".join(parts) + "\n", tuple(suggested))


_INTRO = (
    "# Tidy your memory: you propose, a person decides\n\n"
    "This server runs in review mode. Every `memory` call you make now is checked against the file as it is "
    "and, if valid, queued as a proposal (its answer says `queued for review`); nothing is written until a "
    "person approves it. They read this session's calls together, as one diff, and decide each: they may "
    "accept some and decline others. Approved writes load in the next session, like any memory write."
)

_HOW_SHOWN = "Each line is shown as its number, a tab, then its exact text; the number and the tab are not in the file."


def _file_section(name: str, read: FileRead, files: FileMap, profile: HostProfile | None, texts: dict[str, str]) -> str:
    target = _TARGET_OF[name]
    head = f"### {name} (target {json.dumps(target)})"
    if read.status is FileStatus.ABSENT:
        return f"{head}\n\n{name} does not exist yet: there is nothing to tidy in it."
    if not read.status.loads:
        return f"{head}\n\n{read.describe()}: it cannot be read, so there is nothing to tidy in it."
    text = read.data.decode("utf-8", "surrogateescape")
    if read.status is FileStatus.LINK:  # the tool refuses to edit through a link: no call is offered for it
        head += f"; a symbolic link to {read.link_target}, which the memory tool will not edit: propose nothing here"
    else:
        texts[name] = text
    budget = budget_for(name, files, profile)
    dialect = dialect_for(name, files.dialect, text)
    size = len(read.data) if isinstance(dialect, Rejection) else budget.size(text, dialect)
    share = f"{size / budget.cap:.0%}" if budget.cap else "?"
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    width = len(str(len(lines)))
    body: list[str] = []
    used = 0
    for number, line in enumerate(lines, 1):
        used += len(line.encode("utf-8", "surrogateescape")) + 1
        if used > MAX_FILE_BYTES:
            body.append(
                f"… lines {number:,}–{len(lines):,} are not shown: past the contract's "
                f"{MAX_FILE_BYTES:,}-byte cap, which is all a session loads of a file"
            )
            break
        body.append(f"{number:>{width}}\t{shown(line)}")
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    said = f"{len(lines):,} line{'s' if len(lines) != 1 else ''}, {size:,} of its budget of {budget.said()}: {share}"
    return f"{head}: {said}\n\n{fence}text\n" + "\n".join(body) + f"\n{fence}"


def _rules(archive: str) -> str:
    removed = " and ".join(repr(kind.value) for kind in Kind if kind.removes)
    return (
        "## The rules (the same as `persona-notebook tidy`)\n\n"
        f"1. Delete nothing but exact copies and empty lines (the dry run's {removed} hunks). An entry that "
        "repeats an earlier one word for word: `remove` the later copy. A bullet with no text, and the second "
        "and later blank lines of a run of blank lines: `remove` them. Every other `remove` must follow a "
        "`replace` that carries what the removed entry said into the entry that stays, so no fact is lost.\n"
        "2. Near duplicates, one fact said twice in other words (the core finds those whose words are nearly "
        f"all another's: rapidfuzz's token_set_ratio at least {THRESHOLD} after case-folding and dropping "
        "punctuation and stop words; deeper rewordings are yours to see): merge them. `replace` the entry that "
        "says the most with one wording that holds everything both say, then `remove` the other.\n"
        "3. Superseded or conflicting facts, entries with the same key (the text before the first `:`, at most "
        f"{KEY_LIMIT} characters, case-folded) and different values: the newer is kept, "
        "the one the home's history says was written last, "
        "else the later line (the hints below name it). "
        "Merge the older into it: `replace` the newer entry with one that keeps the older value too "
        '("timezone: IST (was UTC)"), then `remove` the older line.\n'
        "4. Over budget, a file past the budget shown beside it: do not remove entries to make room. Moving the "
        f"least recently written entries to the archive ({archive}, a file no session loads) is done by the "
        "person with `persona-notebook tidy`; merging duplicates is how you help.\n"
        "5. Lines that are not entries (headings, prose) stay as they are.\n"
        "6. Add nothing: this is a tidy, not a time to learn new facts."
    )


_HOW_TO_CALL = (
    "## How to call\n\n"
    'Use the `memory` tool\'s `replace` and `remove` actions only, with `"target": "self"` for MEMORY.md and '
    '`"target": "user"` for USER.md. Both act on the FIRST occurrence of `text` in the file, so:\n\n'
    "- `text` is exact file text: a whole line with its `- ` and its line break (`\\n`) when it has one, so no "
    "part of a line is left behind.\n"
    "- When that text also occurs earlier in the file (an exact copy, a short entry, a blank line), include "
    "the line or lines before it and `replace` the whole with those lines alone.\n"
    "- Each call is checked against the file as it is now, and approved calls apply in the order you made "
    "them: touch each line in one call only.\n"
    "- A call whose `text` is not in the file is an error and queues nothing: read the answer of each call.\n\n"
    "When you are done, say in a few words what you proposed and why."
)


def _hints(hunks: tuple[Hunk, ...], texts: dict[str, str]) -> tuple[list[str], list[Suggestion]]:
    lines: list[str] = []
    suggested: list[Suggestion] = []
    starts: dict[str, list[int]] = {}
    taken: dict[str, int] = {}
    """Per file, where the last suggested call's text ends: a call never reaches into an earlier one's."""
    for hunk in hunks[:HINT_LIMIT]:
        lines.append(f"- {hunk.kind.value}, {hunk.file} (hunk {hunk.id}): {hunk.reason}.")
        if hunk.kind is Kind.OVER_BUDGET:
            continue  # the person's to apply; thousands of entries are not listed
        kept = dict(hunk.evidence).get("kept")
        if kept is not None and hunk.kind in (Kind.NEAR_DUPLICATE, Kind.SUPERSEDED):
            lines.append(f"  - kept: {kept}")
        for entry in hunk.entries[:ENTRY_LIMIT]:
            lines.append(f"  - line {entry.line}: {entry.text}" if entry.text else f"  - line {entry.line}: (empty)")
        if len(hunk.entries) > ENTRY_LIMIT:
            lines.append(f"  - … and {len(hunk.entries) - ENTRY_LIMIT:,} more lines of this hunk, not listed")
        text = texts.get(hunk.file)
        if text is None:
            continue
        line_starts = starts.setdefault(hunk.file, _line_starts(text))
        for first, raw, count in _runs(hunk):
            if len(suggested) >= CALL_LIMIT:
                break
            found = _removal(text, line_starts, first, raw, taken.get(hunk.file, 0))
            if found is None:
                continue
            action, fields, end = found
            taken[hunk.file] = end
            call = {"action": action, "target": _TARGET_OF[hunk.file], **fields}
            suggested.append(Suggestion(hunk.file, tuple(range(first, first + count)), call))
            verb = "takes it out" if hunk.kind.removes else "takes it out, once what it says is merged"
            lines.append(f"    this call {verb}: {json.dumps(call, ensure_ascii=False)}")
    if len(hunks) > HINT_LIMIT:
        lines.append(f"- … and {len(hunks) - HINT_LIMIT:,} more hunks of the same kinds, not listed.")
    return lines, suggested


def _runs(hunk: Hunk) -> list[tuple[int, str, int]]:
    """The hunk's entries as runs of consecutive lines, each taken out in one call: first line, text, count."""
    runs: list[tuple[int, str, int]] = []
    last = -1
    for entry in hunk.entries:
        if runs and entry.line == last + 1 and runs[-1][1].endswith("\n"):
            runs[-1] = (runs[-1][0], runs[-1][1] + entry.raw, runs[-1][2] + 1)
        else:
            runs.append((entry.line, entry.raw, 1))
        last = entry.line
    return runs


def _line_starts(text: str) -> list[int]:
    return [0, *(match.end() for match in re.finditer("\n", text))]


def _removal(text: str, starts: list[int], line: int, raw: str, floor: int) -> tuple[str, dict[str, str], int] | None:
    """The call that takes out exactly ``raw`` at line ``line``, and where its text ends.

    A ``remove`` of ``raw`` when its text first occurs there; else a ``replace`` of it and the lines before
    it, as many as make the text first occur there, with those lines alone. None when the file no longer
    holds ``raw`` there, when that text would reach back before ``floor`` (into an earlier call's) or more
    than ``CONTEXT_LIMIT`` lines, when it is longer than ``CALL_TEXT_LIMIT``, or when it holds bytes that
    are not UTF-8 (no call can carry them).
    """
    if line > len(starts) or not raw:
        return None
    offset = starts[line - 1]
    end = offset + len(raw)
    if text[offset:end] != raw:
        return None
    first = line - 1
    while text.find(text[starts[first] : end], 0, end) != starts[first]:
        first -= 1  # line 1's text starts the file, so this ends there at the latest
        if starts[first] < floor or line - 1 - first > CONTEXT_LIMIT:
            return None  # into an earlier call's lines, or too long a text to ask anyone to copy
    if end - starts[first] > CALL_TEXT_LIMIT or shown(text[starts[first] : end]) != text[starts[first] : end]:
        return None
    if first == line - 1:
        return "remove", {"text": raw}, end
    before = text[starts[first] : offset]
    return "replace", {"text": before + raw, "with": before}, end
