"""What the doctor says: a finding, its severity, and the rule that made it.

Every screen, the CLI and the MCP guard read findings in this one shape, so a
rule's id, its severity and its words are decided here and in the rule's own
module, never re-worded by a caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from notebook_app.core.doctor.fixes import Fix, RedactFix
    from notebook_app.core.doctor.repair import Utf8Fix
    from notebook_app.core.doctor.rules.remembered import ForgetHostFix
    from notebook_app.core.doctor.store_fix import NormaliseFix


class Severity(Enum):
    """How much a finding matters; warnings and errors make ``doctor`` exit 1."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {Severity.ERROR: 2, Severity.WARNING: 1, Severity.INFO: 0}[self]

    @property
    def fails(self) -> bool:
        """Whether a finding of this severity is a problem (exit status 1, the guard refuses)."""
        return self is not Severity.INFO


class Family(Enum):
    LOADING = "loading"
    SECURITY = "security"
    HYGIENE = "hygiene"
    BUDGET = "budget"


@dataclass(frozen=True)
class Rule:
    """One check: a stable id for scripts and keymaps, its severity, what it means."""

    id: str
    severity: Severity
    family: Family
    title: str


HISTORY = "the history (.notebook)"
"""The group a finding about a history record is listed under."""


@dataclass(frozen=True)
class Finding:
    """One problem (or fact) in one place: a file, and a 1-based line or None for the whole file."""

    rule: str
    severity: Severity
    file: str | None
    line: int | None
    message: str
    fix: Fix | RedactFix | Utf8Fix | NormaliseFix | ForgetHostFix | None = None
    record: str | None = None
    """The history record the finding is about (a secret the log still holds); None for a file's finding."""
    commit: str | None = None
    """The git commit the finding is about (a secret git still holds), its short id."""

    @property
    def group(self) -> str | None:
        """Where a list shows it: its file, :data:`HISTORY`, or None for the home as a whole."""
        return HISTORY if self.record is not None else self.file

    def to_json(self) -> dict[str, object]:
        """``{"file", "line", "rule", "severity", "message", "fix"}``
        (and ``record`` for the history, ``commit`` for git's); a fix by its words."""
        value: dict[str, object] = {
            "file": self.file,
            "line": self.line,
            "rule": self.rule,
            "severity": self.severity.value,
            "message": self.message,
            "fix": self.fix.label if self.fix is not None else None,
        }
        if self.record is not None:
            value["record"] = self.record
        if self.commit is not None:
            value["commit"] = self.commit
        return value


def _rules(*rules: Rule) -> dict[str, Rule]:
    return {rule.id: rule for rule in rules}


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741  (the table's severity column: I is INFO)
L, S, H, B = Family.LOADING, Family.SECURITY, Family.HYGIENE, Family.BUDGET

RULES: dict[str, Rule] = _rules(
    Rule("load.not-utf8", E, L, "bytes that are not UTF-8 (each run by line, byte offset and hex; fixed with U+FFFD)"),
    Rule("load.unreadable", E, L, "a file that cannot be read"),
    Rule("load.not-regular", E, L, "a directory, FIFO, socket or device where a file should be"),
    Rule("load.broken-link", E, L, "a symbolic link that leads nowhere or loops"),
    Rule("load.link", W, L, "a symbolic link: it loads, the memory tool will not edit it"),
    Rule("load.empty", I, L, "an empty file (or only whitespace)"),
    Rule("load.temp-file", W, L, "a temp file a killed writer left behind"),
    Rule("load.scan-limit", I, L, "a file larger than the doctor reads"),
    Rule("home.moved", E, L, "the home was moved or removed since it was opened: every write to it is refused"),
    Rule(
        "home.read-only",
        W,
        L,
        "a home folder that cannot be written (mode 555, a read-only mount): every write is refused",
    ),
    Rule("home.history-link", W, L, "a .notebook that is a symbolic link or not a folder: writes are not recorded"),
    Rule("security.bidi", E, S, "bidirectional controls (U+202A–202E, U+2066–2069, …)"),
    Rule("security.tag-chars", E, S, "tag characters (U+E0000–E007F), invisible text"),
    Rule(
        "security.invisible", W, S, "zero-width, format or control characters, a BOM inside, stray variation selectors"
    ),
    Rule("security.mixed-script", W, S, "a word mixing scripts to look like another (a Cyrillic а in a Latin word)"),
    Rule("security.injection", E, S, "prompt-injection phrasing, after NFKC normalisation"),
    Rule("security.hidden-markup", W, S, "HTML comments or hidden elements a reader of the rendered file never sees"),
    Rule("security.secret", E, S, "an API key, private key or password assignment"),
    Rule(
        "security.secret-history",
        E,
        S,
        "a secret the history still holds (a record's text, a kept copy); history --redact removes it",
    ),
    Rule(
        "security.secret-git",
        E,
        S,
        "a secret in the home's git history (a commit, a file, a line): git keeps it; the notebook never rewrites git",
    ),
    Rule("security.git-scan-limit", I, S, "the git scan for secrets stopped at its limit: older commits were not read"),
    Rule("hygiene.duplicate", W, H, "the same entry twice"),
    Rule("hygiene.near-duplicate", W, H, "entries equal after normalising case, spacing and punctuation"),
    Rule("hygiene.conflict", W, H, "entries with the same key before a colon and different values"),
    Rule("hygiene.empty-entry", W, H, "a dangling '- ' bullet with no text"),
    Rule("hygiene.not-an-entry", I, H, "a line in MEMORY.md or USER.md that is not an entry, heading or blank"),
    Rule(
        "hygiene.store-drift",
        W,
        H,
        "a Hermes '§' store that does not round-trip by Hermes's own test: its replace and remove refuse it",
    ),
    Rule(
        "hygiene.mixed-dialect",
        W,
        H,
        "an entry file in two dialects: '- ' lines glued into a '§' entry, or '§' separators among '- ' lines",
    ),
    Rule("hygiene.drift-backup", I, H, "a MEMORY.md.bak.<ts> or USER.md.bak.<ts>: Hermes's copy of a drifted store"),
    Rule("budget.cut", W, B, "a file the host cuts: how much is not loaded and where the cut falls"),
    Rule("budget.total", W, B, "a file the host's total cap cuts short or leaves out"),
    Rule("budget.over", W, B, "a file over the host's own budget for it (loaded whole, but flagged by the host)"),
    Rule("budget.format", I, B, "entries not in the host's entry format"),
    Rule("budget.summary", I, B, "what the host loads: characters and ≈tokens"),
    Rule("host.config", W, B, "the host's own config could not be parsed; its defaults are in force"),
    Rule("host.numbers", I, B, "which of the host's numbers are in force, and where they come from"),
    Rule("host.shadowed", W, B, "a profile of your own named like a shipped host: the shipped one stays in force"),
    Rule("host.read-only", I, B, "the files the host's profile marks read-only: the notebook refuses to write them"),
    Rule(
        "host.unproven",
        I,
        B,
        "the host's installed release has no proven rules: shown as the nearest proven release loads it",
    ),
    Rule(
        "host.remembered",
        W,
        B,
        "a host remembered for the folder that its layout does not fit: writes without --host go to that host's files",
    ),
)
"""Every rule, by id, in the order the README lists them."""


def finding(
    rule: str,
    file: str | None,
    line: int | None,
    message: str,
    fix: Fix | RedactFix | Utf8Fix | NormaliseFix | ForgetHostFix | None = None,
    *,
    record: str | None = None,
    commit: str | None = None,
) -> Finding:
    """A finding of ``rule`` at its rule's severity."""
    return Finding(rule, RULES[rule].severity, file, line, message, fix, record, commit)
