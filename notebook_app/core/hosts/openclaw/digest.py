"""OpenClaw's cut of an AGENTS.md over its cap (2026.6 on): a head, a "policy digest" of its rule lines, a tail.

0.45 of the cap for the head, 0.35 for the digest (rule lines picked high
priority first, then in order, kept in file order), 0.15 for the tail, then
shrunk until it fits. 2026.6.6 takes each rule line alone; 2026.9.6 pairs a
rule line with the prose line before it, counts CJK rule words and skips code
fences. Works on UTF-16 units (:mod:`..utf16`).
"""

from __future__ import annotations

import re

from notebook_app.core.hosts.utf16 import JS_SPACE, cut_slice, truncate_safe, units

_CANDIDATE = re.compile(
    units(
        r"\b(?:AGENTS\.md|scoped|required|must|never|do not|before subtree|read scoped|owner|security|secret|credential"
        r"|test|validation|command|commit|push|github|pr)\b"
    )
    + "|"
    + units("(?:🔴|禁止|嚴禁|不得|絕不|絕對不|切勿|必須|務必|一律|紅線)"),
    re.IGNORECASE | re.ASCII,
)
_HIGH = re.compile(
    units(r"\b(?:AGENTS\.md|scoped|required|must|never|do not|before subtree|read scoped|security|secret|credential)\b")
    + "|"
    + units("(?:🔴|禁止|嚴禁|不得|絕不|絕對不|切勿)"),
    re.IGNORECASE | re.ASCII,
)
_S = f"[{re.escape(JS_SPACE)}]"
_LIST_LINE = re.compile(rf"^(?:#{{1,6}}|{_S}*[-*+]|{_S}*[0-9]+[.)]){_S}+[^{re.escape(JS_SPACE)}]")
_FENCE = re.compile(rf"^{_S}*(?:`{{3,}}|~{{3,}})")


def _digest(candidates: list[tuple[str, bool]], budget: int) -> tuple[str, int]:
    if budget <= 0:
        return "", 0
    chosen: set[int] = set()
    used = 0
    for pass_high in (True, False):
        for i, (text, high) in enumerate(candidates):
            if (pass_high and not high) or i in chosen:
                continue
            extra = (1 if chosen else 0) + len(text)
            if used + extra <= budget:
                chosen.add(i)
                used += extra
    return "\n".join(text for i, (text, _) in enumerate(candidates) if i in chosen), max(
        0, len(candidates) - len(chosen)
    )


_CANDIDATE_ASCII = re.compile(_CANDIDATE.pattern.split("|(?:")[0], re.IGNORECASE | re.ASCII)
_HIGH_ASCII = re.compile(_HIGH.pattern.split("|(?:")[0], re.IGNORECASE | re.ASCII)


def _line(source: str) -> str:
    line = re.sub(f"{_S}+", " ", source.strip(JS_SPACE))
    return truncate_safe(line, 239) + "…" if len(line) > 240 else line


def _candidates(trimmed: str, style: str) -> list[tuple[str, bool]]:
    """The digest's candidate lines: each rule line alone (2026.6.6), or with the prose line before it and
    CJK rule words, code fences skipped (2026.9.6)."""
    if style == "lines":
        lines = (_line(source) for source in re.split("\r?\n", trimmed))
        return [
            (line, bool(_HIGH_ASCII.search(line)))
            for line in lines
            if line and (_LIST_LINE.match(line) or _CANDIDATE_ASCII.search(line))
        ]
    candidates: list[tuple[str, bool]] = []
    prose: str | None = None
    for source in re.split("\r?\n", trimmed):
        line = _line(source)
        if not line or _FENCE.match(line):
            prose = None
        elif _LIST_LINE.match(line) or _CANDIDATE.search(line):
            candidates.append((line if prose is None else f"{prose}\n{line}", bool(_HIGH.search(line))))
            prose = None
        else:
            prose = line
    return candidates


def agents_cut(trimmed: str, cap: int, rel: dict) -> str:
    """AGENTS.md's cut (2026.6 on): 0.45 head, 0.35 policy digest of its rule lines, 0.15 tail."""
    h, t, budget = int(cap * 0.45), int(cap * 0.15), int(cap * 0.35)
    safe = bool(rel.get("safe_slices"))
    candidates = _candidates(trimmed, str(rel.get("agents_digest"))) if budget > 0 else []
    digest, omitted = _digest(candidates, budget)

    def render() -> str:
        parts = [
            cut_slice(trimmed, 0, h, safe),
            "[...truncated, read AGENTS.md for full content...]",
            "[Policy digest from AGENTS.md]" if digest else "",
            digest,
            f"[...{omitted} more policy lines omitted...]" if omitted > 0 else "",
            units(f"…(truncated AGENTS.md: kept {h}+policy {len(digest)}+{t} chars of {len(trimmed)})…"),
            cut_slice(trimmed, -t, None, safe) if t > 0 else "",
        ]
        return "\n".join(p for p in parts if p)

    out = render()
    while len(out) > cap and (t > 0 or h > 1 or budget > 0):
        over = len(out) - cap
        if t > 0:
            t = max(0, t - over)
        elif h > 1:
            h = max(1, h - over)
        else:
            budget = max(0, budget - over)
            digest, omitted = _digest(candidates, budget)
        out = render()
    return truncate_safe(out, cap)
