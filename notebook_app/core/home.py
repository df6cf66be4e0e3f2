"""The persona home: its bootstrap files and how they compose into a soul.

This is sections 1 and 2 of the contract. Reading never changes a file; every
file is read with the 2 MiB byte cap the next session will apply, so what we
show is exactly what an agent would load.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .storage import consistent_reads

BOOTSTRAP_ORDER: tuple[str, ...] = (
    "AGENTS.md",
    "SOUL.md",
    "IDENTITY.md",
    "USER.md",
    "TOOLS.md",
    "HEARTBEAT.md",
    "MEMORY.md",
)
"""The seven bootstrap files, in the order a soul is composed from them."""

MAX_FILE_BYTES = 2 * 1024 * 1024
"""Bytes of each bootstrap file that a session loads; the rest is cut."""

TRUNCATION_NOTICE = "[truncated: exceeds 2 MB bootstrap cap]"

_ASCII_SPACE = b" \t\n\r\x0b\x0c"

@dataclass(frozen=True)
class BootstrapFile:
    """One present bootstrap file as the next session would load it."""

    name: str
    body: str
    """The section body: stripped text, plus the truncation notice if cut."""
    size: int
    """Bytes on disk (the whole file, not just what loads)."""
    truncated: bool
    digest: str
    """sha256 of the bytes that load; equal digests mean equal sections."""
    decode_error: str | None = None
    """Set when the loaded bytes are not UTF-8; they load with U+FFFD."""

    @property
    def dropped_bytes(self) -> int:
        """Bytes the next session will not see because of the cap."""
        return max(0, self.size - MAX_FILE_BYTES)

    @property
    def section(self) -> str:
        return f"## {self.name}\n\n{self.body}"


@dataclass(frozen=True)
class Composition:
    """A composed soul together with the per-file facts behind it."""

    soul: str
    files: tuple[BootstrapFile, ...]

    @property
    def found(self) -> list[str]:
        return [f.name for f in self.files]

    def file(self, name: str) -> BootstrapFile | None:
        return next((f for f in self.files if f.name == name), None)

    def with_text(self, name: str, text: str) -> Composition:
        """This composition as if bootstrap file ``name`` held ``text``.

        The dry run of a pending write: the soul a session would load after it,
        built by the same rules as :func:`compose`, without touching disk.
        """
        data = text.encode("utf-8")
        changed = load_bootstrap_file(name, data[: MAX_FILE_BYTES + 1], len(data))
        return compose_files([f for f in self.files if f.name != name] + [changed])


def home_path(home: str | os.PathLike[str]) -> Path:
    """A home as given by a person or a config file: ``~`` means their home folder."""
    return Path(home).expanduser()


def _ascii_space_trimmed(data: memoryview) -> tuple[int, int]:
    """Bounds of ``data`` without ASCII whitespace at either end."""
    start, end = 0, len(data)
    while start < end and data[start] in _ASCII_SPACE:
        start += 1
    while end > start and data[end - 1] in _ASCII_SPACE:
        end -= 1
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


def read_bootstrap_file(path: Path, valid_bytes: int | None = None) -> BootstrapFile:
    """Read one bootstrap file under the byte cap, as a session loads it.

    ``valid_bytes`` ignores what an interrupted append left past that point.
    """
    limit = MAX_FILE_BYTES + 1 if valid_bytes is None else min(valid_bytes, MAX_FILE_BYTES + 1)
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        data = handle.read(limit)
    if valid_bytes is not None:
        size = min(size, valid_bytes)
    return load_bootstrap_file(path.name, data, size)


def load_bootstrap_file(name: str, data: bytes, size: int) -> BootstrapFile:
    """A bootstrap file as a session loads it from ``data``, its first bytes.

    ``data`` holds at least the first ``MAX_FILE_BYTES + 1`` bytes of a file
    of ``size`` bytes (all of it when smaller); more is cut at the cap.
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
        digest=hashlib.sha256(loaded).hexdigest(),
        decode_error=decode_error,
    )


def compose_files(files: Iterable[BootstrapFile]) -> Composition:
    """The soul made of ``files``, taken in bootstrap order."""
    ordered = sorted(files, key=lambda f: BOOTSTRAP_ORDER.index(f.name))
    parts: list[str] = []
    for file in ordered:  # one join, so each body is copied into the soul once
        parts += ("\n\n## " if parts else "## ", file.name, "\n\n", file.body)
    return Composition(soul="".join(parts), files=tuple(ordered))


def compose(home: str | os.PathLike[str]) -> Composition:
    """Compose the soul of ``home`` and keep what each file contributed."""
    root = home_path(home)
    files = []
    with consistent_reads(root) as valid_bytes:
        for name in BOOTSTRAP_ORDER:
            path = root / name
            if not path.is_file():
                continue
            try:
                files.append(read_bootstrap_file(path, valid_bytes.get(name)))
            except (FileNotFoundError, IsADirectoryError):
                continue  # removed between the check and the read: it is absent
    return compose_files(files)


def compose_soul(home: str | os.PathLike[str]) -> tuple[str, list[str]]:
    """The contract's ``compose_soul``: the soul string and the files found."""
    composition = compose(home)
    return composition.soul, composition.found
