"""A home's soul as Claude Code 2.1.332 loads it, from the loader its goldens prove: what the doctor and the panes
show.

The home's MEMORY.md stands for its auto memory (``~/.claude/projects/<slug>/memory/MEMORY.md``), trimmed,
cut to 200 lines and 25,000 UTF-16 units at a line end, with the ``> WARNING: MEMORY.md is …`` block it adds
after a cut. A home opened as a Claude Code project has its CLAUDE.md chain in its file map
(:attr:`FileMap.host_files`: ``~/.claude/CLAUDE.md``, ``CLAUDE.md``, imports, ``.claude/rules/``): each is a
section before MEMORY.md, its text as Claude Code injects it, so the panes show every part it loads.
MEMORY.md's section body is what
:func:`.load.memory_part` gives, the function :func:`.load.claude_code_load` builds the memory's part with.
Three ways in, one way of building: a home on disk (:func:`compose_claude_code`), a frozen snapshot's bytes
(:func:`snapshot_as_claude_code`) and MEMORY.md changed in memory (:func:`recompose_claude_code`, the dry
run). Never raises; never writes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.core.home.file_load import FileLoad
from notebook_app.core.home.files import FileRead, FileStatus
from notebook_app.core.home.refusals import decode_error
from notebook_app.core.home.soul import (
    SECTION_SEPARATOR,
    BootstrapFile,
    Composition,
    SkippedFile,
    home_path,
    section_heading,
)
from notebook_app.core.hosts.claude_code import text as js
from notebook_app.core.hosts.claude_code.load import (
    NOT_MODELLED,
    memory_part,
    proven_versions,
    quoting_notes,
    read,
    rules,
    text_of,
)
from notebook_app.core.hosts.injected import InjectedPart, PartStatus

if TYPE_CHECKING:
    from notebook_app.core.home.layout import HostFile
    from notebook_app.core.hosts.profile import HostProfile

STANDS_FOR = (
    "the home's MEMORY.md stands for Claude Code's auto memory (~/.claude/projects/<slug>/memory/MEMORY.md), "
    "after the project's CLAUDE.md files when the home was opened as a Claude Code project"
)


@dataclass(frozen=True)
class ClaudeRead:
    """What a Claude Code composition was built from, kept on it (:attr:`Composition.host_read`) for the dry run."""

    root: Path
    found: FileRead
    host: HostProfile
    markers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The WARNING block after a cut, as Claude Code words it (for the doctor)."""
    instructions: tuple[FileRead, ...] = ()
    """The CLAUDE.md chain it injects before MEMORY.md, each named as the file list names it."""


def compose_claude_code(
    home: str | os.PathLike[str], host: HostProfile, instructions: Mapping[str, HostFile] | None = None
) -> Composition:
    """The home's MEMORY.md as Claude Code's auto memory loads it, after ``instructions`` (the CLAUDE.md chain,
    by name, in its order), read from disk."""
    root = home_path(home).resolve()
    chain = tuple(replace(read(Path(file.path)), name=name) for name, file in (instructions or {}).items())
    return _composed(ClaudeRead(root, read(root / "MEMORY.md"), host, instructions=chain))


def snapshot_as_claude_code(composition: Composition, host: HostProfile, home: str | os.PathLike[str]) -> Composition:
    """A contract composition (a frozen snapshot of ``home``) as Claude Code would have loaded its MEMORY.md."""
    file = composition.file("MEMORY.md")
    skipped = next((s for s in composition.skipped if s.name == "MEMORY.md"), None)
    if file is not None:
        found = FileRead("MEMORY.md", FileStatus.REGULAR, file.size, bytes(file.loaded))
    else:
        found = FileRead("MEMORY.md", skipped.status if skipped is not None else FileStatus.ABSENT)
    chain = tuple(FileRead(f.name, FileStatus.REGULAR, f.size, bytes(f.loaded)) for f in composition.held)
    return _composed(ClaudeRead(home_path(home).resolve(), found, host, instructions=chain))


def recompose_claude_code(composition: Composition, name: str, data: bytes) -> Composition:
    """``composition`` (Claude Code's) as if file ``name`` held ``data``: only MEMORY.md changes what it loads."""
    prior = composition.host_read
    if not isinstance(prior, ClaudeRead) or name != "MEMORY.md":
        return composition
    return _composed(replace(prior, found=FileRead(name, FileStatus.REGULAR, len(data), data)))


def _composed(source: ClaudeRead) -> Composition:
    """The panes keep MEMORY.md's own lines (editing, blame and line numbers are the file's) even where the
    release quotes them when it sends them; a note says so."""
    version = source.host.version if source.host.version in proven_versions() else None
    part = memory_part(source.found, str(source.root / "MEMORY.md"), version, quote=False)
    quoting = quoting_notes(rules(version)) if part is not None and part.injected is not None else ()
    profile = replace(source.host, notes=(*source.host.notes, STANDS_FOR, NOT_MODELLED, *quoting))
    files, loads, skipped = _instruction_sections(source.instructions, profile)
    if part is not None and part.injected is not None:
        files += (
            BootstrapFile(
                name="MEMORY.md",
                body=part.injected,
                size=source.found.size,
                truncated=part.status is PartStatus.CUT,
                decode_error=decode_error(source.found.data),
                loaded=part.injected.encode("utf-8", "surrogatepass"),  # what loads is what it sends
            ),
        )
        loads += (_file_load(part, source.found, profile),)
    elif part is not None and part.note:
        skipped += (SkippedFile("MEMORY.md", source.found.status, part.note),)
    return Composition(
        soul=SECTION_SEPARATOR.join(section_heading(f.name) + f.body for f in files),
        files=files,
        skipped=skipped,
        host=source.host.name,
        host_loads=loads,
        profile=profile,
        host_read=replace(source, markers={"MEMORY.md": part.markers} if part is not None and part.markers else {}),
    )


def _instruction_sections(
    chain: tuple[FileRead, ...], profile: HostProfile
) -> tuple[tuple[BootstrapFile, ...], tuple[FileLoad, ...], tuple[SkippedFile, ...]]:
    """Each instruction file as a section, its body what Claude Code injects of it (front matter and comments
    out, trimmed), or skipped with why."""
    files: list[BootstrapFile] = []
    loads: list[FileLoad] = []
    skipped: list[SkippedFile] = []
    for found in chain:
        raw, why = text_of(found, found.name)
        if raw is None:
            if why:
                skipped.append(SkippedFile(found.name, found.status, why))
            continue
        body, _ = js.strip_front_matter(raw)
        entry = js.js_trim(js.strip_comments(body))
        if not entry:
            continue
        size = len(js.units(raw))
        files.append(
            BootstrapFile(
                name=found.name,
                body=entry,
                size=found.size,
                truncated=False,
                decode_error=decode_error(found.data),
                loaded=entry.encode("utf-8", "surrogatepass"),
            )
        )
        loads.append(FileLoad(found.name, "utf16", size, size, profile.file_cap, rendered=len(js.units(entry))))
    return tuple(files), tuple(loads), tuple(skipped)


def _file_load(part: InjectedPart, found: FileRead, profile: HostProfile) -> FileLoad:
    """The part's facts in UTF-16 units; a cut's line and byte offset are the file's own where the file has no
    front matter or comment the cut would have to be mapped past (then only that its end is not loaded)."""
    raw, rendered = part.raw_len or 0, part.injected_len
    cap = profile.file_cap
    if part.cut is None:
        return FileLoad("MEMORY.md", "utf16", raw, raw, cap, rendered=rendered)
    loaded = raw - int(part.cut["dropped"])
    text = js.decode(found.data)
    body, _ = js.strip_front_matter(text)
    if js.strip_comments(body) != text:
        return FileLoad("MEMORY.md", "utf16", raw, loaded, cap, truncated=True, rendered=rendered)
    whole = js.units(text)
    end = len(whole) - len(whole.lstrip(js.JS_SPACE)) + int(part.cut["head_end"])
    end += whole[end : end + 1] == "\n"  # a whole-line cut: the first line not loaded is the next one
    return FileLoad(
        "MEMORY.md",
        "utf16",
        raw,
        loaded,
        cap,
        truncated=True,
        cut_line=whole.count("\n", 0, end) + 1,
        cut_offset=len(js.text(whole[:end]).encode("utf-8", "surrogatepass")),
        rendered=rendered,
    )
