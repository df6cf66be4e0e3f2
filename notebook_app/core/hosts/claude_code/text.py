"""Claude Code's text handling, in Python: JavaScript strings (UTF-16 units), trim, front matter, comments.

Claude Code is JavaScript: its lengths, slices and ``trim()`` work on UTF-16
code units. Here a *unit string* is a Python ``str`` holding one code point
per UTF-16 unit (an astral character as its two surrogates), so Python's
``len``, slicing and ``find`` behave as JavaScript's do; :func:`units` and
:func:`text` convert. Each rule cites the golden case that proves it
(``tests/hosts/goldens/claude-code@2.1.332/``).
"""

from __future__ import annotations

import re
import unicodedata

JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""What JavaScript's ``trim()`` removes (a BOM too: cc-crlf-bom-comment)."""
_FRONT_MATTER = re.compile(r"^---[" + JS_SPACE + r"]*\n([\s\S]*?)---[" + JS_SPACE + r"]*\n?")
_COMMENT = re.compile(r"<!--[\s\S]*?-->")
_BLOCK_COMMENT = re.compile(r"(?m)^ {0,3}<!--(?:-?>|[\s\S]*?(?:-->|$))[^\n]*(?:\n+|$)")
_KEEP = {0x200C, 0x200D, 0xFE0E, 0xFE0F}
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Default_Ignorable_Code_Point (Unicode DerivedCoreProperties), which Claude Code drops from MEMORY.md."""


def units(value: str) -> str:
    """``value`` as a unit string: each astral character as its two surrogates."""
    if value.isascii():
        return value
    return "".join(_split(c) for c in value)


def _split(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return char
    code -= 0x10000
    return chr(0xD800 + (code >> 10)) + chr(0xDC00 + (code & 0x3FF))


def text(value: str) -> str:
    """A unit string back as text: pairs joined, a lone surrogate kept as it is."""
    if value.isascii():
        return value
    return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def js_trim(value: str) -> str:
    return value.strip(JS_SPACE)


def decode(data: bytes) -> str:
    """Buffer.toString('utf8'): bytes that are not UTF-8 read as U+FFFD."""
    return data.decode("utf-8", "replace")


def strip_front_matter(value: str) -> tuple[str, dict[str, str]]:
    """The text without its front matter (after a BOM), and the front matter's top-level keys
    (cc-claude-frontmatter; a rule's ``paths:`` makes it conditional: cc-project-rules)."""
    bare = value.removeprefix("\ufeff")
    if bare.find("---", 3) < 0:
        return value, {}
    found = _FRONT_MATTER.match(bare)
    if found is None:
        return value, {}
    keys = {}
    for line in found.group(1).splitlines():
        key, colon, rest = line.partition(":")
        if colon and key and not key[0].isspace():
            keys[key.strip()] = rest.strip()
    return bare[found.end() :], keys


def strip_comments(value: str) -> str:
    """Block-level HTML comments dropped, as its marked lexer finds them (cc-crlf-bom-comment);
    CRLF then reads as LF. An inline comment stays (cc-claude-frontmatter)."""
    if "<!--" not in value:
        return value
    lf = re.sub(r"\r\n?", "\n", value)
    out, last = [], 0
    for block in _BLOCK_COMMENT.finditer(lf):
        kept = _COMMENT.sub("", block.group())
        out.append(lf[last : block.start()] + (kept if kept.strip(JS_SPACE) else ""))
        last = block.end()
    return value if last == 0 else "".join(out) + lf[last:]


def clean_memory(value: str) -> str:
    """What Claude Code keeps of MEMORY.md's text: line ends as LF, control, format, private,
    unassigned, surrogate and default-ignorable characters dropped (a lone half of a split pair:
    cc-memory-astral-split), as a unit string."""
    lf = re.sub(r"\r\n?|[\u2028\u2029]", "\n", text(value))
    out = []
    for char in lf:
        code = ord(char)
        if code in _KEEP:
            out.append(char)
            continue
        if char not in "\t\n" and (
            unicodedata.category(char) in ("Cc", "Cf", "Co", "Cn", "Cs")
            or any(lo <= code <= hi for lo, hi in _IGNORABLE)
        ):
            continue
        out.append(char)
    return units("".join(out))


def size_words(count: int) -> str:
    """Claude Code's size in words: '24.4KB', '512 bytes' (1,024 to the KB)."""
    kb = count / 1024
    if kb < 1:
        return f"{count} bytes"
    if kb < 1024:
        return f"{kb:.1f}".removesuffix(".0") + "KB"
    return f"{kb / 1024:.1f}".removesuffix(".0") + "MB"


def shorten(value: str, limit: int) -> str:
    """Its PW(): ``value`` (a unit string) to at most ``limit`` units, at a word if that keeps half, with '…'."""
    if len(value) <= limit:
        return value
    head = value[: limit - 1]
    if head and 0xD800 <= ord(head[-1]) <= 0xDBFF:
        head = head[:-1]
    space = re.search(r"[" + JS_SPACE + r"]\S*$", head)
    words = "" if space is None else head[: space.start()].rstrip(JS_SPACE)
    return (words if len(words) > limit / 2 else head.rstrip(JS_SPACE)) + "…"
