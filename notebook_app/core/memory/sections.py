"""Hermes's ``§`` entry store, written as Hermes's own ``MemoryStore`` writes it (spec §9). Pure, no I/O.

Hermes Agent 0.19.0 keeps ``memories/MEMORY.md`` and ``memories/USER.md`` as
entries joined by ``\\n§\\n`` (``tools/memory_tool.py``: ``ENTRY_DELIMITER``,
``_read_file``, ``_write_file``). Its every write re-reads the entries (repeats
dropped), changes the list and writes their join, with no final newline. A
human write of ours gives exactly those bytes (the goldens in
``tests/hosts/goldens/hermes@0.19.0/ops/`` are Hermes's own), but as the
smallest splice of the file that gets there: an add to a clean store is an
append of ``\\n§\\n<text>``; a replace touches only that entry's bytes.

Hermes reads a store with ``Path.read_text``, whose universal newlines make
``\r\n`` and a lone ``\r`` a ``\n``: the entries of a CRLF store are its
lines', and Hermes's next write of it has ``\n`` line ends throughout. So
every function here reads ``text`` as Hermes does (:func:`hermes_text`), and
a write to such a store gives Hermes's bytes too, its splice spanning the
line ends it changes.

Text Hermes's scan blocks (a character, ``hermes-0.19.0.toml``'s
``blocked_characters``, or a threat rule, ``hosts/hermes/threats.py``) is
refused as Hermes's own add and replace refuse it.
Two things we refuse where Hermes goes ahead, because both lose data: a store
that does not round-trip through Hermes's parser (Hermes's add rewrites it
wholesale, and its drift guard only stops a replace or remove), and text that
holds the separator itself (Hermes would store one entry that reads back as
two).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from notebook_app.core.home.refusals import Rejection
from notebook_app.core.hosts.hermes.host import default_limits
from notebook_app.core.hosts.hermes.load import blocked_write
from notebook_app.core.record.log.redaction import masked_text
from notebook_app.core.text.newlines import original_index, universal

DELIMITER = "\n§\n"
"""Hermes's ``ENTRY_DELIMITER``: a line holding only ``§`` between two entries."""
LIMITS: dict[str, int] = dict(default_limits())
"""Hermes's default character limits (``MemoryStore.__init__``), from its host package (its TOML); ``config.yaml``'s
``memory`` section overrides."""

StoreAction = Literal["add", "replace", "remove", "edit", "delete"]


def hermes_text(text: str) -> str:
    """A store's text as Hermes reads it (``Path.read_text``'s universal newlines): ``\r\n`` and ``\r`` are ``\n``."""
    return universal(text)


def entries(text: str | None) -> list[str]:
    """The entries Hermes parses from a store's text, in order, repeats kept (``_read_file``)."""
    if not text or not text.strip():
        return []
    return [entry for entry in (part.strip() for part in hermes_text(text).split(DELIMITER)) if entry]


def entry_start(text: str, number: int) -> int:
    """Where entry ``number`` (from 1, as :func:`entries` counts) begins in ``text``, in characters of ``text``."""
    at = 0
    for part in hermes_text(text).split(DELIMITER):
        if part.strip():
            number -= 1
            if number == 0:
                return original_index(text, at + len(part) - len(part.lstrip()))
        at += len(part) + len(DELIMITER)
    raise IndexError("no such entry")


def entry_spans(text: str) -> list[tuple[int, int, int, str]]:
    """Each entry :func:`entries` parses from ``text`` (as :func:`hermes_text` gives it), in one pass: where its
    stripped text starts and ends in that text, the line it begins on, and the text."""
    found: list[tuple[int, int, int, str]] = []
    at = 0
    line = 1
    for part in text.split(DELIMITER):
        entry = part.strip()
        if entry:
            start = at + len(part) - len(part.lstrip())
            found.append((start, start + len(entry), line + part.count("\n", 0, start - at), entry))
        line += part.count("\n") + DELIMITER.count("\n")
        at += len(part) + len(DELIMITER)
    return found


def joined(items: list[str]) -> str:
    """The bytes Hermes writes for ``items`` (``_write_file``): their join, no final newline."""
    return DELIMITER.join(items)


@dataclass(frozen=True)
class Usage:
    """Hermes's meter of a store: what its memory tool counts (the entries joined, in code points) and its limit."""

    chars: int
    limit: int

    @property
    def percent(self) -> int:
        """As Hermes rounds it: down, and never past 100 (``_success_response``)."""
        return min(100, int(self.chars / self.limit * 100)) if self.limit > 0 else 0

    @property
    def over(self) -> int:
        """Characters past the limit (0 within it): Hermes refuses every add until the store is shorter."""
        return max(0, self.chars - self.limit)

    def __str__(self) -> str:
        """Hermes's own words: ``12% — 264/2,200 chars``."""
        return f"{self.percent}% — {self.chars:,}/{self.limit:,} chars"


def measure(items: list[str], limit: int) -> Usage:
    """Hermes's meter of the entries ``items`` against ``limit``."""
    return Usage(len(joined(items)) if items else 0, limit)


def usage(items: list[str], limit: int) -> str:
    """Hermes's meter in its words: ``12% — 264/2,200 chars``."""
    return str(measure(items, limit))


def store_usage(text: str | None, limit: int) -> Usage:
    """Hermes's meter of a store's text as Hermes loads it: its entries, repeats dropped (``load_from_disk``)."""
    return measure(list(dict.fromkeys(entries(text))), limit)


def drift(text: str | None, name: str, limit: int) -> str | None:
    """Why Hermes's drift guard (``_detect_external_drift``) calls ``text`` not its own, in words; None when clean.

    Hermes's two signals: the stripped text is not its entries joined back,
    or one entry is longer than the whole store's limit.
    """
    if not text or not text.strip():
        return None
    text = hermes_text(text)
    parsed = entries(text)
    if text.strip() != joined(parsed):
        return (
            f"{name} does not round-trip through Hermes's memory parser: it holds text between entries "
            "that Hermes's next write would change (a blank entry, or a '§' line not alone between two entries)"
        )
    longest = max(range(len(parsed)), key=lambda i: len(parsed[i]))
    if len(parsed[longest]) > limit:
        return (
            f"entry {longest + 1} of {name} is {len(parsed[longest]):,} characters, over the store's "
            f"{limit:,}-character limit: Hermes reads that as content added outside its memory tool"
        )
    return None


@dataclass(frozen=True)
class StoreOp:
    """One human write to a ``§`` store: Hermes's add / replace / remove, or our entry edit / delete by number."""

    action: StoreAction
    text: str
    """add: the entry; replace/remove: text an entry contains; edit/delete: the entry's whole text, as expected."""
    new: str | None = None
    """replace and edit: what the entry becomes."""
    index: int | None = None
    """edit and delete: the entry's number (from 1) as Hermes parses the file, repeats counted."""


@dataclass(frozen=True)
class StoreWrite:
    """What a write makes of the store: Hermes's bytes, and the smallest splice of the old text that gives them."""

    result: str
    start: int
    removed: str
    inserted: str
    message: str
    """Hermes's own words for it: ``Entry added.``, ``Entry replaced.``, ``Entry removed.``."""
    usage: str
    entry: int
    """The number (from 1) of the entry written, or of the one removed."""
    was: str | None = None
    """replace, remove, edit, delete: the whole entry as it read before (the one that holds the text searched)."""

    @property
    def is_append(self) -> bool:
        return not self.removed and self.start == len(self.result) - len(self.inserted)


def plan_store(text: str | None, op: StoreOp, *, name: str, limit: int) -> StoreWrite | Rejection:
    """The write ``op`` makes to a store whose text is ``text`` (None: absent), or why it is refused.

    The result is what Hermes's ``MemoryStore`` would write for the same
    operation (its add, replace and remove; edit and delete are its replace
    and remove aimed at one entry by number); the refusals are in its words
    where it has them.
    """
    old = text or ""
    seen = hermes_text(old)
    problem = drift(seen, name, limit)
    if problem is not None:
        return Rejection(
            f"Refusing to write {name}: {problem}. Nothing was written; "
            "the doctor offers to normalise it as Hermes would"
        )
    current = list(dict.fromkeys(entries(seen)))  # Hermes re-reads with repeats dropped
    planned = _apply(current, entries(seen), op, limit)
    if isinstance(planned, Rejection):
        return planned
    after, message, at = planned
    result = joined(after)
    if entries(result) != after:  # never write what Hermes would read back otherwise: no mixed dialects
        return Rejection(f"Hermes would not read {name} back as these entries; nothing was written")
    start, removed, inserted = _splice(old, result)
    was = None if op.action == "add" else current[at]
    return StoreWrite(result, start, removed, inserted, message, usage(after, limit), at + 1, was)


def _apply(current: list[str], parsed: list[str], op: StoreOp, limit: int) -> tuple[list[str], str, int] | Rejection:
    if op.action == "add":
        content = op.text.strip()
        refusal = _new_entry_problem(content, current, None)
        if refusal:
            return Rejection(refusal)
        after = [*current, content]
        total = len(joined(after))
        if total > limit:
            return Rejection(
                f"Memory at {len(joined(current)):,}/{limit:,} chars. Adding this entry ({len(content)} chars) "
                "would exceed the limit. Nothing was written"
            )
        return after, "Entry added.", len(after) - 1
    if op.action in ("replace", "remove"):
        needle = op.text.strip()
        if not needle:
            return Rejection("old_text cannot be empty.")
        matches = [i for i, entry in enumerate(current) if needle in entry]
        if not matches:
            return Rejection(f"No entry matched '{needle}'. Nothing was written")
        if len({current[i] for i in matches}) > 1:
            return Rejection(f"Multiple entries matched '{needle}'. Be more specific. Nothing was written")
        at = matches[0]
    else:
        if op.index is None or not 1 <= op.index <= len(parsed):
            count = len(parsed)
            return Rejection(
                f"there is no entry {op.index} in this store: it has {count} entr{'y' if count == 1 else 'ies'} "
                "now; nothing was changed"
            )
        if parsed[op.index - 1] != op.text:
            return Rejection(
                f"entry {op.index} changed since you selected it: it reads {parsed[op.index - 1]!r} now; "
                "nothing was changed"
            )
        at = current.index(op.text)
        if parsed.index(op.text) != op.index - 1:
            return Rejection(
                f"entry {op.index} repeats entry {parsed.index(op.text) + 1}, and Hermes keeps only the first "
                "of them; edit that one. Nothing was changed"
            )
    if op.action in ("remove", "delete"):
        return current[:at] + current[at + 1 :], "Entry removed.", at
    content = (op.new or "").strip()
    if not content:
        return Rejection("new_content cannot be empty. Use 'remove' to delete entries.")
    refusal = _new_entry_problem(content, current, at)
    if refusal:
        return Rejection(refusal)
    after = [*current]
    after[at] = content
    total = len(joined(after))
    if total > limit:
        return Rejection(
            f"Replacement would put memory at {total:,}/{limit:,} chars. Shorten the new content, or remove "
            "other entries to make room. Nothing was written"
        )
    return after, "Entry replaced.", at


def whole_entry_said(action: str, text: str, write: StoreWrite, *, limit: int = 120) -> str:
    """What a replace or remove did in a ``§`` store, in words: it acts on the whole entry holding ``text``
    (``removed the whole entry that holds 'Fridays': Deploys on Fridays are forbidden``); "" for an add.
    A long entry is shown to ``limit`` characters, its line breaks as ``⏎``."""
    if write.was is None or action not in ("replace", "remove"):
        return ""
    entry = shown_entry(write.was, limit)
    if action == "remove":
        return f"removed the whole entry that holds {text.strip()!r}: {entry}"
    new = shown_entry(entries(write.result)[write.entry - 1], limit)
    return f"replaced the whole entry that holds {text.strip()!r} ({entry}) with: {new}"


def shown_entry(entry: str, limit: int = 120) -> str:
    """An entry as our words show it: a secret in it masked (never printed in full), its line breaks as ``⏎``,
    cut to ``limit`` characters with ``…``."""
    flat = masked_text(entry)[0].replace("\n", " ⏎ ")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def text_problem(content: str) -> str | None:
    """Why ``content`` cannot be one ``§`` entry whatever the store holds: a line of it is the separator."""
    if DELIMITER.strip() in content.split("\n"):
        return (
            "the text holds a line that is only '§', Hermes's entry separator: Hermes would read it back as "
            "two entries. Nothing was written"
        )
    return None


def blocked_problem(content: str) -> str | None:
    """Why ``content`` cannot be written as an entry at all: it holds a character Hermes's scan blocks."""
    if (blocked := blocked_write(content)) is None:
        return None
    return (
        f"{blocked} Hermes's own memory tool refuses it, and an entry holding it loads as Hermes's "
        "[BLOCKED: …] placeholder, not as its text. Nothing was written"
    )


def _new_entry_problem(content: str, current: list[str], replacing: int | None) -> str | None:
    if not content:
        return "Content cannot be empty."
    if (problem := text_problem(content)) is not None:
        return problem
    if (blocked := blocked_problem(content)) is not None:
        return blocked
    others = [entry for i, entry in enumerate(current) if i != replacing]
    if content in others:
        return "Entry already exists (no duplicate added)."
    return None


def _splice(old: str, new: str) -> tuple[int, str, str]:
    """The smallest (start, removed, inserted) that turns ``old`` into ``new``: their common ends kept."""
    limit = min(len(old), len(new))
    start = 0
    while start < limit and old[start] == new[start]:
        start += 1
    end = 0
    while end < limit - start and old[len(old) - 1 - end] == new[len(new) - 1 - end]:
        end += 1
    return start, old[start : len(old) - end], new[start : len(new) - end]
