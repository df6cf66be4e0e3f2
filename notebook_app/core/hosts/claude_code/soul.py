"""A home's soul as Claude Code 2.1.332 loads it, from the loader its goldens prove: what the doctor and the panes
show.

Of a persona home, Claude Code loads one file: the home's MEMORY.md stands for its auto memory
(``~/.claude/projects/<slug>/memory/MEMORY.md``), trimmed, cut to 200 lines and 25,000 UTF-16 units at a
line end, with the ``> WARNING: MEMORY.md is …`` block it adds after a cut. Its CLAUDE.md files are not a
persona home's (``soul --host claude-code`` shows them). The section's body is what
:func:`.load.memory_part` gives, the function :func:`.load.claude_code_load` builds the memory's part with.
Three ways in, one way of building: a home on disk (:func:`compose_claude_code`), a frozen snapshot's bytes
(:func:`snapshot_as_claude_code`) and MEMORY.md changed in memory (:func:`recompose_claude_code`, the dry
run). Never raises; never writes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ...home.file_load import FileLoad
from ...home.files import FileRead, FileStatus
from ...home.refusals import decode_error
from ...home.soul import BootstrapFile, Composition, SkippedFile, home_path, section_heading
from ..injected import InjectedPart, PartStatus
from . import text as js
from .load import NOT_MODELLED, memory_part, read

if TYPE_CHECKING:
    from ..profile import HostProfile

STANDS_FOR = (
    "the home's MEMORY.md stands for Claude Code's auto memory (~/.claude/projects/<slug>/memory/MEMORY.md); "
    "its CLAUDE.md files are not shown here (soul --host claude-code)"
)


@dataclass(frozen=True)
class ClaudeRead:
    """What a Claude Code composition was built from, kept on it (:attr:`Composition.host_read`) for the dry run."""

    root: Path
    found: FileRead
    host: HostProfile
    markers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The WARNING block after a cut, as Claude Code words it (for the doctor)."""


def compose_claude_code(home: str | os.PathLike[str], host: HostProfile) -> Composition:
    """The home's MEMORY.md as Claude Code's auto memory loads it, read from disk."""
    root = home_path(home).resolve()
    return _composed(ClaudeRead(root, read(root / "MEMORY.md"), host))


def snapshot_as_claude_code(composition: Composition, host: HostProfile, home: str | os.PathLike[str]) -> Composition:
    """A contract composition (a frozen snapshot of ``home``) as Claude Code would have loaded its MEMORY.md."""
    file = composition.file("MEMORY.md")
    skipped = next((s for s in composition.skipped if s.name == "MEMORY.md"), None)
    if file is not None:
        found = FileRead("MEMORY.md", FileStatus.REGULAR, file.size, bytes(file.loaded))
    else:
        found = FileRead("MEMORY.md", skipped.status if skipped is not None else FileStatus.ABSENT)
    return _composed(ClaudeRead(home_path(home).resolve(), found, host))


def recompose_claude_code(composition: Composition, name: str, data: bytes) -> Composition:
    """``composition`` (Claude Code's) as if file ``name`` held ``data``: only MEMORY.md changes what it loads."""
    prior = composition.host_read
    if not isinstance(prior, ClaudeRead) or name != "MEMORY.md":
        return composition
    return _composed(replace(prior, found=FileRead(name, FileStatus.REGULAR, len(data), data)))


def _composed(source: ClaudeRead) -> Composition:
    part = memory_part(source.found, str(source.root / "MEMORY.md"))
    profile = replace(source.host, notes=(*source.host.notes, STANDS_FOR, NOT_MODELLED))
    files: tuple[BootstrapFile, ...] = ()
    loads: tuple[FileLoad, ...] = ()
    skipped: tuple[SkippedFile, ...] = ()
    if part is not None and part.injected is not None:
        files = (
            BootstrapFile(
                name="MEMORY.md",
                body=part.injected,
                size=source.found.size,
                truncated=part.status is PartStatus.CUT,
                decode_error=decode_error(source.found.data),
                loaded=part.injected.encode("utf-8", "surrogatepass"),  # what loads is what it sends
            ),
        )
        loads = (_file_load(part, source.found, profile),)
    elif part is not None and part.note:
        skipped = (SkippedFile("MEMORY.md", source.found.status, part.note),)
    return Composition(
        soul="".join(section_heading(f.name) + f.body for f in files),
        files=files,
        skipped=skipped,
        host=source.host.name,
        host_loads=loads,
        profile=profile,
        host_read=replace(source, markers={"MEMORY.md": part.markers} if part is not None and part.markers else {}),
    )


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
