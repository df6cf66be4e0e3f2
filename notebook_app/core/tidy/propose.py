"""``tidy``: the proposal for a home's entry files, computed from reads alone; nothing is written.

Each entry file the host loads is read once (never blocking, never
following a FIFO: :func:`..home.files.read_file`), parsed in its dialect and
run through the rules (:mod:`.rules`). A file that cannot be read, or whose
dialect cannot be told, is named with the reason and left out.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.core.fs.state_dir import STATE_DIR
from notebook_app.core.home.files import FileStatus, read_file
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.reading import ENTRY_FILES
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.memory.dialect import dialect_for
from notebook_app.core.tidy import rules
from notebook_app.core.tidy.ages import ages_of
from notebook_app.core.tidy.budget import budget_for
from notebook_app.core.tidy.model import DEFAULT_TARGET, Hunk, Proposal, Stray, Untidied, archive_for
from notebook_app.core.tidy.parse import parse

if TYPE_CHECKING:
    from notebook_app.core.hosts.profile import HostProfile

READ_LIMIT = 64 * 1024 * 1024
"""The most of one entry file tidy reads: 32 times the contract's cap; a larger file is named, not read."""


def tidy(
    home: Path,
    files: FileMap = FLAT,
    profile: HostProfile | None = None,
    target: float = DEFAULT_TARGET,
) -> Proposal:
    """What tidy proposes for the entry files of ``home`` (as ``files`` maps it): hunks, strays, files left out.

    ``profile`` gives a host's per-file cap (None: the contract's, or the file map's limit); ``target``
    is the share of the cap an over-budget file is brought to, above 0 and at most 1.
    """
    if not 0 < target <= 1:
        raise ValueError(f"target must be above 0 and at most 1, got {target!r}")
    archive = archive_for(files.host)  # no host known: the contract's, toolnexus
    hunks: list[Hunk] = []
    strays: list[Stray] = []
    untidied: list[Untidied] = []
    looked: list[str] = []
    for name in ENTRY_FILES:
        if not files.loads(name):
            continue
        read = read_file(files.path(home, name), limit=READ_LIMIT + 1)
        if read.status is FileStatus.ABSENT:
            continue
        if not read.status.loads:
            untidied.append(Untidied(name, f"{read.describe()}: there is nothing to tidy in it"))
            continue
        if read.size > READ_LIMIT:
            untidied.append(Untidied(name, f"{name} is {read.size:,} bytes, past the {READ_LIMIT:,} tidy reads"))
            continue
        text = read.data.decode("utf-8", "surrogateescape")
        dialect = dialect_for(name, files.dialect, text)
        if isinstance(dialect, Rejection):
            untidied.append(Untidied(name, dialect.message.replace("; nothing was written", "")))
            continue
        looked.append(name)
        parsed = parse(name, text, dialect)
        claimed: set[int] = set()
        hunks += rules.exact_duplicates(parsed, claimed)
        hunks += rules.empties(parsed, claimed)
        hunks += rules.near_duplicates(parsed, claimed, archive)
        ages = ages_of(home, files, name) if (home / STATE_DIR).is_dir() else {}  # no history: no times
        hunks += rules.superseded(parsed, claimed, archive, ages)
        hunks += rules.over_budget(parsed, claimed, budget_for(name, files, profile), target, archive, ages)
        strays += parsed.strays
    hunks.sort(key=lambda hunk: (ENTRY_FILES.index(hunk.file), hunk.entries[0].line))
    host = files.host or (profile.name if profile is not None else None) or registered(None).id
    return Proposal(host, archive, target, tuple(hunks), tuple(strays), tuple(untidied), tuple(looked))
