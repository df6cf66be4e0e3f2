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
from dataclasses import dataclass
from pathlib import Path

from ..home.files import FileRead, read_file
from ..home.reading import reads_of
from ..home.soul import BOOTSTRAP_ORDER, Composition, compose, home_path
from ..hosts.profile import HostProfile
from ..text.file_text import FileText
from .model import RULES, Finding, Severity
from .rules.budget import DEFAULT_ENCODING, Budget, budget_findings, budget_of, exact_tokens
from .rules.history_secrets import HistoryScan
from .rules.hygiene import hygiene_findings
from .rules.injection import injection_findings
from .rules.loading import content_findings, home_findings, scan_limit_finding, status_findings, temp_file_findings
from .rules.secrets import secret_findings
from .rules.security import hidden_findings, mixed_script_findings

SCAN_LIMIT = 8 * 1024 * 1024
"""Bytes of each file the doctor reads; a larger file is scanned that far, and says so."""

_PER_FILE = (
    content_findings,
    hidden_findings,
    mixed_script_findings,
    injection_findings,
    secret_findings,
    hygiene_findings,
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
        from .headline import headline

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
        self._cache: OrderedDict[tuple[str, str], tuple[Finding, ...]] = OrderedDict()
        self._tokens: dict[tuple[str, str, str], int] = {}
        self._cache_size = cache_size
        self.history = HistoryScan(remember=remember)
        """What the home's log was found to hold so far; each check reads only the records appended since."""
        self.scans = 0
        """Files scanned (not served from the cache) so far: for tests and the curious."""

    def check(self, home: str | os.PathLike[str], *, host: HostProfile | None = None) -> DoctorReport:
        """Every finding in ``home`` for ``host`` (None: the contract); never raises, never writes."""
        root = home_path(home)
        found: list[Finding] = []
        for read in _read_all(root):
            found += status_findings(read)
            if read.status.loads:
                found += self.file_findings(FileText(read.name, read.data, read.size), complete=read.complete)
        found += temp_file_findings(root)
        found += home_findings(root)
        found += self.history.findings(root)
        composition = compose(root, host=host)
        budget = budget_of(composition)
        found += budget_findings(composition, budget)
        order = {name: index for index, name in enumerate(RULES)}
        found.sort(key=lambda f: (_file_order(f.file) + (0.5 if f.record else 0), f.line or 0, order.get(f.rule, 0)))
        return DoctorReport(root, tuple(found), composition, budget)

    def file_findings(self, file: FileText, *, complete: bool = True) -> tuple[Finding, ...]:
        """Every per-file rule's findings for ``file``, from the cache when its bytes are known."""
        key = (file.name, file.digest)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        self.scans += 1
        found: list[Finding] = []
        for rule in _PER_FILE:
            found += rule(file, complete=complete) if rule is content_findings else rule(file)
        limit = scan_limit_finding(file, SCAN_LIMIT)
        if limit is not None:
            found.append(limit)
        result = tuple(found)
        self._cache[key] = result
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return result

    def exact_tokens(self, report: DoctorReport, encoding: str = DEFAULT_ENCODING) -> Budget:
        """The report's budget with exact token counts (cached per section body): the slow half, for later."""
        return exact_tokens(report.budget, report.composition, encoding, self._tokens)


def _file_order(name: str | None) -> int:
    if name is None:
        return len(BOOTSTRAP_ORDER) + 1  # the home as a whole: the budget's total and the host's numbers
    return BOOTSTRAP_ORDER.index(name) if name in BOOTSTRAP_ORDER else len(BOOTSTRAP_ORDER)


def _read_all(root: Path) -> list[FileRead]:
    reads = []
    with reads_of(root) as valid:
        for name in BOOTSTRAP_ORDER:
            reads.append(read_file(root / name, limit=SCAN_LIMIT, valid_bytes=valid.get(name)))
    return reads


def check_home(home: str | os.PathLike[str], *, host: HostProfile | None = None) -> DoctorReport:
    """One run of the doctor, without a cache to keep."""
    return Doctor().check(home, host=host)
