"""The record of a plain append, written without building an :class:`~.events.Event`: the common write, kept cheap.

An agent's add is the write that happens most, and the one that must cost the
same on a 2 MiB file as on a tiny one; its record is made here as one
formatted line, exactly what ``Event.line()`` would write for it (a test
holds the two together). Anything unusual (bytes that are not UTF-8, a large
entry, an outside change or a first record to come with it) takes the
general way.
"""

from __future__ import annotations

import functools
import json
import re

from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.log.events import INLINE_LIMIT, FileState

_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_PLAIN = re.compile(r"[A-Z]+\.md")  # a bootstrap file name needs no escaping


@functools.lru_cache(maxsize=64)
def _by(by: Actor) -> str:
    return _ENCODE(by.to_json())


def _state(state: FileState) -> str:
    """``FileState.to_json()`` as JSON text, for the states an append records."""
    if not state.exists:
        return "null"
    key = f',"key":[{state.key[0]},{state.key[1]},{state.key[2]}]' if state.key is not None else ""
    return f'{{"size":{state.size},"lines":{state.lines}{key}}}'


def append_line(
    *,
    event_id: str,
    time: str,
    file: str,
    action: str,
    by: Actor,
    span: tuple[int, int, int],
    args: object,
    output: str | None,
    before: FileState,
    after: FileState,
    appended: str,
    at: int,
    inserted: bytes,
) -> bytes | None:
    """The log line of an append, or None when it needs the general way."""
    if (
        len(inserted) > INLINE_LIMIT
        or before.sha256 is not None
        or after.sha256 is not None
        or not _PLAIN.fullmatch(file)
    ):
        return None
    try:
        text = inserted.decode("utf-8")
    except UnicodeDecodeError:
        return None
    parts = [
        f'{{"id":"{event_id}","time":"{time}","file":"{file}","action":"{action}","applied":true,"by":{_by(by)},'
        f'"lines":[[{span[0]},{span[1]},{span[2]}]]'
    ]
    if args is not None:
        parts.append(f',"args":{_ENCODE(args)}')
    if output is not None:
        parts.append(f',"output":{_ENCODE(output)}')
    parts.append(f',"before":{_state(before)},"after":{_state(after)},"appended":"{appended}"')
    parts.append(f',"edit":[{{"at":{at},"removed":"","inserted":{_ENCODE(text)}}}]}}\n')
    try:
        return "".join(parts).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate in the arguments: the general way escapes it
        return None
