"""An outside change: what another writer did to a file since the log last left it, as the event that records it.

A write that finds the file changed records this event just before its own
(:mod:`.recording`), with a snapshot of what the outside writer left; when
that write removes a secret, the secret the outside writer brought is kept
only as its marker too.
"""

from __future__ import annotations

from dataclasses import replace

from notebook_app.core.record.log import snapshots
from notebook_app.core.record.log.actor import Actor, ActorKind
from notebook_app.core.record.log.event_action import EventAction
from notebook_app.core.record.log.events import ABSENT, Event, FileState, Hunk, Payload, now
from notebook_app.core.record.log.redaction import mask
from notebook_app.core.record.log.replay import count_lines, diff_hunks
from notebook_app.core.record.journal import StatKey

OUTSIDE = Actor(ActorKind.OUTSIDE)


def outside_change(
    name: str, last: bytes | None, content: bytes | None, key: StatKey | None, *, known_before: bool
) -> Event:
    """The outside change from ``last`` (what the log left) to ``content``; its id is given when written."""
    before: FileState | None
    edit: tuple[Hunk, ...] | None
    if not known_before:  # the log could not rebuild what it left: the change is known only by its result
        before, edit = None, None
    elif last is None:
        before = ABSENT
        edit = (Hunk(0, Payload.of(b""), Payload.of(content or b""), 1, 0, count_lines(content or b"")),)
    else:
        before = FileState(True, len(last), count_lines(last), snapshots.digest(last))
        if content is None:
            edit = (Hunk(0, Payload.of(last), Payload.of(b""), 1, count_lines(last), 0),)
        else:
            edit = diff_hunks(last, content)
    after = (
        ABSENT
        if content is None
        else FileState(True, len(content), count_lines(content), snapshots.digest(content), key)
    )
    return Event(
        id="",
        time=now(),
        action=EventAction.OUTSIDE,
        by=OUTSIDE,
        file=name,
        edit=edit,
        before=before,
        after=after,
        output=f"{name} was changed outside the notebook's core",
    )


def outside_masked(event: Event, hidden: list[tuple[int, int]], content: bytes | None) -> Event:
    """An outside change seen by a write that removes a secret: the secret it brought is kept as the marker too."""
    out, shift = [], 0
    for h in event.edit or ():
        if h.inserted.data is not None:  # its bytes land at h.at + shift in the content it left
            local = [(start - h.at - shift, length) for start, length in hidden]
            h = replace(h, inserted=Payload.of(mask(h.inserted.data, local)))
        shift += h.delta
        out.append(h)
    after = event.after
    if after is not None and after.sha256 is not None and content is not None:
        after = replace(after, sha256=snapshots.digest(content))
    return replace(event, edit=tuple(out) if event.edit is not None else None, after=after, redacted=True)
