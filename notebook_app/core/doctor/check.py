"""The doctor: every rule over a home, findings cached per file digest.

A :class:`Doctor` lives as long as the worker that asks it (the notebook keeps
one per home; the CLI makes one per run). It reads each bootstrap file once
through the one read path, under the home's shared lock, and runs the
per-file rules only for a file whose bytes it has not seen: after an agent's
add to MEMORY.md, only MEMORY.md is scanned again, and of the home's log
only the records appended since (:mod:`.rules.history_secrets`). The budget depends on
every file and the host, so it is recomputed each time; it costs what
composing costs. Viewing never writes: the doctor changes nothing in the home.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

from notebook_app.core.doctor.fixes import Fix
from notebook_app.core.doctor.headline import headline
from notebook_app.core.doctor.model import RULES, Finding, Severity
from notebook_app.core.doctor.repair import Utf8Fix
from notebook_app.core.doctor.rules.archive import archive_findings
from notebook_app.core.doctor.rules.budget import DEFAULT_ENCODING, Budget, budget_findings, budget_of, exact_tokens
from notebook_app.core.doctor.rules.git_secrets import GitScan
from notebook_app.core.doctor.rules.history_secrets import HistoryScan
from notebook_app.core.doctor.rules.hygiene import hygiene_findings
from notebook_app.core.doctor.rules.injection import injection_findings
from notebook_app.core.doctor.rules.loading import (
    content_findings,
    home_findings,
    scan_limit_finding,
    status_findings,
    temp_file_findings,
)
from notebook_app.core.doctor.rules.release import release_findings
from notebook_app.core.doctor.rules.remembered import remembered_findings
from notebook_app.core.doctor.rules.secrets import secret_findings
from notebook_app.core.doctor.rules.security import hidden_findings, mixed_script_findings
from notebook_app.core.doctor.rules.stores import backup_findings, entry_dialect, store_findings
from notebook_app.core.doctor.store_fix import NormaliseFix
from notebook_app.core.home.files import FileRead, read_file
from notebook_app.core.home.layout import FLAT, HERMES_FOLDER, Dialect, FileMap, hermes_files, host_files
from notebook_app.core.home.reading import ENTRY_FILES, reads_of
from notebook_app.core.home.soul import BOOTSTRAP_ORDER, Composition, compose, home_path
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hosts.hermes.config import read_config
from notebook_app.core.hosts.profile import HostProfile
from notebook_app.core.hosts.standing import Standing
from notebook_app.core.memory import sections
from notebook_app.core.text.file_text import FileText
from notebook_app.core.tidy.model import archive_for

SCAN_LIMIT = 8 * 1024 * 1024
"""Bytes of each file the doctor reads; a larger file is scanned that far, and says so."""

_PER_FILE = (  # after content_findings, which also needs to know whether the file was read whole
    hidden_findings,
    mixed_script_findings,
    injection_findings,
    secret_findings,
)


@dataclass(frozen=True)
class DoctorReport:
    """What the doctor found in one home for one host, and the budget behind it."""

    home: Path
    findings: tuple[Finding, ...]
    composition: Composition
    """The soul as the host loads it (the contract's by default)."""
    budget: Budget

    @property
    def host(self) -> str:
        return self.composition.host

    @property
    def problems(self) -> tuple[Finding, ...]:
        """Findings of severity warning or error."""
        return tuple(f for f in self.findings if f.severity.fails)

    @property
    def exit_status(self) -> int:
        return 1 if self.problems else 0

    def for_file(self, name: str) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.file == name)

    def lines_with_findings(self, name: str) -> dict[int, Severity]:
        """Line → the worst severity on it, for marking lines in a file view."""
        marks: dict[int, Severity] = {}
        for f in self.for_file(name):
            if f.line is not None and (f.line not in marks or f.severity.rank > marks[f.line].rank):
                marks[f.line] = f.severity
        return marks

    def headline(self, limit: int = 3) -> str:
        """The problems in words, for a health line: ``USER.md is not UTF-8 at byte 5 · 2 duplicate entries``."""

        return headline(self.problems, limit)

    def to_json(self) -> dict[str, object]:
        return {
            "home": str(self.home),
            "host": self.host,
            "findings": [f.to_json() for f in self.findings],
            "budget": {
                "unit": self.budget.unit,
                "total": self.budget.total_rendered,
                "total_cap": self.budget.total_cap,
                "tokens": self.budget.tokens,
                "tokens_estimate": self.budget.estimate,
                "encoding": self.budget.encoding,
                "files": [
                    {
                        "name": b.name,
                        "raw": b.load.raw,
                        "loaded": b.load.loaded,
                        "cap": b.load.cap,
                        "truncated": b.load.truncated,
                        "cut_line": b.load.cut_line,
                        "cut_offset": b.load.cut_offset,
                        "tokens": b.tokens,
                        "tokens_estimate": b.estimate,
                    }
                    for b in self.budget.files
                ],
            },
        }


class Doctor:
    """Runs the doctor's rules; keeps per-file findings by digest for the next run."""

    def __init__(self, *, cache_size: int = 64, remember: bool = False) -> None:
        """``remember``: keep how far the home's log was read in the user's state folder, for the next process."""
        self._cache: OrderedDict[tuple[str, str, str, int], tuple[Finding, ...]] = OrderedDict()
        self._tokens: dict[tuple[str, str, str], int] = {}
        self._cache_size = cache_size
        self.history = HistoryScan(remember=remember)
        """What the home's log was found to hold so far; each check reads only the records appended since."""
        self.git = GitScan()
        """What the home's git commits were found to hold (git on, or the home its own repository)."""
        self.scans = 0
        """Files scanned (not served from the cache) so far: for tests and the curious."""

    def check(
        self,
        home: str | os.PathLike[str],
        *,
        host: HostProfile | None = None,
        files: FileMap | None = None,
        folder: str | os.PathLike[str] | None = None,
        standing: Standing | None = None,
    ) -> DoctorReport:
        """Every finding in ``home`` for ``host`` (None: the contract); never raises, never writes.

        ``files``: where the home's files are and its entry files' dialect, as
        the home was opened (None: as ``host`` keeps them, :func:`files_for`).
        ``folder``: the folder it was opened from, whose remembered host is held
        against its layout (a Claude Code project's root; None: ``home``).
        ``standing``: where the host stands on this machine (:mod:`..hosts.standing`), whose installed release
        with no proven rules is an ``info`` finding (None: not looked at).
        """
        root = home_path(home)
        files = stood_in(root, files) if files is not None else files_for(root, host)
        found: list[Finding] = []
        reads, archive = _read_all(root, files)
        for read in reads:
            found += status_findings(read)
            if read.status.loads:
                file = FileText(read.name, read.data, read.size)
                found += _placed(self.file_findings(file, complete=read.complete, files=files), files)
        if archive is not None and archive.status.loads:
            found += self.archive_findings(FileText(archive.name, archive.data, archive.size))
        found += temp_file_findings(root)
        found += backup_findings(root, files)
        found += home_findings(root)
        found += remembered_findings(home_path(folder) if folder is not None else root)
        found += release_findings(standing)
        found += self.history.findings(root)
        found += self.git.findings(root)
        composition = compose(root, host=host)
        budget = budget_of(composition)
        found += budget_findings(composition, budget)
        order = {name: index for index, name in enumerate(RULES)}
        found.sort(key=lambda f: (_file_order(f.file) + (0.5 if f.record else 0), f.line or 0, order.get(f.rule, 0)))
        return DoctorReport(root, tuple(found), composition, budget)

    def file_findings(self, file: FileText, *, complete: bool = True, files: FileMap = FLAT) -> tuple[Finding, ...]:
        """Every per-file rule's findings for ``file``, from the cache when its bytes are known.

        An entry file is read in its dialect (``files``'s, else its content's)
        against its store's limit; both are part of what the cache knows it by.
        """
        dialect = entry_dialect(file, files) if file.name in ENTRY_FILES else Dialect.LINES
        store_limit = files.limits.get(file.name) or sections.LIMITS.get(file.name, 0)
        key = (file.name, file.digest, dialect.name, store_limit)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        self.scans += 1
        found = content_findings(file, complete=complete)
        for rule in _PER_FILE:
            found += rule(file)
        found += hygiene_findings(file, dialect)
        found += store_findings(file, dialect, store_limit)
        limit = scan_limit_finding(file, SCAN_LIMIT)
        if limit is not None:
            found.append(limit)
        result = tuple(found)
        self._remember(key, result)
        return result

    def archive_findings(self, file: FileText) -> tuple[Finding, ...]:
        """The findings in tidy's archive (:mod:`.rules.archive`: what reads text for danger, nothing about loading),
        from the same cache as the bootstrap files: a large archive is scanned again only when its bytes change."""
        key = (file.name, file.digest, "archive", 0)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        self.scans += 1
        result = tuple(archive_findings(file, SCAN_LIMIT))
        self._remember(key, result)
        return result

    def _remember(self, key: tuple[str, str, str, int], result: tuple[Finding, ...]) -> None:
        self._cache[key] = result
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def exact_tokens(self, report: DoctorReport, encoding: str = DEFAULT_ENCODING) -> Budget:
        """The report's budget with exact token counts (cached per section body): the slow half, for later."""
        return exact_tokens(report.budget, report.composition, encoding, self._tokens)


def _file_order(name: str | None) -> int:
    if name is None:
        return len(BOOTSTRAP_ORDER) + 1  # the home as a whole: the budget's total and the host's numbers
    return BOOTSTRAP_ORDER.index(name) if name in BOOTSTRAP_ORDER else len(BOOTSTRAP_ORDER)


def _read_all(root: Path, files: FileMap) -> tuple[list[FileRead], FileRead | None]:
    """The bootstrap files, and tidy's archive when something is at its path (named by that path:
    ``memory/ARCHIVE.md``), under one shared lock; a read takes nothing and makes nothing."""
    reads = []
    archive = archive_for(files.host)  # the host's, as tidy writes it and the Home list shows it
    with reads_of(root) as valid:
        for name in BOOTSTRAP_ORDER:
            path = files.path(root, name)
            reads.append(read_file(path, limit=SCAN_LIMIT, valid_bytes=valid.get(files.relative(name))))
        kept = read_file(files.path(root, archive), limit=SCAN_LIMIT, valid_bytes=valid.get(archive))
    return reads, (replace(kept, name=archive) if kept.status.exists else None)


def files_for(root: Path, host: HostProfile | None) -> FileMap:
    """Where ``host`` keeps the files of the home at ``root``, and its entry files' dialect and limits.

    No host: every file at the top, content decides the dialect. Hermes:
    ``§`` stores against its ``config.yaml``'s limits (else 2,200 and 1,375),
    in ``memories/`` where the home has that folder, else the home's own
    MEMORY.md and USER.md stand for them, as its composition reads them
    (:mod:`...hosts.hermes.soul`). Any other host: ``- `` lines.
    """
    if host is None:
        return FLAT
    proven = registered(host.proven) if host.proven is not None else None
    if proven is None or not proven.reads_config_limits:
        return host_files(host.name)
    limits = proven.limits()
    config = read_config(root, limits["MEMORY.md"], limits["USER.md"])
    return stood_in(root, hermes_files(config.memory_char_limit, config.user_char_limit))


def stood_in(root: Path, files: FileMap) -> FileMap:
    """``files`` as the doctor reads them at ``root``: a Hermes map on a home with no ``memories/`` has the home's
    own MEMORY.md and USER.md stand for its stores, as its composition reads them. The one rule for the CLI's
    doctor (a map from ``--host``) and the app's (the map the home was opened with)."""
    if not registered(files.host).reads_config_limits or not files.folders or (root / HERMES_FOLDER).is_dir():
        return files
    return replace(files, folders=MappingProxyType({}))


def _placed(found: tuple[Finding, ...], files: FileMap) -> tuple[Finding, ...]:
    """``found`` with each fix told where its file is and its dialect (the cache keeps them unplaced)."""
    if files == FLAT:
        return found
    return tuple(
        replace(f, fix=replace(f.fix, files=files)) if isinstance(f.fix, Fix | Utf8Fix | NormaliseFix) else f
        for f in found
    )


def check_home(
    home: str | os.PathLike[str], *, host: HostProfile | None = None, files: FileMap | None = None
) -> DoctorReport:
    """One run of the doctor, without a cache to keep."""
    return Doctor().check(home, host=host, files=files)
