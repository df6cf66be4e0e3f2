"""Secrets stay home: the doctor's secret rules over every file a move would carry.

Every text read from the home (the seven, the overflow and prose side files read back into an entry file, the
notes, the archive; :meth:`.model.Persona.scanned`), each keyed by the path it came from, is scanned by the
doctor's own security rules (``guard_findings``, the rules ``doctor`` and the MCP guard run); only the secret
rules' findings count here. A hit is kept as its rule, file and line: its text, and the doctor's message that
quotes part of it, are dropped at once, so no output of a move can show a secret.
"""

from __future__ import annotations

from notebook_app.core.guard.rules import guard_findings
from notebook_app.portable.model import Persona, SecretHit

SECRET_RULE = "security.secret"


def secret_hits(persona: Persona) -> tuple[SecretHit, ...]:
    """Every secret the doctor finds in what was read of the persona, by rule, file and line, in reading order."""
    hits: list[SecretHit] = []
    for path, text in persona.scanned():
        for found in guard_findings(text, path):
            if found.rule == SECRET_RULE or found.rule.startswith(SECRET_RULE + "."):
                hits.append(SecretHit(found.rule, path, found.line))
    return tuple(dict.fromkeys(hits))
