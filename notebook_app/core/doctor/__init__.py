"""The home doctor: rules over a persona home, UI-free (issue 12).

Each rule has an id, a severity (error, warning, info), a file and line, a
message in words and, where one exists, a fix that is a guarded core write
with a dry run. Families: loading (does the file load at all), security
(hidden characters, lookalike letters, prompt injection, secrets), hygiene
(duplicates, conflicts, stray lines in MEMORY.md and USER.md, each read in its
dialect: a Hermes ``§`` store's drift and glued lines) and budget (what a host
loads, where it cuts, ≈tokens).

    doctor = Doctor()                       # keep one per worker: it caches per file digest
    report = doctor.check(home, host=profile)          # files=the home's FileMap, as it was opened
    report.findings, report.headline(), report.exit_status
    budget = doctor.exact_tokens(report)    # the slow half: exact token counts
"""

from ..text.file_text import FileText
from .check import SCAN_LIMIT, Doctor, DoctorReport, check_home
from .fixes import Fix, FixKind, FixPreview, RedactFix, RedactPreview
from .guard import guard_findings
from .model import RULES, Family, Finding, Rule, Severity, worst
from .repair import RepairPreview
from .rules.budget import DEFAULT_ENCODING, Budget, FileBudget, budget_findings, budget_of, count_tokens
from .store_fix import NormaliseFix

__all__ = [
    "DEFAULT_ENCODING",
    "RULES",
    "SCAN_LIMIT",
    "Budget",
    "Doctor",
    "DoctorReport",
    "Family",
    "FileBudget",
    "FileText",
    "Finding",
    "Fix",
    "FixKind",
    "FixPreview",
    "NormaliseFix",
    "RedactFix",
    "RedactPreview",
    "RepairPreview",
    "Rule",
    "Severity",
    "budget_findings",
    "budget_of",
    "check_home",
    "count_tokens",
    "guard_findings",
    "worst",
]
