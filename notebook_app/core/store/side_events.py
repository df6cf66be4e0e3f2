"""Events that change no file: an agent session starting, a call that failed inside one.

Both are facts of an MCP session (spec §7): an agent connecting is an event,
not a view, and a failed or refused call is logged only inside a session,
so that its journal shows it; a failed call from the CLI or a library
leaves nothing. They are appended under the home's lock, after any write a
killed writer left in flight has been settled, so the log stays in order.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from notebook_app.core.fs.home_pin import HomeRefused, home_lock
from notebook_app.core.fs.state_dir import StateDirError
from notebook_app.core.home.reading import JOURNAL_NAME, MEMORY_TARGETS
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.log.event_action import EventAction
from notebook_app.core.record.log.events import Event, now
from notebook_app.core.record.log.ids import new_id
from notebook_app.core.record.log.json_lines import json_safe
from notebook_app.core.record.log.redaction import masked_args, masked_text
from notebook_app.core.record.log.store import LogWriter
from notebook_app.core.record.journal import LOG_SLOT, log_slot, log_slot_text, pread_slot, write_slot
from notebook_app.core.record.recovery import recover


def record_failed(
    home: Path, by: Actor, args: object, output: str, *, refused: str | None = None, durable: bool = True
) -> str | None:
    """Log a failed or refused call of an MCP session; why it could not be, or None.

    ``refused``: the guard's rule, when the guard refused the call. Nothing
    it wrote, a secret it held is kept only as its rule, start and length
    (spec §7): its bytes become the marker, in the arguments and the output.
    """
    fields: Mapping[str, object] = args if isinstance(args, Mapping) else {}
    target = fields.get("target")
    file = None
    if isinstance(args, Mapping) and isinstance(target, str | None):
        file = MEMORY_TARGETS.get("self" if target is None else target)

    kept, secrets = masked_args(json_safe(args))
    told, _ = masked_text(output)

    def event(last: str | None) -> Event:
        extra = {"refused": refused} if refused else {}
        return Event(
            new_id(EventAction.FAILED, last),
            now(),
            EventAction.FAILED,
            by,
            file=file,
            applied=False,
            args=kept,
            output=told,
            secrets=secrets,
            extra=extra,
        )

    return append_event(home, event, durable=durable)


def record_session_start(home: Path, by: Actor, protocol_version: str | None, found: list[str]) -> str | None:
    """Log that an agent session started (its frozen soul is in its session record)."""

    def event(last: str | None) -> Event:
        args = {"protocol_version": protocol_version, "found": found}
        return Event(
            new_id(EventAction.SESSION_START, last), now(), EventAction.SESSION_START, by, applied=False, args=args
        )

    return append_event(home, event)


def append_event(
    home: Path, make: Callable[[str | None], Event | Sequence[Event]], *, durable: bool = True
) -> str | None:
    """Append the event (or events, in one write) ``make(last_id)``
    under the home's lock; None, or why it could not be."""
    made: list[Path] = []
    try:
        with home_lock(home) as held:
            if not held:
                return f"home is not a directory: {home}"
            recover(home)
            writer = LogWriter.open(home, made=made)
            try:
                journal = _journal(home)
                last = writer.last_id()
                made_events = make(last)
                events = (made_events,) if isinstance(made_events, Event) else tuple(made_events)
                writer.append(b"".join(event.line() for event in events))
                event = events[-1]
                if durable:
                    writer.sync()
                if journal is not None:
                    try:
                        if (log_slot(pread_slot(journal, LOG_SLOT)) or ("",))[0] == writer.log_id:
                            write_slot(journal, log_slot_text(writer.log_id, event.id, writer.inode), LOG_SLOT)
                    finally:
                        os.close(journal)
            finally:
                writer.close()
    except (StateDirError, HomeRefused) as error:
        return str(error)
    except OSError as error:
        _remove_made(made)
        return f"could not write the history ({error.strerror or error})"
    except BaseException:  # a refusal from ``make``: what this call made goes with it
        _remove_made(made)
        raise
    return None


def _remove_made(made: list[Path]) -> None:
    for path in reversed(made):
        try:
            path.rmdir() if path.is_dir() else path.unlink()
        except OSError:
            pass


def _journal(home: Path) -> int | None:
    """The journal, only if it is there and a regular file: an event alone never makes it."""
    try:
        fd = os.open(home / JOURNAL_NAME, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return fd
