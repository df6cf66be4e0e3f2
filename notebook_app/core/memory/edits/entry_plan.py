"""Entry edits planned on a file's text: which characters an entry delete or edit replaces, or why it is refused.

Pure, no I/O: the app's dry run plans on the text it shows, and
:func:`.guarded_splice.delete_entry` and :func:`.guarded_splice.edit_entry` plan on the text
under the home's lock, so what is shown and what is written cannot disagree.
Opening a home loads this, not the splice's write path.
"""

from __future__ import annotations

from dataclasses import dataclass

from notebook_app.core.home.layout import Dialect
from notebook_app.core.home.names import base_name, is_home_path
from notebook_app.core.home.reading import ENTRY_FILES
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.memory.dialect import entry_text_refusal
from notebook_app.core.text.hidden import hidden_kind


@dataclass(frozen=True)
class EntryPlan:
    """What an entry delete or edit does to a file's text, in characters: the dry run and the write share it."""

    name: str
    line: int
    start: int
    end: int
    """``text[start:end]`` goes: the line with its ending (delete) or its text (edit)."""
    inserted: str
    label: str
    """``delete line 3`` / ``edit line 3``; in a ``§`` store ``delete entry 2`` / ``edit entry 2``."""
    origin: int | None = None
    """Where the addressed entry begins when that is not ``start`` (a ``§`` entry: the splice may start inside it)."""

    @property
    def changes(self) -> bool:
        return self.end > self.start or bool(self.inserted)

    def apply(self, text: str) -> str:
        return text[: self.start] + self.inserted + text[self.end :]


def plan_entry(
    text: str | None,
    name: str,
    line: int,
    expect: str,
    new_text: str | None,
    *,
    dialect: Dialect = Dialect.LINES,
    limit: int | None = None,
) -> EntryPlan | Rejection:
    """Where line ``line`` of ``text`` is and what replaces it; refused unless it reads ``expect``.

    ``new_text`` None deletes the line and its ending; otherwise its text is
    replaced and its ending kept. In a Hermes ``§`` store (``dialect``)
    ``line`` is the entry's number as Hermes parses the file, ``expect`` its
    whole text, and the plan is the splice that gives the bytes Hermes would
    write (:func:`..sections.plan_store`, ``limit`` its character
    limit). Pure: the app's dry run calls it on the text it shows,
    :func:`delete_entry` and :func:`edit_entry` on the text under the lock.
    """
    if dialect is Dialect.SECTIONS:
        return _plan_store_entry(text, name, line, expect, new_text, limit)
    problem = _entry_problem(name, line, expect) or (
        None if new_text is None else _new_text_problem(new_text, name, line)
    )
    if problem:
        return Rejection(problem)
    if text is None:
        return Rejection(
            f"line {line} of {name} changed since you selected it: {name} is absent now; nothing was changed"
        )
    span = _line_span(text, line)
    if span is None:
        count = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
        return Rejection(
            f"there is no line {line} in {name}: it has {count} line{'s' if count != 1 else ''} now "
            f"(you expected {_quote(expect)}); nothing was changed"
        )
    start, text_end, line_end = span
    now = text[start:text_end]
    if now != expect:
        return Rejection(
            f"line {line} of {name} changed since you selected it: it was "
            f"{_quote(expect)}, it reads {_quote(now)} now; nothing was changed"
        )
    if new_text is None:
        return EntryPlan(name, line, start, line_end, "", f"delete line {line}")
    if new_text == now:
        return EntryPlan(name, line, start, start, "", f"edit line {line}")
    return EntryPlan(name, line, start, text_end, new_text, f"edit line {line}")


def _plan_store_entry(
    text: str | None, name: str, number: int, expect: str, new_text: str | None, limit: int | None
) -> EntryPlan | Rejection:
    problem = _entry_problem(name, number, expect, lines=False) or (
        None if new_text is None else _new_text_problem(new_text, name, number, lines=False)
    )
    if problem:
        return Rejection(problem)
    from notebook_app.core.memory import sections  # lazy: the write path, with a Hermes store's first entry edit

    base = base_name(name)
    op = sections.StoreOp("delete" if new_text is None else "edit", expect, new_text, index=number)
    write = sections.plan_store(text, op, name=name, limit=limit or sections.LIMITS[base])
    if isinstance(write, Rejection):
        return write
    label = f"{'delete' if new_text is None else 'edit'} entry {number}"
    origin = sections.entry_start(text or "", number)
    return EntryPlan(name, number, write.start, write.start + len(write.removed), write.inserted, label, origin)


def _line_span(text: str, line: int) -> tuple[int, int, int] | None:
    """Where line ``line`` starts, where its text ends and where its line ending ends; None if no such line.

    Lines end at ``\n`` only (a ``\r`` before it belongs to the ending), as
    the notebook numbers them; never ``str.splitlines``, which splits on more.
    """
    start = 0
    for _ in range(line - 1):
        newline = text.find("\n", start)
        if newline < 0:
            return None
        start = newline + 1
    if start >= len(text):
        return None  # past the last line (a final newline starts no line)
    newline = text.find("\n", start)
    if newline < 0:
        return start, len(text), len(text)
    text_end = newline - 1 if newline > start and text[newline - 1] == "\r" else newline
    return start, text_end, newline + 1


def _entry_problem(name: object, line: object, expect: object, *, lines: bool = True) -> str | None:
    """What is wrong with the address of an entry edit; ``lines`` False where it may be a ``§`` entry of many lines."""
    if not is_home_path(name) or base_name(str(name)) not in ENTRY_FILES:
        return f"no entries in {name!r}: entry edits work on {' and '.join(ENTRY_FILES)}"
    if not isinstance(line, int) or isinstance(line, bool) or line < 1:
        return f"line must be a line number from 1, got {line!r}"
    if not isinstance(expect, str):
        return "expect must be the line's text"
    if lines and "\n" in expect:
        return "expect is one line's text, without its line ending; it holds a line break"
    return None


def _new_text_problem(new_text: object, name: str, line: int, *, lines: bool = True) -> str | None:
    """What is wrong with an entry's new text; ``lines`` False leaves the ``- `` line's one-line rule out."""
    if not isinstance(new_text, str):
        return "the new text must be a string"
    refusal = entry_text_refusal(name, new_text) if lines else None  # the form and CLI memory add say the same
    if refusal is not None:
        return refusal.message
    if not new_text.strip():
        return (
            "the new text is empty or only whitespace; to remove line "
            f"{line}, delete the entry instead (nothing was changed)"
        )
    return None


def _quote(text: str, limit: int = 80) -> str:
    """``text`` in double quotes for a message: cut when long, hidden characters escaped."""
    shown = text if len(text) <= limit else text[:limit] + "…"
    return '"' + "".join(_escaped(char) for char in shown) + '"'


def _escaped(char: str) -> str:
    if hidden_kind(char) is None:
        return char
    return {"\t": "\\t", "\r": "\\r"}.get(char) or (
        f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}"
    )
