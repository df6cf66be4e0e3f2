"""Text as Python's universal newlines read it, and the way back to the file's own offsets. Pure.

Hermes reads its files with ``Path.read_text``: ``\\r\\n`` and a lone ``\\r``
are ``\\n`` to it. Its loader (``hosts/hermes``) and our ``§`` store writer
(``memory/sections``) both count in that text and place what they find back
in the file's own characters.
"""

from __future__ import annotations


def universal(text: str) -> str:
    """``text`` with ``\\r\\n`` and a lone ``\\r`` as ``\\n``."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def original_index(original: str, index: int) -> int:
    """Where character ``index`` of :func:`universal` of ``original`` falls in ``original`` itself."""
    if "\r" not in original:
        return index
    seen = 0
    for at, char in enumerate(original):
        if seen >= index:
            return at
        if not (char == "\r" and original[at + 1 : at + 2] == "\n"):  # a CRLF pair reads as one character
            seen += 1
    return len(original)
