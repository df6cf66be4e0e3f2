"""Event ids: a kind prefix and a sortable body, so a log in id order is a log in time order.

``w-1m8q1gt0y3hgf``: the kind (``w`` a write, ``p`` a proposal, ``r`` a
rejection, ``f`` a failed call, ``s`` a session start), then 9 characters of
milliseconds and 4 random ones in Crockford's base32. Written under the
home's lock, each id is made greater than the last, so ids sort as the log
runs. CLI verbs accept any unique prefix, with or without the kind.
"""

from __future__ import annotations

import random
import re
import time as _time

from notebook_app.core.record.log.event_action import EventAction

_KIND_OF = {
    EventAction.PROPOSED: "p",
    EventAction.REJECTED: "r",
    EventAction.FAILED: "f",
    EventAction.SESSION_START: "s",
}
ID_KINDS = {"w": "a write", "p": "a proposal", "r": "a rejection", "f": "a failed call", "s": "a session start"}

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford's base32, lower case
_TIME_CHARS = 9  # 45 bits of milliseconds: until the year 3084
_RANDOM_CHARS = 4
ID_PATTERN = re.compile(rf"[a-z]-[0-9a-z]{{{_TIME_CHARS + _RANDOM_CHARS}}}")


_random = random.Random()


def kind_of(action: str) -> str:
    """The id's kind prefix for ``action``: ``w`` for every write."""
    return _KIND_OF.get(action, "w")


_PAIRS = [a + b for a in _ALPHABET for b in _ALPHABET]
"""Two characters for every 10 bits: an id is made on every write."""


def _base32(number: int, width: int) -> str:
    chars = []
    if width % 2:
        chars.append(_ALPHABET[(number >> (5 * (width - 1))) & 31])
        width -= 1
    for shift in range(5 * (width - 2), -1, -10):
        chars.append(_PAIRS[(number >> shift) & 1023])
    return "".join(chars)


def _number(text: str) -> int:
    value = 0
    for char in text:
        value = value * 32 + _ALPHABET.index(char)
    return value


def new_id(action: str, after: str | None = None, *, now_ms: int | None = None) -> str:
    """A sortable id: kind, milliseconds, a random tail; always greater than ``after``'s."""
    ms = int(_time.time() * 1000) if now_ms is None else now_ms
    tail = _random.getrandbits(5 * _RANDOM_CHARS)  # ids are unique by the lock: the tail only spreads them
    body = _base32(ms * 32**_RANDOM_CHARS + tail, _TIME_CHARS + _RANDOM_CHARS)
    if after is not None and body <= after[2:] and ID_PATTERN.fullmatch(after):  # same width, ordered alphabet
        body = _base32(_number(after[2:]) + 1, _TIME_CHARS + _RANDOM_CHARS)
    return f"{kind_of(action)}-{body}"


def id_order(event_id: str) -> str:
    """The part of an id that sorts by time, whatever its kind."""
    return event_id[2:]
