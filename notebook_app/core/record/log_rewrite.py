"""The log rewritten whole under the home's lock: what a prune, a redaction and a rejected proposal share.

The rewrite keeps the log's id, so the journal's slots stay valid, and goes
through a temp file, fsync and rename: readers see the old log or the new
one. A rejected proposal that held a secret keeps only where the secret was
(:func:`keep_only_where`); prune and redact, which read the history, build on
this in :mod:`notebook_app.core.history.admin`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from notebook_app.core.fs.atomic import write_atomically
from notebook_app.core.fs.home_pin import no_home
from notebook_app.core.fs.state_dir import readable_state
from notebook_app.core.home.soul import home_path
from notebook_app.core.record.git.history import GitHolding
from notebook_app.core.record.log.actor import LIBRARY
from notebook_app.core.record.log.events import Event, EventError
from notebook_app.core.record.log.json_lines import header_line, parse_header
from notebook_app.core.record.log.redaction import masked_args
from notebook_app.core.record.log.store import LOG_NAME, LogWriter, open_reader
from notebook_app.core.record.storage import StorageError, locked_home


class HistoryError(Exception):
    """A history question that has no answer (an unknown or ambiguous id, a state that cannot be rebuilt)."""


@dataclass(frozen=True)
class AdminResult:
    output: str
    is_error: bool = False
    git: GitHolding | None = None
    """For a redaction: which of the home's git commits still hold the text (None: the home is in no git)."""


def keep_only_where(home: str | os.PathLike[str], record_id: str, *, durable: bool = True) -> AdminResult:
    """Mask the secrets in a record that wrote nothing (a rejected proposal) and keep where each was (spec §7).

    Its arguments keep the marker in each secret's place, and the record gains
    ``secrets`` (the rule, the kind, the field, the byte start and length).
    The log is rewritten under the home's lock, as a redaction rewrites it.
    """
    root = home_path(home)
    try:
        with locked_log(root, durable) as (state, events):
            index = next((i for i, e in enumerate(events) if e.id == record_id), None)
            if index is None:
                return AdminResult(f"{record_id} is not in the log any more; nothing was changed", is_error=True)
            event = events[index]
            if event.is_write:
                return AdminResult(f"{record_id} is a write: redact it instead; nothing was changed", is_error=True)
            args, spans = masked_args(event.args)
            if not spans:
                return AdminResult(f"{record_id} holds no secret")
            events[index] = replace(event, args=args, secrets=event.secrets + spans)
            rewrite_log(root, state, events, durable)
            return AdminResult(
                f"{record_id} keeps only where its {len(spans)} secret{'s' if len(spans) != 1 else ''} were"
            )
    except (HistoryError, StorageError) as error:
        return AdminResult(str(error), is_error=True)
    except OSError as error:
        return AdminResult(f"could not rewrite the history ({error.strerror or error}); it is as it was", is_error=True)


@contextmanager
def locked_log(root: Path, durable: bool) -> Iterator[tuple[Path, list[Event]]]:
    """The home's lock held, a killed writer's write settled, and every event of the log read."""
    if not root.is_dir():
        raise HistoryError(no_home(root))
    with locked_home(root, create=False, durable=durable, by=LIBRARY):
        state = readable_state(root)
        if state is None or not (state / LOG_NAME).exists():
            raise HistoryError(f"{root} has no history")
        LogWriter.open(root, made=[]).close()  # cuts a line a killed writer left unfinished
        events = []
        for line in (state / LOG_NAME).read_bytes().split(b"\n")[1:]:
            if line:
                try:
                    events.append(Event.from_line(line))
                except EventError:
                    continue
        yield state, events


@contextmanager
def read_log(root: Path) -> Iterator[tuple[Path, list[Event]]]:
    """Every readable event of the log, as any reader sees it: no lock, nothing written (a dry run)."""
    if not root.is_dir():
        raise HistoryError(f"no such home: {root}")
    state = readable_state(root)
    reader = open_reader(root) if state is not None else None
    if state is None or reader is None:
        raise HistoryError(f"{root} has no history")
    with reader:
        events = list(reader.events())
    yield state, events


def log_id(state: Path) -> str:
    with open(state / LOG_NAME, "rb") as handle:
        return parse_header(handle.readline().rstrip(b"\n")) or ""


def rewrite_log(root: Path, state: Path, events: list[Event], durable: bool) -> None:
    data = header_line(log_id(state)) + b"".join(event.line() for event in events)
    write_atomically(state, LOG_NAME, data, mode=0o600, temp_prefix=".tmp-", durable=durable)
