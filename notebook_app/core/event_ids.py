"""Event ids: a kind prefix and a sortable body, so a log in id order is a log in time order.

``w-1m8q1gt0y3hgf``: the kind (``w`` a write, ``p`` a proposal, ``r`` a
rejection, ``f`` a failed call, ``s`` a session start), then 9 characters of
milliseconds and 4 random ones in Crockford's base32. Written under the
home's lock, each id is made greater than the last, so ids sort as the log
runs. CLI verbs accept any unique prefix, with or without the kind.
"""

from __future__ import annotations

import re
import secrets
import time as _time

_KIND_OF = {"proposed": "p", "rejected": "r", "failed": "f", "session-start": "s"}
ID_KINDS = {"w": "a write", "p": "a proposal", "r": "a rejection", "f": "a failed call", "s": "a session start"}

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford's base32, lower case
_TIME_CHARS = 9  # 45 bits of milliseconds: until the year 3084
_RANDOM_CHARS = 4
ID_PATTERN = re.compile(r"[a-z]-[0-9a-z]{%d}" % (_TIME_CHARS + _RANDOM_CHARS))


def kind_of(action: str) -> str:
    """The id's kind prefix for ``action``: ``w`` for every write."""
    return _KIND_OF.get(action, "w")


def _base32(number: int, width: int) -> str:
    chars = []
    for _ in range(width):
        number, digit = divmod(number, 32)
        chars.append(_ALPHABET[digit])
    return "".join(reversed(chars))


def _number(text: str) -> int:
    value = 0
    for char in text:
        value = value * 32 + _ALPHABET.index(char)
    return value


def new_id(action: str, after: str | None = None, *, now_ms: int | None = None) -> str:
    """A sortable id: kind, milliseconds, a random tail; always greater than ``after``'s."""
    ms = int(_time.time() * 1000) if now_ms is None else now_ms
    tail = secrets.randbelow(32**_RANDOM_CHARS)
    if after is not None and ID_PATTERN.fullmatch(after):
        last = _number(after[2:])
        if ms * 32**_RANDOM_CHARS + tail <= last:
            ms, tail = divmod(last + 1, 32**_RANDOM_CHARS)
    return f"{kind_of(action)}-{_base32(ms, _TIME_CHARS)}{_base32(tail, _RANDOM_CHARS)}"


def id_order(event_id: str) -> str:
    """The part of an id that sorts by time, whatever its kind."""
    return event_id[2:]
