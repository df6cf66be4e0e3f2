"""The guard: the doctor's security rules applied to what an agent is about to write.

An MCP server started with ``--guard`` (or a home whose settings say
``guard = true``) refuses a memory-tool call whose new text a security rule
flags at warning or above: a secret, hidden or bidirectional characters,
lookalike letters, prompt-injection phrasing or hidden markup. Only the text
the call would put in the file is judged (an add's entry, a replace's
``with``); a remove adds nothing and is never refused.
"""

from __future__ import annotations

import re

from notebook_app.core.doctor.model import RULES, Finding
from notebook_app.core.doctor.rules.injection import injection_findings
from notebook_app.core.doctor.rules.secrets import secret_findings
from notebook_app.core.doctor.rules.security import hidden_findings, mixed_script_findings
from notebook_app.core.memory.plan import MemoryRequest
from notebook_app.core.text.file_text import FileText

_WHERE = re.compile(r"^line \d+ of [^ :]+:? ?")


def guard_findings(text: str, file: str) -> list[Finding]:
    """Security findings of severity warning or error for ``text`` about to go into ``file``."""
    scanned = FileText(file, text.encode("utf-8", "surrogatepass"), len(text.encode("utf-8", "surrogatepass")))
    found: list[Finding] = []
    for rule in (secret_findings, hidden_findings, injection_findings, mixed_script_findings):
        found += [f for f in rule(scanned) if f.severity.fails]
    return found


def guard_refusal(request: MemoryRequest) -> tuple[str, str] | None:
    """(rule id, the tool's error output) when the guard refuses ``request``; None when it may go ahead."""
    if request.action == "remove":
        return None
    new = f"- {request.text}" if request.action == "add" else request.replacement or ""
    found = guard_findings(new, request.filename)
    if not found:
        return None
    first = found[0]
    reason = _WHERE.sub("", first.message)
    return first.rule, (
        f"refused by the guard: {first.rule} ({RULES[first.rule].title}) flags this text: {reason}; "
        f"nothing was written to {request.filename}"
    )
