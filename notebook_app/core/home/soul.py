"""The persona home: its bootstrap files and how they compose into a soul.

This is sections 1 and 2 of the contract. Reading never changes a file; every
file is read through the one read path (:func:`.files.read_file`) with the
2 MiB byte cap the next session will apply, so what we show is exactly what an
agent would load. A file that is there but cannot load (unreadable, a
directory, a FIFO or device, a dangling link, a link loop) is left out of the
soul and of ``found``, and named in :attr:`Composition.skipped`: never silent.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.core.home.file_load import FileLoad
from notebook_app.core.home.files import FileRead, FileStatus, read_file
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.names import BOOTSTRAP_ORDER
from notebook_app.core.home.reading import reads_of

if TYPE_CHECKING:
    from notebook_app.core.hosts.profile import HostProfile

MAX_FILE_BYTES = 2 * 1024 * 1024
"""Bytes of each bootstrap file that a session loads; the rest is cut."""

TRUNCATION_NOTICE = "[truncated: exceeds 2 MB bootstrap cap]"

_ASCII_SPACE = b" \t\n\r\x0b\x0c"
_TRIM_STEP = 256


@dataclass(frozen=True, eq=False)
class BootstrapFile:
    """One bootstrap file that loads, as the next session would load it.

    ``digest`` is computed on first use, not when the file is read: a soul
    composed to be handed out (``compose_soul``, ``persona-notebook soul``)
    never pays for hashing 2 MiB; the notebook's diff and a session record
    hash each file once.
    """

    name: str
    body: str
    """The section body: stripped text, plus the truncation notice if cut."""
    size: int
    """Bytes on disk (the whole file, not just what loads)."""
    truncated: bool
    decode_error: str | None = None
    """Set when the loaded bytes are not UTF-8; they load with U+FFFD."""
    loaded: bytes | memoryview = field(default=b"", repr=False)
    """The bytes that load (a view of what was read, never a copy)."""
    recorded_digest: str | None = field(default=None, repr=False)
    """The digest a session record kept, for a file rebuilt without its bytes."""

    @cached_property
    def digest(self) -> str:
        """sha256 of the bytes that load; equal digests mean equal sections."""
        if self.recorded_digest is not None:
            return self.recorded_digest
        return hashlib.sha256(self.loaded).hexdigest()

    @property
    def dropped_bytes(self) -> int:
        """Bytes the next session will not see because of the cap."""
        return max(0, self.size - MAX_FILE_BYTES)

    @property
    def section(self) -> str:
        return f"## {self.name}\n\n{self.body}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BootstrapFile):
            return NotImplemented
        return (  # the digest last: it is computed only for files alike in all else
            (self.name, self.size, self.truncated, self.decode_error, self.body)
            == (other.name, other.size, other.truncated, other.decode_error, other.body)
            and self.digest == other.digest
        )

    def __hash__(self) -> int:
        return hash((self.name, self.size, self.body))


@dataclass(frozen=True)
class SkippedFile:
    """A bootstrap file that is there but does not load, and why, in words."""

    name: str
    status: FileStatus
    message: str
    """e.g. "MEMORY.md cannot be read (Permission denied); the session does not load it"."""

    @classmethod
    def of(cls, read: FileRead) -> SkippedFile:
        return cls(read.name, read.status, read.not_loaded_reason() or read.describe())

    def to_json(self) -> dict[str, str]:
        """``{"name", "status", "message"}``; ``status`` is the enum member's name in lower case."""
        return {"name": self.name, "status": self.status.name.lower(), "message": self.message}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> SkippedFile:
        return cls(str(data["name"]), FileStatus[str(data["status"]).upper()], str(data["message"]))


SECTION_SEPARATOR = "\n\n"
"""Between two sections of a soul: one blank line."""


def section_heading(name: str) -> str:
    """What starts a file's section: its heading, then a blank line, then its body."""
    return f"## {name}\n\n"


@dataclass(frozen=True)
class Section:
    """Where one file's section sits in the soul: character offsets and line numbers.

    The soul's layout is the core's fact, stated once here: every reader that
    needs to find a file in a soul (the panes' marks, the dry run's reuse of
    lines, the agent records) asks the composition, never rebuilds it.
    """

    name: str
    heading_line: int
    """The soul line holding ``## NAME``; the blank line follows, then the body."""
    body_start: int
    body_end: int
    """``soul[body_start:body_end]`` is the body (characters)."""
    body_lines: int
    truncated: bool

    @property
    def first_body_line(self) -> int:
        return self.heading_line + 2

    @property
    def last_line(self) -> int:
        return self.first_body_line + self.body_lines - 1

    @property
    def notice_line(self) -> int | None:
        """The soul line of the truncation notice, when the file was cut at the cap."""
        return self.last_line if self.truncated else None


@dataclass(frozen=True)
class Composition:
    """A composed soul together with the per-file facts behind it."""

    soul: str
    files: tuple[BootstrapFile, ...]
    skipped: tuple[SkippedFile, ...] = ()
    """Files that are there but did not load (not in the soul, not in ``found``), in bootstrap order."""
    host: str = "toolnexus"
    """The host whose loading this soul shows; the contract's by default."""
    host_loads: tuple[FileLoad, ...] | None = field(default=None, repr=False, compare=False)
    profile: HostProfile | None = field(default=None, repr=False, compare=False)
    host_read: object = field(default=None, repr=False, compare=False)
    """What a proven host's loader read to compose this soul (its own type), so the dry run composes it again
    without reading disk; None for the contract and the hosts composed from a profile's numbers."""
    held: tuple[BootstrapFile, ...] = field(default=(), repr=False)
    """Files the home's host loads beyond the contract's seven (OpenClaw's BOOTSTRAP.md), as they were: not in the
    contract's soul, held so a frozen snapshot shows as that host would have loaded it."""

    @cached_property
    def loads(self) -> tuple[FileLoad, ...]:
        """Each loaded file's size and cut, in the host's unit (bytes for the contract)."""
        if self.host_loads is not None:
            return self.host_loads
        return tuple(_contract_load(file) for file in self.files)

    def load(self, name: str) -> FileLoad | None:
        return next((load for load in self.loads if load.name == name), None)

    @property
    def found(self) -> list[str]:
        return [f.name for f in self.files]

    def file(self, name: str) -> BootstrapFile | None:
        return next((f for f in self.files if f.name == name), None)

    @cached_property
    def sections(self) -> tuple[Section, ...]:
        """Each loaded file's place in the soul, in order (computed once, on first use)."""
        sections = []
        offset = line = 0
        for index, file in enumerate(self.files):
            if index:
                offset += len(SECTION_SEPARATOR)
                line += 1  # the blank line between sections
            start = offset + len(section_heading(file.name))
            body_lines = file.body.count("\n") + 1
            sections.append(Section(file.name, line, start, start + len(file.body), body_lines, file.truncated))
            offset = start + len(file.body)
            line += 2 + body_lines
        return tuple(sections)

    def section(self, name: str) -> Section | None:
        return next((s for s in self.sections if s.name == name), None)

    def with_text(self, name: str, text: str, *, path: str | None = None) -> Composition:
        """This composition as if bootstrap file ``name`` held ``text``.

        The dry run of a pending write: the soul a session would load after it,
        built by the same rules as :func:`compose` (the cap included), without
        touching disk. ``path``: where the write goes, from the home's top
        (``memories/MEMORY.md`` in a Hermes home; None: ``name`` at the top), so
        a host that reads the file elsewhere is not shown a write it never reads.
        """
        data = text.encode("utf-8")
        if self.profile is not None:
            return self.profile.recompose(self, name, data, path=path)
        changed = load_bootstrap_file(name, data, len(data))
        return compose_files(
            [f for f in self.files if f.name != name] + [changed],
            [s for s in self.skipped if s.name != name],
        )


def _contract_load(file: BootstrapFile) -> FileLoad:
    loaded = len(file.loaded) if file.loaded or not file.body else len(file.body.encode("utf-8"))
    cut_line = bytes(file.loaded).count(b"\n") + 1 if file.truncated else None
    return FileLoad(
        name=file.name,
        unit="bytes",
        raw=file.size,
        loaded=min(loaded, file.size),
        cap=MAX_FILE_BYTES,
        truncated=file.truncated,
        cut_line=cut_line,
        cut_offset=len(file.loaded) if file.truncated else None,
        rendered=len(file.body.encode("utf-8")),
    )


def home_path(home: str | os.PathLike[str]) -> Path:
    """A home as given by a person or a config file: ``~`` means their home folder."""
    return Path(home).expanduser()


def _ascii_space_trimmed(data: memoryview) -> tuple[int, int]:
    """Bounds of ``data`` without ASCII whitespace at either end.

    Looks at a few hundred bytes at a time, so a body that is megabytes of
    blank lines costs C speed, and a normal one a glance at each end.
    """
    start, end = 0, len(data)
    while start < end:
        step = bytes(data[start : min(end, start + _TRIM_STEP)])
        kept = step.lstrip(_ASCII_SPACE)
        start += len(step) - len(kept)
        if kept:
            break
    while end > start:
        step = bytes(data[max(start, end - _TRIM_STEP) : end])
        kept = step.rstrip(_ASCII_SPACE)
        end -= len(step) - len(kept)
        if kept:
            break
    return start, end


def _drop_split_character(data: memoryview) -> memoryview:
    """Drop a multibyte UTF-8 sequence that the byte cap cut in two."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte & 0b1100_0000 == 0b1000_0000:
            continue  # a continuation byte: keep looking for the lead byte
        if byte < 0x80:
            return data  # ASCII: nothing was split
        needed = 2 if byte >= 0xC0 and byte < 0xE0 else 3 if byte < 0xF0 else 4
        return data[:-back] if back < needed else data
    return data


def load_bootstrap_file(name: str, data: bytes, size: int) -> BootstrapFile:
    """A bootstrap file as a session loads it from ``data``, its first bytes.

    ``data`` holds at least the first ``MAX_FILE_BYTES + 1`` bytes of a file
    of ``size`` bytes (all of it when smaller); more is cut at the cap. It is
    kept, not copied, for the digest.
    """
    size = max(size, len(data))
    truncated = len(data) > MAX_FILE_BYTES
    loaded = memoryview(data)  # slices of a view copy nothing: a 2 MiB file is copied once
    if truncated:
        loaded = _drop_split_character(loaded[:MAX_FILE_BYTES])
    start, end = _ascii_space_trimmed(loaded)
    decode_error = None
    try:
        text = str(loaded[start:end], "utf-8")
    except UnicodeDecodeError as error:
        offset = start + error.start
        decode_error = f"not valid UTF-8 (byte 0x{loaded[offset]:02x} at offset {offset})"
        text = str(loaded[start:end], "utf-8", "replace")
    body = text.strip()  # what is left to strip is Unicode space, rarely any
    if truncated:
        body = f"{body}\n{TRUNCATION_NOTICE}" if body else TRUNCATION_NOTICE
    return BootstrapFile(
        name=name,
        body=body,
        size=size,
        truncated=truncated,
        decode_error=decode_error,
        loaded=loaded,
    )


def compose_files(files: Iterable[BootstrapFile], skipped: Iterable[SkippedFile] = ()) -> Composition:
    """The soul made of ``files``, taken in bootstrap order."""
    ordered = sorted(files, key=lambda f: BOOTSTRAP_ORDER.index(f.name))
    parts: list[str] = []
    for file in ordered:  # one join, so each body is copied into the soul once
        parts += (SECTION_SEPARATOR if parts else "", section_heading(file.name), file.body)
    return Composition(
        soul="".join(parts),
        files=tuple(ordered),
        skipped=tuple(sorted(skipped, key=lambda s: BOOTSTRAP_ORDER.index(s.name))),
    )


def compose(home: str | os.PathLike[str], *, host: HostProfile | None = None, layout: FileMap = FLAT) -> Composition:
    """Compose the soul of ``home`` and keep what each file contributed.

    Never raises and never blocks: each file goes through :func:`read_file`
    (one open, classified by ``fstat``, at most the cap plus one byte read).
    A file that is there but cannot load is in ``skipped``, not in the soul.
    ``host`` composes it as that host loads it (its files, order, caps and
    cuts); the contract's (toolnexus) is the default and gives the soul of
    section 2 byte for byte. ``layout``: where the home keeps each file (a
    Hermes home's MEMORY.md and USER.md in ``memories/``), so a frozen
    snapshot holds the files its host loads.
    """
    if host is not None and not host.is_contract:
        return host.compose(home, layout=layout)
    root = home_path(home)
    files: list[BootstrapFile] = []
    skipped: list[SkippedFile] = []
    with reads_of(root) as valid_bytes:
        for name in BOOTSTRAP_ORDER:
            where = layout.relative(name)
            read = read_file(root / where, limit=MAX_FILE_BYTES + 1, valid_bytes=valid_bytes.get(where))
            if read.status.loads:
                files.append(load_bootstrap_file(name, read.data, read.size))
            elif read.status.exists:
                skipped.append(SkippedFile.of(read))
        held = []
        for name in (n for n in layout.order if n not in BOOTSTRAP_ORDER):
            read = read_file(root / layout.relative(name), limit=MAX_FILE_BYTES + 1)
            if read.status.loads:
                held.append(load_bootstrap_file(name, read.data, read.size))
        for name in layout.host_files:  # Claude Code's CLAUDE.md chain, frozen with the home's own files
            read = read_file(layout.path(root, name), limit=MAX_FILE_BYTES + 1)
            if read.status.loads:
                held.append(load_bootstrap_file(name, read.data, read.size))
    composition = compose_files(files, skipped)
    return replace(composition, held=tuple(held)) if held else composition


def compose_soul(home: str | os.PathLike[str]) -> tuple[str, list[str]]:
    """The contract's ``compose_soul``: the soul string and the files found."""
    composition = compose(home)
    return composition.soul, composition.found
