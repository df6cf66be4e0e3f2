"""What ``history --redact ID`` changes, worked out before anything is written (its dry run shows exactly this).

A redaction finds the secrets the record holds (the doctor's own rule, over
its arguments, what its caller was told, the bytes its edit removed and
inserted and the copies it names; when the rule finds none, each line of
its text is taken as the secret), and replaces their bytes by a marker of the
same byte length (:mod:`..log.redaction`): in the record, and in every snapshot
that holds them. A snapshot is named by the digest of its bytes, so a masked
one is kept under its new digest and every record naming the old one names
the new one. Nothing moves, so every offset, size and line number the log
carries stays true and every state stays rebuildable; the file digests of
the states that held the secret are computed again, so they describe the
states as the history now rebuilds them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from notebook_app.core.record.log import snapshots
from notebook_app.core.record.log.events import Event, FileState, Payload
from notebook_app.core.record.log.redaction import MARK, find_spans
from notebook_app.core.record.log.replay import is_start

_MIN_TEXT = 4
"""A text shorter than this, taken whole when the rule finds no secret, would match too much elsewhere."""


@dataclass
class RedactionPlan:
    events: list[Event]
    """The log's events as they will be."""
    texts: list[bytes]
    """The byte strings that become the marker."""
    found: list[str]
    """What the secrets are, in words (``an Anthropic API key in its arguments``), never their text."""
    snapshots: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    """Old snapshot name → (new name, masked bytes)."""
    repointed: list[str] = field(default_factory=list)
    """Other records that name a masked snapshot (their edit bytes or copies): they are marked redacted too."""
    digests: int = 0
    """File digests computed again."""
    also: list[str] = field(default_factory=list)
    """Other records whose own text still holds one of the secrets: redact those too."""


def plan_redaction(state: Path, events: list[Event], index: int) -> RedactionPlan:
    record = events[index]
    texts, found = _secrets_of(state, record)
    plan = RedactionPlan(list(events), texts, found)
    if not texts:
        return plan
    for name in sorted(snapshots.kept(state)):
        try:
            data = snapshots.load(state, name)
        except snapshots.SnapshotMissing:
            continue
        masked = _masked(data, texts)
        if masked != data:
            plan.snapshots[name] = (snapshots.digest(masked), masked)
    renamed = {old: new for old, (new, _) in plan.snapshots.items()}
    for i, event in enumerate(events):
        changed = _repointed(event, renamed)
        if i == index:
            changed = replace(_masked_record(changed, texts), redacted=True)
        elif changed is not event:
            changed = replace(changed, redacted=True)
            plan.repointed.append(event.id)
        if i != index and _carries(event, texts):
            plan.also.append(event.id)
        plan.events[i] = changed
    files = {events[index].file} | {events[i].file for i, e in enumerate(events) if e.id in plan.repointed}
    load = _loader(state, plan.snapshots)
    for name in sorted(f for f in files if f):
        plan.digests += _redigest(plan.events, events, name, load, lambda n: snapshots.load(state, n))
    return plan


def _secrets_of(state: Path, record: Event) -> tuple[list[bytes], list[str]]:
    """The byte strings to mask, and in words what they are; the rule's finds, or else the record's own lines."""
    texts: dict[bytes, None] = {}
    found: dict[str, None] = {}
    for where, data in _carried(state, record, copies=True):
        for span in find_spans(data):
            texts[data[span.start : span.start + span.length]] = None
            article = "an" if span.kind[0].lower() in "aeiou" else "a"
            found[f"{article} {span.kind} in {where}"] = None
    if not texts:
        for where, data in _carried(state, record, copies=False):
            for line in data.split(b"\n"):
                line = line.rstrip(b"\r")
                if len(line.strip()) >= _MIN_TEXT:
                    texts[line] = None
                    found[f"the text of {where}"] = None
    return sorted(texts, key=len, reverse=True), list(found)


def _carried(state: Path, event: Event, *, copies: bool) -> Iterator[tuple[str, bytes]]:
    for text in _strings(event.args):
        yield "its arguments", text.encode("utf-8", "surrogatepass")
    if event.output and (copies or not event.is_write):  # a write's output is the core's words, the same for every add
        yield "what its caller was told", event.output.encode("utf-8", "surrogatepass")
    for h in event.edit or ():
        for where, payload in (("the bytes its edit removed", h.removed), ("the bytes its edit inserted", h.inserted)):
            data = payload.data if payload.data is not None else _load(state, payload.blob)
            if data:
                yield where, data
    if copies:
        if event.base is not None:
            yield f"the copy of {event.file} where its history begins", _load(state, event.base)
        if event.snap is not None and event.edit is None:
            yield f"the copy of {event.file} an outside change left", _load(state, event.snap)


def _load(state: Path, name: str | None) -> bytes:
    try:
        return snapshots.load(state, name) if name else b""
    except snapshots.SnapshotMissing:
        return b""


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in ("action", "target", "id", "to", "file"):
                yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _masked(data: bytes, texts: list[bytes]) -> bytes:
    for text in texts:
        if text in data:
            data = data.replace(text, MARK * len(text))
    return data


def _masked_value(value: Any, texts: list[bytes]) -> Any:
    if isinstance(value, str):
        data = value.encode("utf-8", "surrogatepass")
        masked = _masked(data, texts)
        return value if masked == data else masked.decode("utf-8", "surrogatepass")
    if isinstance(value, dict):
        return {k: _masked_value(v, texts) for k, v in value.items()}
    if isinstance(value, list):
        return [_masked_value(v, texts) for v in value]
    return value


def _masked_record(event: Event, texts: list[bytes]) -> Event:
    """``event`` with the texts masked in what it carries inline (its blobs and copies are snapshots, masked apart)."""

    def payload(p: Payload) -> Payload:
        return Payload(p.size, _masked(p.data, texts)) if p.data is not None else p

    edit = (
        None
        if event.edit is None
        else tuple(replace(h, removed=payload(h.removed), inserted=payload(h.inserted)) for h in event.edit)
    )
    output = _masked_value(event.output, texts) if event.output is not None else None
    return replace(event, args=_masked_value(event.args, texts), output=output, edit=edit)


def _carries(event: Event, texts: list[bytes]) -> bool:
    inline = [t.encode("utf-8", "surrogatepass") for t in _strings(event.args)]
    inline += [event.output.encode("utf-8", "surrogatepass")] if event.output else []
    inline += [p.data for h in event.edit or () for p in (h.removed, h.inserted) if p.data is not None]
    return any(text in data for data in inline for text in texts)


def _repointed(event: Event, renamed: dict[str, str]) -> Event:
    if not renamed:
        return event

    def payload(p: Payload) -> Payload:
        return Payload(p.size, blob=renamed[p.blob]) if p.blob in renamed else p

    edit = event.edit
    if edit is not None and any(p.blob in renamed for h in edit for p in (h.removed, h.inserted)):
        edit = tuple(replace(h, removed=payload(h.removed), inserted=payload(h.inserted)) for h in edit)
    base = renamed.get(event.base, event.base) if event.base else None
    snap = renamed.get(event.snap, event.snap) if event.snap else None
    if edit is event.edit and base == event.base and snap == event.snap:
        return event
    return replace(event, edit=edit, base=base, snap=snap)


def _loader(state: Path, pending: dict[str, tuple[str, bytes]]) -> Callable[[str], bytes]:
    fresh = {new: data for new, data in pending.values()}

    def load(name: str) -> bytes:
        return fresh[name] if name in fresh else snapshots.load(state, name)

    return load


_UNKNOWN = object()


def _redigest(
    new: list[Event], old: list[Event], name: str, load_new: Callable[[str], bytes], load_old: Callable[[str], bytes]
) -> int:
    """Walk ``name``'s states in the old and the new log side by side; give the new one's changed states their digest.

    A digest is computed again only where the old one described the old
    state (a history that never matched stays as it was) and the state changed.
    """
    count = 0
    old_content: Any = _UNKNOWN
    new_content: Any = _UNKNOWN
    for i, (then, now) in enumerate(zip(old, new, strict=True)):
        if then.file != name or not then.is_write:
            continue
        if is_start(then):
            old_content, new_content = _start(then, load_old), _start(now, load_new)
        before = _digested(now.before, old_content, new_content)
        old_content = _after(old_content, then, load_old)
        new_content = _after(new_content, now, load_new)
        after = _digested(now.after, old_content, new_content)
        appended = now.appended
        if now.appended is not None and now.edit:
            inserted = _bytes(now.edit[-1].inserted, load_new)
            if inserted is not None and hashlib.sha256(inserted).hexdigest() != now.appended:
                appended = hashlib.sha256(inserted).hexdigest()
        if (before, after, appended) != (now.before, now.after, now.appended):
            count += (before != now.before) + (after != now.after) + (appended != now.appended)
            new[i] = replace(now, before=before, after=after, appended=appended)
    return count


def _start(event: Event, load: Callable[[str], bytes]) -> Any:
    if event.base is not None:
        try:
            return bytearray(load(event.base))
        except snapshots.SnapshotMissing:
            return _UNKNOWN
    return None if event.before is not None and not event.before.exists else bytearray()


def _after(content: Any, event: Event, load: Callable[[str], bytes]) -> Any:
    """The content after ``event``, changed in place where it can be (a walk over 10,000 adds copies nothing)."""
    if event.after is not None and not event.after.exists:
        return None
    if event.snap is not None:
        try:
            return bytearray(load(event.snap))
        except snapshots.SnapshotMissing:
            pass
    if content is _UNKNOWN or event.edit is None:
        return _UNKNOWN
    data = content if isinstance(content, bytearray) else bytearray()
    shift = 0
    for h in event.edit:
        inserted = _bytes(h.inserted, load)
        if inserted is None:
            return _UNKNOWN
        start = h.at + shift
        data[start : start + h.removed.size] = inserted
        shift += h.delta
    return data


def _bytes(payload: Payload, load: Callable[[str], bytes]) -> bytes | None:
    if payload.data is not None:
        return payload.data
    if payload.blob is not None:
        try:
            return load(payload.blob)
        except snapshots.SnapshotMissing:
            return None
    return None


def _digested(state: FileState | None, old: Any, new: Any) -> FileState | None:
    if (
        state is None
        or state.sha256 is None
        or not isinstance(old, bytes | bytearray)
        or not isinstance(new, bytes | bytearray)
    ):
        return state
    if old == new or hashlib.sha256(old).hexdigest() != state.sha256:
        return state
    return replace(state, sha256=hashlib.sha256(new).hexdigest())
