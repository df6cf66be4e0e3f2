"""The doctor's secret rule: a finding for each secret planted in a persona file, and its fix.

The secrets themselves are found by :mod:`...text.secrets` (the one finder the history's
redaction uses too); a finding names the kind of secret and shows its first characters only.
"""

from __future__ import annotations

from notebook_app.core.doctor.fixes import Fix, edit_line
from notebook_app.core.doctor.model import Finding, finding
from notebook_app.core.record.log.events import SecretSpan
from notebook_app.core.text.file_text import FileText
from notebook_app.core.text.secrets import Hit, a_kind, candidate_lines, hits_by_line, shown_secret


def secret_findings(file: FileText) -> list[Finding]:
    found: list[Finding] = []
    for line, hits in hits_by_line(file.lines, candidate_lines(file)):
        text = file.line_text(line)
        more = f" and {len(hits) - 1} more" if len(hits) > 1 else ""
        message = f"line {line} of {file.name} holds {a_kind(hits[0].kind)}: {shown_secret(hits[0], text)}{more}"
        if hits[0].opens_block:
            message += " (its lines below are redacted first)"
        fix = None if hits[0].opens_block else _redact_fix(file, line, hits)
        found.append(finding("security.secret", file.name, line, message, fix))
        if len(found) >= 500:
            break
    return found


def _redact_fix(file: FileText, line: int, hits: list[Hit]) -> Fix | None:
    """Each secret's whole span (hits never overlap) becomes ``[redacted]``; a name it was given stays."""
    text = file.line_text(line)
    redacted, last = [], 0
    for hit in hits:
        redacted += [text[last : hit.start], "[redacted]"]
        last = hit.end
    redacted.append(text[last:])
    spans = tuple(
        SecretSpan(
            hit.kind,
            len(text[: hit.start].encode("utf-8", "surrogatepass")),
            len(text[hit.start : hit.end].encode("utf-8", "surrogatepass")),
        )
        for hit in hits
    )
    return edit_line(file.name, line, text, "".join(redacted), "replace the secret with [redacted]", spans)
