"""A secret kept out of the history: its bytes become a marker of the same byte length (spec §7).

What the history keeps of a secret is only what the doctor would show: the
rule, the kind, the byte offset and the length (:class:`.events.SecretSpan`).
Its bytes, wherever a record or a snapshot would hold them, become ``*``
repeated as many times as the secret had bytes, so every offset, size and
line number the log carries stays true and every state stays rebuildable:
a state that held the secret gives back the marker.

The secrets are found by the doctor's own finder (:mod:`...text.secrets`), loaded
only when something is asked of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from notebook_app.core.record.log.events import SecretSpan

MARK = b"*"


def find_spans(data: bytes, *, field: str | None = None, offset: int = 0) -> list[SecretSpan]:
    """Each secret in ``data`` (byte offsets from ``offset``), as the doctor's secret rule finds it."""
    from notebook_app.core.text.secrets import secret_spans  # lazy: detect-secrets

    return [SecretSpan(kind, offset + start, length, field) for kind, start, length in secret_spans(data)]


def mask(data: bytes, spans: Iterable[tuple[int, int]]) -> bytes:
    """``data`` with the bytes of each (start, length) replaced by the marker; what lies outside it is cut off."""
    out = bytearray(data)
    for start, length in spans:
        lo, hi = max(start, 0), min(start + length, len(out))
        if hi > lo:
            out[lo:hi] = MARK * (hi - lo)
    return bytes(out)


def mask_text(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """``text`` with the byte spans (in its UTF-8) masked; a character cut by a span is masked whole."""
    data = text.encode("utf-8", "surrogatepass")
    return mask(data, _whole_characters(data, spans)).decode("utf-8", "surrogatepass")


def _whole_characters(data: bytes, spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out = []
    for start, length in spans:
        end = min(start + length, len(data))
        while 0 < start < len(data) and data[start] & 0xC0 == 0x80:
            start -= 1
        while end < len(data) and data[end] & 0xC0 == 0x80:
            end += 1
        out.append((start, end - start))
    return out


def masked_text(text: str, field: str | None = None) -> tuple[str, list[SecretSpan]]:
    """``text`` with every secret in it masked, and where they were."""
    spans = find_spans(text.encode("utf-8", "surrogatepass"), field=field)
    return (mask_text(text, [(s.start, s.length) for s in spans]), spans) if spans else (text, [])


def masked_args(args: Any) -> tuple[Any, tuple[SecretSpan, ...]]:
    """A call's arguments with every secret in a text value masked, and where each was (``field``: its key)."""
    if isinstance(args, str):
        masked, spans = masked_text(args)
        return masked, tuple(spans)
    if not isinstance(args, Mapping):
        return args, ()
    out: dict[Any, Any] = {}
    found: list[SecretSpan] = []
    for key, value in args.items():
        if isinstance(value, str):
            value, spans = masked_text(value, str(key))
            found += spans
        out[key] = value
    return (out, tuple(found)) if found else (args, ())
