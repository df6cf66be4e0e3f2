"""A home's soul as Hermes 0.19.0 loads it, from the loader its goldens prove: what the doctor and the panes show.

The notebook opens a toolnexus-style home (SOUL.md, MEMORY.md, USER.md at its
top); previewed as Hermes, the home is ``$HERMES_HOME``: its SOUL.md is
Hermes's SOUL.md and its MEMORY.md and USER.md stand for Hermes's
``memories/MEMORY.md`` and ``memories/USER.md`` (where the home has a
``memories/`` folder it IS a Hermes home, and those files are read instead);
its ``config.yaml``, if there, sets the cap and the memory limits. No working
directory: no project context file. Each section's body is what
:func:`.load.soul_part` and :func:`.load.memory_part` give, the functions
:func:`.load.hermes_load` builds its parts with. Three ways in, one way of
building: a home on disk (:func:`compose_hermes`), a frozen snapshot's bytes
(:func:`snapshot_as_hermes`) and one file changed in memory
(:func:`recompose_hermes`, the dry run). Never raises; never writes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.core.home.file_load import FileLoad
from notebook_app.core.home.files import FileRead, FileStatus, read_file
from notebook_app.core.home.reading import reads_of
from notebook_app.core.home.soul import (
    SECTION_SEPARATOR,
    BootstrapFile,
    Composition,
    SkippedFile,
    home_path,
    section_heading,
)
from notebook_app.core.hosts.hermes.config import CONFIG_LIMIT, HermesConfig, config_of, read_config
from notebook_app.core.hosts.hermes.load import NOT_MODELLED, entries_of, file_cap, memory_parts, read, rules, soul_part
from notebook_app.core.hosts.injected import InjectedPart, PartStatus
from notebook_app.core.text.newlines import original_index, universal

if TYPE_CHECKING:
    from notebook_app.core.hosts.profile import HostProfile

NAMES = ("SOUL.md", "MEMORY.md", "USER.md")
NO_CONTEXT = "no working directory: Hermes's project context file is not shown (soul --host hermes --cwd DIR)"


@dataclass(frozen=True)
class HermesRead:
    """What a Hermes composition was built from, kept on it (:attr:`Composition.host_read`) for the dry run."""

    root: Path
    reads: dict[str, FileRead]
    """SOUL.md, MEMORY.md and USER.md as Hermes reads them (the latter two: memories/'s in a Hermes home)."""
    config: HermesConfig
    memories: bool
    """The home has a ``memories/`` folder: it is a Hermes home, and the memory files are read from it."""
    host: HostProfile
    snapshot: bool = False
    markers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Each cut section's marker, as Hermes words it (for the doctor)."""


def compose_hermes(home: str | os.PathLike[str], host: HostProfile) -> Composition:
    """The soul of ``home`` as Hermes 0.19.0 injects it, read from disk."""
    root = home_path(home).resolve()
    with reads_of(root):  # no writer is mid-action while the files are read
        memories = (root / "memories").is_dir()
        base = root / "memories" if memories else root
        reads = {"SOUL.md": read(root / "SOUL.md")} | {n: read(base / n) for n in NAMES[1:]}
        config = read_config(root, int(rules()["memory_limit"]), int(rules()["user_limit"]))
    return _composed(HermesRead(root, reads, config, memories, host))


def snapshot_as_hermes(composition: Composition, host: HostProfile, home: str | os.PathLike[str]) -> Composition:
    """A contract composition (a frozen snapshot of ``home``) as Hermes would have loaded the same bytes.

    The snapshot's SOUL.md, MEMORY.md and USER.md stand for Hermes's three files; its config.yaml is not in
    the snapshot and is read as it is now (a note says so)."""
    root = home_path(home).resolve()
    reads = {n: FileRead(n, FileStatus.ABSENT) for n in NAMES}
    reads.update({f.name: FileRead(f.name, FileStatus.REGULAR, f.size, bytes(f.loaded)) for f in composition.files})
    reads.update({s.name: FileRead(s.name, s.status) for s in composition.skipped})
    found = read_file(root / "config.yaml", limit=CONFIG_LIMIT)
    config = config_of(found, int(rules()["memory_limit"]), int(rules()["user_limit"]))
    snapshot = {n: reads[n] for n in NAMES}
    return _composed(HermesRead(root, snapshot, config, False, host, snapshot=True))


def recompose_hermes(composition: Composition, name: str, data: bytes, *, path: str | None = None) -> Composition:
    """``composition`` (Hermes's) as if file ``name`` held ``data``: the dry run of a write to ``path`` (from the
    home's top; None: ``name`` there). With ``memories/`` there Hermes reads its stores from it: a write to a
    MEMORY.md or USER.md at the top (a plain home previewed as Hermes) changes nothing it loads, and one to
    ``memories/`` (a home opened as Hermes) is what it loads next."""
    prior = composition.host_read
    if not isinstance(prior, HermesRead) or name not in NAMES:
        return composition
    if name != "SOUL.md" and prior.memories and (path or name) != f"memories/{name}":
        return composition
    reads = prior.reads | {name: FileRead(name, FileStatus.REGULAR, len(data), data)}
    return _composed(replace(prior, reads=reads))


def _composed(source: HermesRead) -> Composition:
    config = source.config
    cap = config.context_file_max_chars or file_cap(None)
    parts = [soul_part(source.reads["SOUL.md"], source.root / "SOUL.md", cap), *memory_parts(source.reads, config)]
    limits = {"MEMORY.md": config.memory_char_limit, "USER.md": config.user_char_limit}
    files: list[BootstrapFile] = []
    loads: list[FileLoad] = []
    skipped: list[SkippedFile] = []
    for part in parts:
        found = source.reads[part.name]
        if part.loads and part.injected is not None:
            files.append(
                BootstrapFile(
                    name=part.name,
                    body=part.injected,
                    size=found.size,
                    truncated=part.status is PartStatus.CUT,
                    loaded=part.injected.encode("utf-8", "surrogatepass"),  # what loads is what it injects
                )
            )
            loads.append(_file_load(part, found, cap, limits.get(part.name)))
        elif part.status is not PartStatus.MISSING and part.note:
            skipped.append(SkippedFile(part.name, found.status, part.note))
    soul: list[str] = []
    for file in files:
        soul += (SECTION_SEPARATOR if soul else "", section_heading(file.name), file.body)
    profile = replace(
        source.host,
        file_cap=cap,
        per_file={n: {"entries": str(rules()["entry_separator"]), "budget": limits[n]} for n in NAMES[1:]},
        notes=(*source.host.notes, *_notes(source, cap)),
    )
    markers = {p.name: p.markers for p in parts if p.markers}
    return Composition(
        soul="".join(soul),
        files=tuple(files),
        skipped=tuple(skipped),
        host=source.host.name,
        host_loads=tuple(loads),
        profile=profile,
        host_read=replace(source, markers=markers),
    )


def _notes(source: HermesRead, cap: int) -> tuple[str, ...]:
    """Which of the home's files stands for which of Hermes's, what its config set, what is not modelled."""
    config = source.config
    if source.memories:
        stands = "this is a Hermes home: its SOUL.md, memories/MEMORY.md and memories/USER.md are read"
    else:
        stands = (
            "the home's SOUL.md stands for $HERMES_HOME/SOUL.md, its MEMORY.md and USER.md for "
            "memories/MEMORY.md and memories/USER.md"
        )
    said = f"{config.said} (as it is now: a snapshot does not hold it)" if source.snapshot else config.said
    limits = (
        f"in force: SOUL.md cut past {cap:,} characters; memory limits MEMORY.md {config.memory_char_limit:,}, "
        f"USER.md {config.user_char_limit:,} characters"
    )
    return (stands, said, limits, NO_CONTEXT, NOT_MODELLED)


def _file_load(part: InjectedPart, found: FileRead, cap: int, limit: int | None) -> FileLoad:
    """The part's facts in code points; a memory block's size is its entries' (what its header counts), a cut's
    lines and byte offset are those of the file itself."""
    rendered = part.injected_len
    original = found.data.decode("utf-8", "replace")
    if limit is not None:  # a memory block: loaded whole, over its limit or not
        current = len(str(rules()["entry_separator"]).join(entries_of(universal(original))))
        return FileLoad(part.name, "chars", current, current, None, budget=limit, rendered=rendered)
    raw = part.raw_len or 0
    if part.cut is None:
        return FileLoad(part.name, "chars", raw, raw, cap, rendered=rendered)
    text = universal(original)
    stripped = text.strip()
    lead = len(text) - len(text.lstrip()) + stripped.startswith("\ufeff")
    head = original_index(original, lead + int(part.cut["head_end"]))
    tail = original_index(original, lead + int(part.cut["tail_start"]))
    return FileLoad(
        part.name,
        "chars",
        raw,
        raw - int(part.cut["dropped"]),
        cap,
        truncated=True,
        cut_line=original.count("\n", 0, head) + 1,
        cut_offset=len(original[:head].encode("utf-8")),
        resume_line=original.count("\n", 0, tail) + 1,
        rendered=rendered,
    )
