"""Tidy's archive: the rules that read text for danger, and none of those about what a session loads.

The archive (``memory/ARCHIVE.md``, Hermes ``memories/ARCHIVE.md``, Claude
Code's ``ARCHIVE.md``; :func:`...tidy.archive_for`) holds the entries tidy
moved out of a loaded file. No host loads it (spec §9), but it is on disk
beside the home: a key moved there is still a leaked key, and an injected
instruction there is still one an agent reading the folder may follow. So:

- applied, as to any file of the home: secrets, hidden and bidirectional
  characters, lookalike letters, prompt injection (the person is protected
  whatever loads the file), and the scan limit (what the doctor did not read);
- not applied: the loading rules (not UTF-8, empty, a link: their words are
  what a session loads, and the repair is a write to a bootstrap file),
  hygiene and the stores' dialect (they assume an entry file the host
  injects; the archive holds tidy's headings between entries by design),
  and the budget (no host counts the archive against a cap).

No fix is offered: the guarded splice writes the bootstrap files only, and
widening the one rule for where writes go for one finding is more than the
finding needs. The finding says so; the history's copy of a secret keeps its
own finding and redaction (:mod:`.history_secrets`).
"""

from __future__ import annotations

from dataclasses import replace

from notebook_app.core.doctor.model import Finding
from notebook_app.core.doctor.rules.injection import injection_findings
from notebook_app.core.doctor.rules.loading import scan_limit_finding
from notebook_app.core.doctor.rules.secrets import secret_findings
from notebook_app.core.doctor.rules.security import hidden_findings, mixed_script_findings
from notebook_app.core.text.file_text import FileText

ARCHIVE_RULES = (hidden_findings, mixed_script_findings, injection_findings, secret_findings)
"""The per-file rules that read the archive: those that read text for danger, not for what loads."""

NO_FIX = "; the doctor offers no fix in tidy's archive, which it does not write: edit the file by hand"
"""What a finding that would have had a fix says instead of offering one."""


def archive_findings(file: FileText, scan_limit: int) -> list[Finding]:
    """Every :data:`ARCHIVE_RULES` finding in ``file`` (named by its path from the home's top), without fixes."""
    found: list[Finding] = []
    for rule in ARCHIVE_RULES:
        found += [f if f.fix is None else replace(f, fix=None, message=f.message + NO_FIX) for f in rule(file)]
    limit = scan_limit_finding(file, scan_limit)
    if limit is not None:
        found.append(limit)
    return found
