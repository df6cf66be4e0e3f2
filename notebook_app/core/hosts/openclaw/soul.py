"""A home's soul as OpenClaw loads it, from the loader its goldens prove: what the doctor and the panes show.

The entries are the release's own (:func:`.releases.load_of` over
:mod:`.bootstrap`), exactly those ``soul --host openclaw`` prints;
here they become the notebook's :class:`Composition`: one section per entry,
its body what OpenClaw injects for the file (``[MISSING] Expected at: <path>``
included), a :class:`SkippedFile` for each file it leaves out with its reason,
and one :class:`FileLoad` per entry in UTF-16 units whose cut lines are the
file's own lines. Three ways in, one way of building: a workspace on disk
(:func:`compose_openclaw`), a frozen snapshot's bytes (:func:`snapshot_as_openclaw`)
and one file changed in memory (:func:`recompose_openclaw`, the dry run); the
last two read nothing. Never raises.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from notebook_app.core.home.file_load import FileLoad
from notebook_app.core.home.files import FileRead, FileStatus
from notebook_app.core.home.reading import reads_of
from notebook_app.core.home.soul import (
    SECTION_SEPARATOR,
    BootstrapFile,
    Composition,
    SkippedFile,
    home_path,
    section_heading,
)
from notebook_app.core.hosts.injected import InjectedPart, PartStatus
from notebook_app.core.hosts.openclaw.bootstrap import Workspace, link_dropped, read_workspace, workspace_of
from notebook_app.core.hosts.openclaw.releases import load_of, ruled_release
from notebook_app.core.hosts.utf16 import text_of, trim_end

if TYPE_CHECKING:
    from notebook_app.core.hosts.openclaw.bootstrap import _File
    from notebook_app.core.hosts.profile import HostProfile


@dataclass(frozen=True)
class OpenClawRead:
    """What an OpenClaw composition was built from, kept on it (:attr:`Composition.host_read`) for the dry run."""

    workspace: Workspace
    rel: dict
    kind: str
    notes: tuple[str, ...]


def compose_openclaw(home: str | os.PathLike[str], host: HostProfile) -> Composition:
    """The soul of workspace ``home`` as the OpenClaw release of ``host`` injects it, read from disk."""
    ruled = ruled_release(host.version, host.session_kind, host.caps or None)
    if isinstance(ruled, str):  # resolve_host refuses such a profile: only a hand-made one gets here
        return Composition(soul="", files=(), host=host.name, host_loads=(), profile=host)
    rel, notes = ruled
    root = home_path(home).resolve()
    with reads_of(root):  # no writer is mid-action while the files are read
        workspace = read_workspace(root, rel)
    return _composed(host, OpenClawRead(workspace, rel, host.session_kind, notes))


def snapshot_as_openclaw(composition: Composition, host: HostProfile, home: str | os.PathLike[str]) -> Composition:
    """A contract composition (a frozen snapshot of ``home``) as OpenClaw would have loaded the same bytes.

    The snapshot holds the contract's seven files as they were (up to 2 MiB each)
    and what stood where one did not load, and BOOTSTRAP.md when the home opened as
    OpenClaw (:attr:`Composition.held`); a name it does not hold (memory.md) is taken
    as absent, and a file it loaded as a regular file (it does not say whether it was
    a link)."""
    ruled = ruled_release(host.version, host.session_kind, host.caps or None)
    if isinstance(ruled, str):
        return Composition(soul="", files=(), host=host.name, host_loads=(), profile=host)
    rel, notes = ruled
    held = (*composition.files, *composition.held)
    reads = {f.name: FileRead(f.name, FileStatus.REGULAR, f.size, bytes(f.loaded)) for f in held}
    reads.update({s.name: FileRead(s.name, s.status) for s in composition.skipped})
    workspace = workspace_of(home_path(home).resolve(), rel, reads)
    return _composed(host, OpenClawRead(workspace, rel, host.session_kind, notes))


def recompose_openclaw(composition: Composition, name: str, data: bytes) -> Composition:
    """``composition`` (OpenClaw's) as if file ``name`` held ``data``: the dry run of a write, total cap included."""
    read = composition.host_read
    if not isinstance(read, OpenClawRead) or composition.profile is None:
        return composition
    return _composed(composition.profile, replace(read, workspace=read.workspace.with_file(name, data, read.rel)))


def _composed(host: HostProfile, read: OpenClawRead) -> Composition:
    load = load_of(read.workspace, read.rel, read.kind, read.notes)
    sources = {f.name: f for f in read.workspace.files}
    files: list[BootstrapFile] = []
    loads: list[FileLoad] = []
    remaining = load.total_cap
    for part in load.parts:
        source = sources[part.name]
        files.append(
            BootstrapFile(
                name=part.name,
                body=part.injected or "",
                size=source.size,
                truncated=part.status is PartStatus.CUT,
                decode_error=source.decode_error,
                loaded=(part.injected or "").encode("utf-8", "surrogatepass"),  # what loads is what it injects
            )
        )
        loads.append(_file_load(part, source, _cap(part.name, read.rel, remaining)))
        if remaining is not None:
            remaining = max(0, remaining - part.injected_len)
    skipped = [
        SkippedFile(name, FileStatus.LINK if (name, why) == link_dropped(name) else FileStatus.REGULAR, why)
        for name, why in load.skipped
    ]
    accounted = {part.name for part in load.parts} | {name for name, _ in load.skipped}
    for source in read.workspace.files:  # there, yet neither an entry nor left out in words: say why
        if source.name not in accounted and (source.content is not None or source.unreadable):
            skipped.append(SkippedFile(source.name, FileStatus.REGULAR, _why_not(source, load.total_cap)))
    parts: list[str] = []
    for file in files:
        parts += (SECTION_SEPARATOR if parts else "", section_heading(file.name), file.body)
    return Composition(
        soul="".join(parts),
        files=tuple(files),
        skipped=tuple(skipped),
        host=host.name,
        host_loads=tuple(loads),
        profile=host,
        host_read=read,
    )


def _why_not(source: _File, total_cap: int | None) -> str:
    if source.content is not None and not trim_end(source.content):
        return f"{source.name} is empty once its trailing white space is trimmed: OpenClaw injects no entry for it"
    return f"OpenClaw's total cap of {total_cap or 0:,} is used up before {source.name}; it does not load"


def _cap(name: str, rel: dict, remaining: int | None) -> int:
    """The cap the entry was built within: the file's (USER.md's own from 2026.8.2), or what the total left."""
    cap = int(rel["file_cap"])
    if name == "USER.md" and "user_cap" in rel:
        cap = min(cap, int(rel["user_cap"]))
    return max(1, min(cap, remaining)) if remaining is not None else cap


def _file_load(part: InjectedPart, source: _File, cap: int) -> FileLoad:
    """The entry's facts in UTF-16 units; a cut's lines and byte offset are those of the file itself."""
    raw = part.raw_len or 0
    if part.status is not PartStatus.CUT:
        return FileLoad(part.name, "utf16", raw, raw if part.loads else 0, cap, rendered=part.injected_len)
    if part.cut is None:  # cut short by what the total left, without a marker naming the head and tail
        return FileLoad(
            part.name, "utf16", raw, min(raw, part.injected_len), cap, truncated=True, rendered=part.injected_len
        )
    text = source.content or ""
    head, tail = int(part.cut["head_end"]), int(part.cut["tail_start"])
    return FileLoad(
        part.name,
        "utf16",
        raw,
        head + (raw - tail),
        cap,
        truncated=True,
        cut_line=text.count("\n", 0, head) + 1,
        cut_offset=len(text_of(text[:head]).encode("utf-8", "surrogatepass")),
        resume_line=text.count("\n", 0, tail) + 1 if tail < raw else None,
        rendered=part.injected_len,
    )
