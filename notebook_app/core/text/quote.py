"""Text quoted in the doctor's messages: a secret in it shown by its first characters only, cut when long, hidden
characters spelled as escapes."""

from __future__ import annotations

from .hidden import hidden_kind
from .secrets import shown_text


def shown(text: str, limit: int = 60) -> str:
    """``text`` quoted for a message: a secret in it shown by its first characters only, cut when long, hidden
    characters spelled as escapes."""
    text = shown_text(text)
    cut = text if len(text) <= limit else text[:limit] + "…"
    out = []
    for char in cut:
        if hidden_kind(char) is None:
            out.append(char)
        else:
            code = ord(char)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
    return "“" + "".join(out) + "”"
