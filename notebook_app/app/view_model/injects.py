"""What a host injects next session, in words for the ``L`` view: the header, a row per file, its text cut.

The load is the core's (:func:`...core.hosts.load_as`), read in a worker with
its tokens counted (:func:`read_injects`); the rest is pure words from it.
The text of a file is shown as the host injects it, with one ``✂`` row where
the cut falls (just before the host's first marker, or at the end when the
host adds none). A file longer than :data:`SHOWN_LINES` shows the lines
around its cut, the rest counted, never silently left out.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.core.hostbase.registry import host as registered

if TYPE_CHECKING:
    from notebook_app.core.hosts.injected import HostLoad, InjectedPart

TOKENIZER = "o200k_base"
SHOWN_LINES = 300
"""Lines of a file's injected text the view shows; around the cut when there is one."""
LINE_CHARS = 400
"""Characters of one line shown; a longer one ends in ``…`` (its length is in the row above)."""

UNIT_WORDS = {"bytes": "bytes", "utf16": "UTF-16 units", "codepoints": "characters"}


@dataclass(frozen=True)
class Injects:
    """A host's load, with the tokens of all it injects."""

    load: HostLoad
    tokens: int


def read_injects(home: str | os.PathLike[str], spec: str | None, kind: str | None = None) -> Injects | str:
    """The load of host ``spec`` from ``home`` (OpenClaw's in a ``kind`` session; None: main) and its tokens, or
    the error words; run in a worker."""
    from notebook_app.core.hosts.named import load_as  # lazy: a host's loader
    from notebook_app.core.text.tokens import count_tokens  # lazy: the tokenizer

    load = load_as(Path(home), spec, session_kind=kind)
    if isinstance(load, str):
        return load
    tokens = sum(count_tokens(part.injected, TOKENIZER) for part in load.parts if part.injected is not None)
    return Injects(load, tokens)


def nothing_loaded(injects: Injects) -> str:
    """What the text pane says when the host builds no part at all from the home (nothing to select)."""
    load = injects.load
    title = " ".join(w for w in (registered(load.host).title, load.version) if w)
    return f"{title} loads nothing from this home next session: none of the files it reads is there and readable."


def header(injects: Injects, home_label: str, standing: str | None = None) -> str:
    """``HOST VERSION · N of CAP UNIT · T tokens (o200k_base)`` (OpenClaw's session kind after its version), then
    what the home opened is read as, then (``standing``) that the installed release is shown as another loads it."""
    load = injects.load
    title = " ".join(w for w in (registered(load.host).title, load.version) if w)
    kind = getattr(load, "kind", None)  # OpenClaw's load says the kind of session it is for
    if kind:
        title = f"{title} · {kind} session"
    unit = UNIT_WORDS[load.unit.value]
    cap = load.caps.get("cap")
    size = f"{load.injected_total:,} of {cap:,} {unit}" if cap else f"{load.injected_total:,} {unit}"
    if cap and (file_cap := load.caps.get("file_cap")):  # the budget's other half, beside the total's
        size += f", {file_cap:,} per file"
    role = registered(load.host).home_words
    said = f"\n{standing[:1].upper()}{standing[1:]}" if standing else ""
    return f"{title} · {size} · {injects.tokens:,} tokens ({TOKENIZER})\n{home_label} read as {role}{said}"


STATUS_WORDS = {
    "injected": "injected",
    "cut": "cut",
    "missing": "missing",
    "skipped": "not loaded",
    "unreadable": "unreadable",
    "seeded": "seeded",
    "failed": "load fails",
}


def dropped(part: InjectedPart) -> int | None:
    return part.cut.get("dropped") if part.cut is not None else None


def row(part: InjectedPart) -> tuple[str, str, str, str]:
    """(name, status in words, ``raw → injected``, what is dropped) for the list."""
    status = STATUS_WORDS.get(part.status.value, part.status.value)
    if part.status.value in ("missing", "unreadable") and part.injected:
        status += ", marker"
    raw = f"{part.raw_len:,}" if part.raw_len is not None else "—"
    injected = f"{part.injected_len:,}" if part.injected is not None else "nothing"
    cut = dropped(part)
    return part.name, status, f"{raw} → {injected}", f"✂ {cut:,} dropped" if cut else ""


@dataclass(frozen=True)
class TextLine:
    text: str
    kind: str = "text"
    """``text``, ``cut`` (the ✂ row), ``elided`` (lines not shown, counted) or ``note``."""


def text_lines(part: InjectedPart, unit: str) -> list[TextLine]:
    """``part``'s injected text line by line, a ✂ row where its cut falls, long texts shown around the cut."""
    if part.injected is None:
        return [TextLine(part.note or "The host injects nothing for this file.", "note")]
    text = part.injected
    cut = dropped(part)
    at: int | None = None
    if cut is not None:
        found = [text.find(m) for m in part.markers if m and m in text]
        at = min(found) if found else len(text)
    lines = text.split("\n")
    cut_line = text.count("\n", 0, at) if at is not None else None
    scissors = TextLine(f"✂ {cut or 0:,} {UNIT_WORDS.get(unit, unit)} dropped", "cut")
    shown: list[TextLine] = []
    first, last = _window(len(lines), cut_line)
    if first:
        shown.append(TextLine(f"⋯ {first:,} lines above", "elided"))
    for index in range(first, last):
        line = lines[index]
        if index == cut_line and at is not None and at < len(text):
            start = at - sum(len(x) + 1 for x in lines[:index])
            if line[:start].strip():
                shown.append(TextLine(_clip(line[:start])))
                line = line[start:]
            shown.append(scissors)
        shown.append(TextLine(_clip(line)))
    if at is not None and at == len(text) and last == len(lines):
        shown.append(scissors)  # cut with no marker of the host's: what it keeps ends here
    if last < len(lines):
        shown.append(TextLine(f"⋯ {len(lines) - last:,} lines below", "elided"))
    return shown


def _window(count: int, around: int | None) -> tuple[int, int]:
    if count <= SHOWN_LINES:
        return 0, count
    if around is None:
        return 0, SHOWN_LINES
    first = max(0, min(around - SHOWN_LINES // 2, count - SHOWN_LINES))
    return first, first + SHOWN_LINES


def _clip(line: str) -> str:
    return line if len(line) <= LINE_CHARS else f"{line[:LINE_CHARS]}…"
