"""Prompt-injection phrasing and markup a reader never sees, in a persona's files.

Text is matched after NFKC normalisation (full-width letters, ligatures and
the like become plain ones) with hidden characters removed, so ``ｉｇｎｏｒｅ``
or ``ig\\u200bnore`` reads as "ignore". A persona's own words are not an attack
(decided in issue 12): "You are Wren" in SOUL.md, AGENTS.md or IDENTITY.md is
the persona itself, so role-hijack phrasing counts only in MEMORY.md and
USER.md, which agents and others write; explicit takeover phrasing ("you are
now …", "from now on ignore …", "ignore previous instructions") counts
anywhere.

Each pattern starts with a literal or a small set of words, never ``\\b``,
so the regular-expression engine skips ahead in C; the word boundary is
checked by hand on the rare match.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right

from notebook_app.core.doctor.model import Finding, finding
from notebook_app.core.memory.edits.guarded_splice import ENTRY_FILES
from notebook_app.core.text.file_text import FileText
from notebook_app.core.text.hidden import strip_hidden
from notebook_app.core.text.quote import shown

_S = r"[ \t]+"

# (what it does, pattern) over lower-cased, normalised text; every file.
_ANYWHERE: tuple[tuple[str, str], ...] = (
    (
        "tells the agent to ignore its previous instructions",
        rf"(?:ignore|disregard|forget|override|bypass){_S}(?:(?:all|any|the|your|my|these|those|of){_S})*"
        rf"(?:previous|prior|above|earlier|preceding|former|original|existing|system|safety){_S}"
        r"(?:instructions?|rules?|prompts?|directions?|guidelines?|messages?|context|constraints?|polic(?:y|ies))",
    ),
    (
        "takes the agent over from now on",
        rf"from{_S}now{_S}on\b[^.\n]{{0,40}}?\b(?:you{_S}(?:are|will|must|shall)|ignore|disregard|act|respond|behave|obey)",
    ),
    ("tells the agent it is now someone else", rf"you{_S}are{_S}now\b"),
    ("announces new instructions", rf"(?:new|updated|real|actual|true){_S}(?:system{_S})?instructions?[ \t]*:"),
    (
        "asks the agent to reveal its system prompt",
        rf"(?:reveal|print|show|output|repeat|leak|disclose|display|dump){_S}(?:me{_S})?(?:your|the){_S}"
        rf"(?:(?:full|entire|original|hidden|initial){_S})*(?:system{_S}prompt|system{_S}message|hidden{_S}instructions"
        rf"|initial{_S}instructions)",
    ),
    (
        "holds chat-template control tokens",
        r"<\|(?:im_start|im_end|system|endoftext|begin_of_text|start_header_id)\|>|\[/?inst\]|<<sys>>",
    ),
    ("sends data to a URL with curl or wget", r"(?:curl|wget|invoke-webrequest)\b[^\n]{0,200}?(?:https?|ftp)://"),
    (
        "tells the agent to send data to a URL",
        rf"(?:send|post|upload|exfiltrate|forward|transmit|leak|email)\b[^\n]{{0,80}}?\b(?:to|at){_S}(?:https?|ftp)://",
    ),
)

# Role hijack: only in the files agents and others write (MEMORY.md, USER.md).
_ENTRY_FILES_ONLY: tuple[tuple[str, str], ...] = (
    (
        "tells the agent who it is (role hijack)",
        rf"(?m:^[ \t]*(?:[-*+][ \t]+)?(?:you{_S}are|you're|act{_S}as|pretend{_S}(?:to{_S}be|you{_S}are)|roleplay{_S}as"
        rf"|behave{_S}as|your{_S}(?:new{_S})?(?:role|persona|identity|name){_S}is)\b)",
    ),
    ("pretends to be a message from the system", r"(?m:^[ \t]*(?:[-*+][ \t]+)?(?:system|assistant|developer)[ \t]*:)"),
    ("asks the agent to pretend", rf"pretend{_S}(?:to{_S}be|you{_S}are)\b"),
)

_HIDDEN_MARKUP: tuple[tuple[str, str], ...] = (
    ("holds an HTML comment, which a rendered view never shows", r"<!--"),
    (
        "holds an HTML element hidden from a rendered view",
        r"<(?:div|span|p|section|details)\b[^<>\n]*(?:\bhidden\b|display[ \t]*:[ \t]*none|visibility[ \t]*:[ \t]*hidden"
        r"|font-size[ \t]*:[ \t]*0|opacity[ \t]*:[ \t]*0)",
    ),
)


def _compile(rules: tuple[tuple[str, str], ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((what, re.compile(pattern)) for what, pattern in rules)


_ANYWHERE_RX = _compile(_ANYWHERE)
_ENTRY_RX = _compile(_ENTRY_FILES_ONLY)
_MARKUP_RX = _compile(_HIDDEN_MARKUP)


def normalised(text: str) -> str:
    """NFKC, hidden characters removed, lower case; line for line, so line numbers still hold."""
    if text.isascii():
        return text.lower()
    return "\n".join(
        line.lower() if line.isascii() else strip_hidden(unicodedata.normalize("NFKC", line)).lower()
        for line in text.split("\n")
    )


def _starts_a_word(text: str, start: int) -> bool:
    return start == 0 or not (text[start - 1].isalnum() or text[start - 1] == "_") or not text[start].isalnum()


def scan_phrasing(text: str, name: str) -> list[tuple[str, str, int, str]]:
    """(rule, what it does, line, matched words) for every hit in ``text`` of file ``name``."""
    norm = normalised(text)
    starts = [0, *(m.end() for m in re.finditer("\n", norm))]
    rules = [("security.injection", _ANYWHERE_RX)]
    if name in ENTRY_FILES:
        rules.append(("security.injection", _ENTRY_RX))
    rules.append(("security.hidden-markup", _MARKUP_RX))
    hits: list[tuple[str, str, int, str]] = []
    seen: set[tuple[str, int]] = set()
    for rule, patterns in rules:
        for what, pattern in patterns:
            for match in pattern.finditer(norm):
                start = match.start()
                while start < match.end() and norm[start] in " \t\n":
                    start += 1
                if not _starts_a_word(norm, start):
                    continue
                line = bisect_right(starts, start)
                if (what, line) in seen:
                    continue
                seen.add((what, line))
                hits.append((rule, what, line, match.group().strip()))
    return sorted(hits, key=lambda hit: (hit[2], hit[0]))


def injection_findings(file: FileText) -> list[Finding]:
    return [
        finding(rule, file.name, line, f"line {line} of {file.name} {what}: {shown(words)}")
        for rule, what, line, words in scan_phrasing(file.text, file.name)[:500]
    ]
