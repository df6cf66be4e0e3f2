"""Read a persona from any host's home: its files where that host keeps them, its entries with file and line.

Reads, never writes. Entries are parsed in the source file's dialect by the core's own parsers (``- `` lines,
Hermes's ``§`` store); an overflow file an earlier export wrote is read back after its entry file's entries, so an
import gives back what the export moved aside. A file that is there and cannot be read as UTF-8 text is a
usage error in words: a persona is never moved with a file silently missing.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path

from notebook_app.core.home.files import FileStatus, read_file
from notebook_app.core.hostbase.export import ARCHIVE, SEVEN, Place
from notebook_app.core.hostbase.host import Host
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hostbase.registry import hosts, known
from notebook_app.core.hosts.choice import resolve_host
from notebook_app.core.memory.lines import LineKind, file_lines
from notebook_app.core.memory.sections import entry_spans, hermes_text
from notebook_app.portable.layouts import ENTRY_FILES, OVERFLOW, PROSE, Layout, layout_of, side_of
from notebook_app.portable.model import Entry, Persona, PersonaFile, Problem, Role

READ_LIMIT = 64 * 1024 * 1024
"""The most of one file a move reads; a persona file past it is refused, never cut."""
SECOND_INSTRUCTIONS = "claude-CLAUDE.md"
"""The note a project's other instruction file travels as when it has both (``CLAUDE.md`` is AGENTS.md)."""


def parse_host(spec: str) -> tuple[Host, str | None] | Problem:
    """``NAME`` or ``NAME@VERSION`` as a host and version, or why the core knows no such host or release."""
    name, _, version = spec.partition("@")
    if not known(name) or not registered(name).moves:
        named = ", ".join(one.id for one in movable())
        return Problem(f"no host named {name!r} to move a persona to or from; hosts: {named}")
    choice = resolve_host(spec)
    if choice.profile is None:
        return Problem(choice.error or f"no host named {spec!r}")
    return registered(name), version or None


def movable() -> tuple[Host, ...]:
    """The hosts a persona moves between, in the registry's order (:attr:`.Host.moves`)."""
    return tuple(one for one in hosts() if one.moves)


def places_of(host: Host, root: Path, env: Mapping[str, str]) -> dict[Place, Path]:
    """The folders a host's home at ``root`` spans: the home, and for a host that writes two places its second
    (Claude Code's auto-memory folder)."""
    return host.export_places(root, env)


def layout_problem(host: Host, root: Path, env: Mapping[str, str]) -> str | None:
    """Why ``root`` is not ``host``'s layout, in words; None when it is."""
    if stores := host.export.stores:  # its stores' folder makes a folder its home
        return None if (root / stores).is_dir() else f"{root} is not {host.a_home}: it has no {stores}/ folder"
    if host.export.places == {Place.HOME}:  # a one-folder home: another host's stores there say it is that one's
        for other in movable():
            if (theirs := other.export.stores) and (root / theirs).is_dir():
                return f"{root} is {other.a_home} (it has {theirs}/), not {host.a_home}: say --from {other.id}"
    return host.export_problem(root, env)


def read_persona(
    source: str | os.PathLike[str], spec: str, *, env: Mapping[str, str] = os.environ
) -> Persona | Problem:
    """The persona in the home at ``source`` as host ``spec`` keeps it, or why it cannot be read (a usage error)."""
    parsed = parse_host(spec)
    if isinstance(parsed, Problem):
        return parsed
    host, _ = parsed
    root = Path(os.path.abspath(os.path.expanduser(os.fspath(source))))
    if not root.is_dir():
        return Problem(f"{root} is not a directory" if root.exists() else f"no such home: {root}")
    if (why := layout_problem(host, root, env)) is not None:
        return Problem(why)
    places = places_of(host, root, env)
    layout = layout_of(host)
    instructions = host.export.instructions
    files: list[PersonaFile] = []
    texts: dict[tuple[Place, str], str] = {}
    wanted = [layout.files[name] for name in SEVEN] + _extras(layout, places)
    wanted.extend((Place.HOME, path) for path in instructions[1:])
    for place, path in wanted:
        got = _read(places[place], path, host)
        if isinstance(got, Problem):
            return got
        if got is not None:
            texts[(place, path)] = got
    others = {(Place.HOME, p) for p in instructions}
    for name in SEVEN:
        place, path = layout.files[name]
        if instructions and name == "AGENTS.md":
            path = next((p for p in instructions if (place, p) in texts), path)
            others.discard((place, path))
        text = texts.get((place, path))
        if text is not None:
            files.append(_file(name, path, text, host, layout, texts))
    for (place, path), text in texts.items():
        if (place, path) in layout.files.values():
            continue
        base = path.rpartition("/")[2]
        role = Role.ARCHIVE if (place, path) == layout.archive else Role.NOTE
        name = ARCHIVE if role is Role.ARCHIVE else f"notes/{base}"
        if (place, path) in others:  # Claude Code loads both; CLAUDE.md is AGENTS.md, this one a note
            files.append(PersonaFile(f"notes/{SECOND_INSTRUCTIONS}", Role.NOTE, path, text))
            continue
        in_side = (place, path.rpartition("/")[0]) == layout.side
        if not (in_side and side_of(base)):  # a side file only in the side folder: a note elsewhere
            files.append(PersonaFile(name, role, path, text))
    memory = places.get(Place.MEMORY)
    return Persona(host, root, tuple(files), memory, tuple((path, text) for (_, path), text in texts.items()))


def _extras(layout: Layout, places: dict[Place, Path]) -> list[tuple[Place, str]]:
    """The notes, archive and side files there, sorted: everything of the home a move carries beyond the seven."""
    found: list[tuple[Place, str]] = []
    seen = set(layout.files.values())
    folders = {layout.notes, layout.side}
    seen |= {(Place.HOME, p) for p in layout.host.export.instructions}
    for place, folder in sorted(folders, key=lambda pf: (pf[0].value, pf[1])):
        base = places[place] / folder if folder else places[place]
        try:
            names = sorted(item.name for item in os.scandir(base) if item.name.endswith(".md"))
        except OSError:
            continue
        for name in names:
            spot = (place, f"{folder}/{name}" if folder else name)
            if spot not in seen and spot not in found:
                found.append(spot)
    if layout.archive not in found:
        found.append(layout.archive)
    return found


def _read(folder: Path, path: str, host: Host) -> str | None | Problem:
    """The text at ``folder/path``; None when nothing is there; a Problem when it is there and cannot be read."""
    text = text_at(folder / path)
    if isinstance(text, str) and (stores := host.export.stores) and path.startswith(f"{stores}/"):
        return hermes_text(text)
    return text


def folder_problem(place: Path, path: str) -> str | None:
    """Why a file at ``path`` under ``place`` may not be written: a folder on the way there is a symbolic link (it
    would land outside the home) or no folder, in words; None when each is a real folder or absent (made then).

    The core's rule for a home's subfolders (``core/record/places.py``): never written through a link."""
    folder = place
    for part in path.split("/")[:-1]:
        folder = folder / part
        try:
            mode = folder.lstat().st_mode
        except FileNotFoundError:
            return None
        if not stat.S_ISDIR(mode):
            what = "a symbolic link" if stat.S_ISLNK(mode) else "not a folder"
            return f"{folder} is {what}: {path} is never written through it; nothing written"
    return None


def text_at(path: Path, *, links: bool = True) -> str | None | Problem:
    """The whole text of the file at ``path``, strict UTF-8; None when nothing is there; a Problem in words when
    something is there that is no such file: a FIFO, a folder, a link loop, unreadable, past the limit, not UTF-8,
    and with ``links`` false a symbolic link (a merge writes the file, and never writes through one).

    Shared by the source's reading and a merge's reading of the target, so both refuse the same files."""
    found = read_file(path, limit=READ_LIMIT)
    if found.status is FileStatus.ABSENT:
        return None
    if not links and found.status in (FileStatus.LINK, FileStatus.DANGLING_LINK, FileStatus.LINK_LOOP):
        return Problem(f"{path} is a symbolic link: a move never writes through one; nothing written")
    if not found.status.loads:
        return Problem(f"{path} cannot be read: {found.describe()}; nothing written")
    if not found.complete:
        return Problem(f"{path} is larger than {READ_LIMIT:,} bytes; nothing written")
    try:
        return found.data.decode("utf-8")
    except UnicodeDecodeError as why:
        return Problem(f"{path} is not UTF-8 text ({why.reason} at byte {why.start}); nothing written")


def _file(
    name: str, path: str, text: str, host: Host, layout: Layout, texts: dict[tuple[Place, str], str]
) -> PersonaFile:
    if name not in ENTRY_FILES:
        return PersonaFile(name, Role.WHOLE, path, text)
    entries, prose = parse_entries(text, path, host)
    own = len(entries) + len(prose)
    side = layout.side_path(name, OVERFLOW)
    if (more := texts.get(side)) is not None:
        entries += parse_entries(more, side[1], host)[0]
    if (lines := texts.get(layout.side_path(name, PROSE))) is not None:
        prose = _written_lines(lines) + prose
    read_back = len(entries) + len(prose) - own
    return PersonaFile(name, Role.ENTRIES, path, text, tuple(entries), tuple(prose), read_back)


def parse_entries(text: str, path: str, host: Host) -> tuple[list[Entry], list[str]]:
    """The entries of an entry file in its host's dialect, each with its line, and the lines that are no entries."""
    if host.export.stores:
        return [Entry(body, path, line) for _, _, line, body in entry_spans(hermes_text(text))], []
    entries: list[Entry] = []
    prose: list[str] = []
    gap = False
    """A blank line between the last prose line and the first entry: kept as one ``""`` after the prose, so the
    way back (a Hermes prose file, then an import) puts it there again, and only there."""
    for line in file_lines(text):
        if line.kind is LineKind.ENTRY:
            if gap and not entries:
                prose.append("")
            entries.append(Entry(line.text, path, line.number))
        elif line.kind is LineKind.BLANK:
            gap = gap or (bool(prose) and not entries)
        else:
            gap = False
            prose.append(text[line.start : line.end].rstrip("\r\n"))
    return entries, prose


def _written_lines(text: str) -> list[str]:
    """The lines of a prose side file that are not blank, as written: split where the entry files' parser splits
    (at a line feed only; a U+2028 or a form feed is within a line), each without its line end; a blank line at
    its end (the gap before the entries, :func:`parse_entries`) as one ``""``."""
    lines = list(file_lines(text))
    kept = [text[line.start : line.end].rstrip("\r\n") for line in lines if line.kind is not LineKind.BLANK]
    return kept + [""] if kept and lines[-1].kind is LineKind.BLANK else kept
