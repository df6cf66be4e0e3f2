"""A file's entry dialect: how its entries are written, and what a human write may put in one (spec §9).

Pure, no I/O. The human side (the notebook's form, CLI ``memory add``, entry
edits) asks :func:`entry_text_refusal` before it writes an entry, so all of
them refuse the same text with the same words. The agent's ``memory`` tool
never asks: it keeps the contract, which accepts a line break, as the
reference does.
"""

from __future__ import annotations

from dataclasses import dataclass

from notebook_app.core.home.layout import Dialect
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.text.newlines import universal

SEPARATOR = "\n§\n"
"""Hermes's entry separator (:data:`.sections.DELIMITER`)."""


@dataclass(frozen=True)
class EntryDialect:
    """How a file separates its entries; what one entry may hold."""

    name: str
    """How it is said in a message: ``'- ' line``."""
    line_breaks: bool
    """Whether one entry may span lines (Hermes' ``§``-separated entries may; ``- `` lines may not)."""

    def refusal(self, filename: str, text: str) -> Rejection | None:
        """Why ``text`` cannot be one entry of ``filename`` in this dialect; None when it can."""
        if not self.line_breaks and ("\n" in text or "\r" in text):
            return Rejection(
                f"the text holds a line break, and each entry of {filename} is one {self.name}; nothing was written"
            )
        return None


DASH_LINES = EntryDialect("'- ' line", line_breaks=False)
"""toolnexus, OpenClaw and Claude Code's MEMORY.md: one ``- text`` line per entry."""


def dialect_in(text: str | None) -> Dialect | None:
    """The dialect a file's content shows, for when no host is known (spec §9); None when it shows none or both.

    Hermes's ``\n§\n`` separator with no line starting ``- ``: its ``§``
    entries. ``- `` lines with no separator: the contract's lines. Both
    (a ``- `` line glued after a ``§`` entry) or neither: the content cannot say.
    """
    if not text:
        return None
    text = universal(text)  # as Hermes reads a store
    sections = SEPARATOR in text
    lines = text.startswith("- ") or "\n- " in text
    if sections and not lines:
        return Dialect.SECTIONS
    if lines and not sections:
        return Dialect.LINES
    return None


def dialect_for(name: str, declared: Dialect | None, text: str | None) -> Dialect | Rejection:
    """The dialect a human write keeps in ``name``: the host's (``declared``), else what its content shows.

    Content that shows both dialects, with no host to say which, is refused
    rather than guessed; content that shows neither is the contract's lines.
    """
    if declared is not None:
        return declared
    found = dialect_in(text)
    if found is None and text and SEPARATOR in universal(text):
        return Rejection(
            f"{name} holds both '- ' lines and Hermes's '§'-separated entries, and no host says which it is: "
            "open the home with --host to say whose file it is; nothing was written"
        )
    return found or Dialect.LINES


def dialect_of(filename: str) -> EntryDialect:
    """The dialect a human write keeps in ``filename``.

    Every entry file the human side writes today is a ``- `` file (the
    notebook writes no Hermes home); a host that separates entries otherwise
    gets its dialect here, beside this one.
    """
    return DASH_LINES


def entry_text_refusal(filename: str, text: str) -> Rejection | None:
    """Why a human write may not put ``text`` as one entry of ``filename``; None when it may."""
    return dialect_of(filename).refusal(filename, text)
