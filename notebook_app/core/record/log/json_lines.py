"""The log's lines as bytes: one compact JSON object per line, after a header line naming the log.

Keys keep the order they are given in (:meth:`.events.Event.to_json` fixes
it), without spaces; lone surrogates an agent may send are escaped rather
than failing a write. :func:`json_safe` turns arguments "as given" into
what JSON can hold.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

LOG_FORMAT = "persona-notebook/events"
LOG_VERSION = 2
"""The log's schema version, written in a new log's header. 2 added the ``tidy`` action and the ``group`` field
(:mod:`...tidy.apply`); 1 added ``secrets``."""
READ_VERSIONS = (1, 2)
"""The header versions this release reads: a log begun by an earlier release is read, and appended to, as it is
(its header is never rewritten; a reader keeps an action or a field it does not know as it is written)."""


def json_safe(value: object, depth: int = 0) -> Any:
    """``value`` as JSON can hold it: arguments "as given" may hold anything a library caller passed."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if type(value) is dict and all(type(k) is str and (v is None or type(v) is str) for k, v in value.items()):
        return value  # the usual tool input: nothing to convert
    if depth > 20:
        return repr(value)
    if isinstance(value, Mapping):
        return {str(k): json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v, depth + 1) for v in value]
    return repr(value)


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_ASCII = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"))


def json_line(value: object) -> bytes:
    """One line of UTF-8 JSON; lone surrogates (an agent may send them) are escaped."""
    try:
        return (_COMPACT.encode(value) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (_ASCII.encode(value) + "\n").encode("ascii")


def header_line(log_id: str) -> bytes:
    return json_line({"format": LOG_FORMAT, "version": LOG_VERSION, "log": log_id})


def parse_header(line: bytes) -> str | None:
    """The log's id from its first line; None when it is not a header this version reads."""
    try:
        data = json.loads(line)
    except ValueError:
        return None
    if isinstance(data, dict) and data.get("format") == LOG_FORMAT and data.get("version") in READ_VERSIONS:
        return str(data.get("log"))
    return None
