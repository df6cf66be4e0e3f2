"""The doctor's secret rule: a finding for each secret planted in a persona file, and its fix.

The secrets themselves are found by :mod:`...text.secrets` (the one finder the history's
redaction uses too); a finding names the kind of secret and shows its first characters only.
"""

from __future__ import annotations

from ...log.events import SecretSpan
from ...text.file_text import FileText
from ...text.secrets import candidate_lines, find_secrets, shown_secret
from ..fixes import Fix, edit_line
from ..model import Finding, finding


def secret_findings(file: FileText) -> list[Finding]:
    found: list[Finding] = []
    for line in candidate_lines(file):
        text = file.line_text(line)
        hits = find_secrets(text)
        if not hits:
            continue
        kind, start, end = hits[0]
        more = f" and {len(hits) - 1} more" if len(hits) > 1 else ""
        article = "an" if kind[0].lower() in "aeiou" else "a"
        message = f"line {line} of {file.name} holds {article} {kind}: {shown_secret(kind, text[start:end])}{more}"
        found.append(finding("security.secret", file.name, line, message, _redact_fix(file, line, hits)))
        if len(found) >= 500:
            break
    return found


def _redact_fix(file: FileText, line: int, hits: list[tuple[str, int, int]]) -> Fix | None:
    text = file.line_text(line)
    redacted, last = [], 0
    for _, start, end in hits:
        if start < last:
            continue
        redacted += [text[last:start], "[redacted]"]
        last = end
    redacted.append(text[last:])
    spans = tuple(
        SecretSpan(
            kind,
            len(text[:start].encode("utf-8", "surrogatepass")),
            len(text[start:end].encode("utf-8", "surrogatepass")),
        )
        for kind, start, end in hits
    )
    return edit_line(file.name, line, text, "".join(redacted), "replace the secret with [redacted]", spans)
