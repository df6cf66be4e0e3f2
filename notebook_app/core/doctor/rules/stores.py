"""Entry files in their host's dialect: Hermes's ``§`` stores as Hermes's own code judges them (spec §9).

A file's dialect is its host's (the home's file map); with no host known,
its content decides (:func:`...memory.dialect.dialect_in`), and content in
both dialects is read in the one its first entry shows. In a ``§`` store:
Hermes's drift test (:func:`...memory.sections.drift`, its
``_detect_external_drift``), with the one fix that normalises the store as
Hermes would; and ``- `` lines glued into an entry, as the notebook's own
writer once left them (``A§B`` and an add of ``C`` gave ``A§B\\n- C``, read by
Hermes as A and ``B\\n- C``). In a ``- `` file: the lines that are Hermes's
separator. Beside the stores: the drift backups Hermes saves when its guard
refuses a write, named, never read. Its ``*.lock`` files and ``.mem_*.tmp``
temp files are its bookkeeping and never a finding.
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

from notebook_app.core.doctor.model import Finding, finding
from notebook_app.core.doctor.rules.hygiene import SEPARATOR_LINE
from notebook_app.core.doctor.store_fix import NormaliseFix, pieces, round_trips
from notebook_app.core.memory.edits.guarded_splice import ENTRY_FILES
from notebook_app.core.home.layout import Dialect, FileMap
from notebook_app.core.memory import sections
from notebook_app.core.memory.dialect import dialect_in
from notebook_app.core.memory.sections import hermes_text
from notebook_app.core.text.file_text import FileText
from notebook_app.core.text.times import local_time

MAX_GLUED = 100
"""At most this many entries with glued lines are named one by one; a last finding counts the rest."""
_BACKUP = re.compile(r"(MEMORY\.md|USER\.md)\.bak\.([0-9]+)")
"""Hermes's drift backup: ``<store>.bak.<int(time.time())>`` beside the store (``_detect_external_drift``)."""


def entry_dialect(file: FileText, files: FileMap) -> Dialect:
    """The dialect the doctor reads entry file ``file`` in: its host's, else what its content shows.

    Content in both dialects is read in the one that comes first: a ``§``
    store with ``- `` lines after its first separator is a store with lines
    glued into it; ``- `` lines before a ``§`` line are a ``- `` file.
    """
    if files.dialect is not None:
        return files.dialect
    if "§".encode() not in file.data:
        return Dialect.LINES  # dialect_in gives LINES or nothing: both are read as lines
    shown = dialect_in(file.text)
    if shown is not None:
        return shown
    seen = hermes_text(file.text)
    separator = seen.find(sections.DELIMITER)
    dash = 0 if seen.startswith("- ") else seen.find("\n- ")
    return Dialect.SECTIONS if 0 <= separator < dash else Dialect.LINES


def store_findings(file: FileText, dialect: Dialect, limit: int) -> list[Finding]:
    """What is wrong with entry file ``file`` in ``dialect``; ``limit`` is its ``§`` store's character limit."""
    if file.name not in ENTRY_FILES:
        return []
    if dialect is Dialect.SECTIONS:
        text = hermes_text(file.text)
        return _drift(file, text, limit) + _glued(file.name, text)
    return _separators(file)


def _drift(file: FileText, text: str, limit: int) -> list[Finding]:
    problem = sections.drift(text, file.name, limit)
    if problem is None:
        return []
    name = file.name
    refused = (
        f"Hermes's replace and remove refuse {name} (saving a copy as {name}.bak.<ts>) and the notebook refuses "
        "to write it"
    )
    if not round_trips(text):
        line = next(piece.line for piece in pieces(text) if piece.changed)
        fix = NormaliseFix(name, file.digest, limit) if file.size == len(file.data) else None
        return [
            finding(
                "hygiene.store-drift",
                name,
                line,
                f"{problem}; the first such place is line {line}. {refused} until it is normalised, as Hermes's "
                "next add would rewrite it",
                fix,
            )
        ]
    longest = max((p for p in pieces(text) if p.number is not None), key=lambda p: len(p.text))
    return [
        finding(
            "hygiene.store-drift",
            name,
            longest.line,
            f"{problem}. {refused} until that entry, which begins on line {longest.line}, is shortened or split "
            "(by hand: a rewrite would not split it)",
        )
    ]


def _glued(name: str, text: str) -> list[Finding]:
    """Entries holding a ``- `` line after their first line: lines another dialect's writer appended."""
    found: list[Finding] = []
    entries = 0
    for piece in pieces(text):
        if piece.number is None:
            continue
        glued = [at for at, line in enumerate(piece.text.split("\n")[1:], start=1) if line.startswith("- ")]
        if not glued:
            continue
        entries += 1
        if entries > MAX_GLUED:
            continue
        line = piece.line + glued[0]
        more = f" ({len(glued)} such lines in that entry)" if len(glued) > 1 else ""
        found.append(
            finding(
                "hygiene.mixed-dialect",
                name,
                line,
                f"line {line} of {name} is a '- ' line inside '§' entry {piece.number}, which begins on line "
                f"{piece.line}{more}: Hermes reads it as part of that entry, not as an entry of its own, and its "
                "replace or remove of that entry takes it too",
            )
        )
    if entries > MAX_GLUED:
        more = f"{entries - MAX_GLUED:,} more entries of {name} hold such lines"
        found.append(finding("hygiene.mixed-dialect", name, None, more))
    return found


def _separators(file: FileText) -> list[Finding]:
    """Lines holding only ``§`` in a ``- `` file: Hermes's separator where its host reads lines."""
    if "§".encode() not in file.data:
        return []
    lines = [number for number, line in enumerate(file.lines, start=1) if line == SEPARATOR_LINE]
    if not lines:
        return []
    more = f" ({len(lines)} such lines, the first here)" if len(lines) > 1 else ""
    return [
        finding(
            "hygiene.mixed-dialect",
            file.name,
            lines[0],
            f"line {lines[0]} of {file.name} holds only '§', Hermes's entry separator{more}, but this file's entries "
            "are '- ' lines: its host reads the line as text, and the notebook writes '- ' lines here",
        )
    ]


def backup_findings(root: Path, files: FileMap, *, limit: int = 100) -> list[Finding]:
    """Hermes's drift backups beside the stores, each named as what it is; their content is never read."""
    found: list[Finding] = []
    for folder in sorted({files.folder(root, name) for name in ENTRY_FILES}):
        try:
            with os.scandir(folder) as listing:
                names = sorted(entry.name for entry in listing if _BACKUP.fullmatch(entry.name))
        except OSError:
            continue
        for backup in names[:limit]:
            match = _BACKUP.fullmatch(backup)
            assert match is not None
            store, stamp = match.group(1), int(match.group(2))
            where = files.relative(store).removesuffix(store) + backup
            found.append(
                finding(
                    "hygiene.drift-backup",
                    store,
                    None,
                    f"{where} is one of Hermes's drift backups: the copy of {store} its memory tool saved "
                    f"{_when(stamp)}, when it refused to write a {store} that did not round-trip. Hermes never "
                    "loads it and the notebook leaves it alone: add back what you want of it, then remove it",
                )
            )
    return found


def _when(stamp: int) -> str:
    try:
        return "on " + local_time(datetime.fromtimestamp(stamp, UTC))
    except (OverflowError, OSError, ValueError):
        return "at a time its name does not say"
