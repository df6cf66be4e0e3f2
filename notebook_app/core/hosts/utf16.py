"""JavaScript strings in Python: a str holding one character per UTF-16 unit, so len and slices are JavaScript's.

OpenClaw measures and cuts its bootstrap files as JavaScript strings. Text
turned into :func:`units` has a lone surrogate for each half of an astral
character, so ``len`` is ``String.length`` and ``s[a:b]`` is ``slice(a, b)``;
:func:`text_of` turns it back (a lone surrogate stays one, as in JavaScript).
"""

from __future__ import annotations

JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""What JavaScript's trim() and \\s count as white space (U+FEFF included, unlike Python's)."""


def units(text: str) -> str:
    if text.isascii():
        return text
    data = text.encode("utf-16-le", "surrogatepass")
    return "".join(chr(data[i] | data[i + 1] << 8) for i in range(0, len(data), 2))


def text_of(units: str) -> str:
    """Back to a str of code points; a lone surrogate stays one (JavaScript keeps it too)."""
    if units.isascii():
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def len16(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-16-le", "surrogatepass")) // 2


def _high(c: str) -> bool:
    return "\ud800" <= c <= "\udbff"


def _low(c: str) -> bool:
    return "\udc00" <= c <= "\udfff"


def slice_safe(s: str, start: int, end: int | None = None) -> str:
    """sliceUtf16Safe: no surrogate half at either edge."""
    n = len(s)
    a = max(n + start, 0) if start < 0 else min(start, n)
    b = n if end is None else (max(n + end, 0) if end < 0 else min(end, n))
    if b <= a:
        return ""
    if 0 < a < n and _low(s[a]) and _high(s[a - 1]):
        a += 1
    if 0 < b < n and _high(s[b - 1]) and _low(s[b]):
        b -= 1
    return s[a:b]


def cut_slice(s: str, start: int, end: int | None, safe: bool) -> str:
    """A head (start 0) or tail (end None) slice: surrogate-safe from 2026.9 on, raw before (soul-astral)."""
    if safe:
        return slice_safe(s, start, end)
    return s[start:end] if end is not None else s[start:]


def truncate_safe(s: str, limit: int) -> str:
    limit = max(0, int(limit))
    return s if len(s) <= limit else slice_safe(s, 0, limit)


def trim_end(s: str) -> str:
    return s.rstrip(JS_SPACE)
