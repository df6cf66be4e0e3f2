"""The notebook's own words about a text: quoted in a message (a secret in it shown by its first characters only,
cut when long, hidden characters spelled as escapes), and the notice a write that put a secret in a file gets."""

from __future__ import annotations

from notebook_app.core.text.hidden import hidden_kind
from notebook_app.core.text.secrets import a_kind, secrets_in, shown_text


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


def secret_notice(text: str, before: str = "") -> str | None:
    """What a write that put a secret in a file says, even though it was allowed (issue 34), or None: the kind of
    the first secret ``text`` holds that ``before`` (the text it replaced) did not, its first characters only, and
    how many more. One sentence for the CLI's stderr and the app's notification alike."""
    found = secrets_in(text) if text else []
    if found and before:
        old = secrets_in(before)
        for seen in old:
            if seen in found:
                found.remove(seen)
    if not found:
        return None
    kind, shown = found[0]
    more = f" and {len(found) - 1} more" if len(found) > 1 else ""
    return f"what was written holds {a_kind(kind)}: {shown}{more}; the doctor's fix replaces it with [redacted]"
