"""One bootstrap file as the rules scan it: its bytes, its text, its lines.

Rules search the whole text at once (C-speed regular expressions) and turn a
match's offset into a line number here, by bisection over the line starts
found once per file; no rule walks a 2 MiB file line by line in Python unless
it needs every line (hygiene, which hashes each entry once).
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cached_property

_NEWLINE = re.compile("\n")


@dataclass(frozen=True, eq=False)
class FileText:
    """What was read of one file, decoded for scanning (bad bytes become U+FFFD)."""

    name: str
    data: bytes = field(repr=False)
    size: int
    """Bytes in the whole file; more than ``len(data)`` when the read stopped at a limit."""

    @cached_property
    def digest(self) -> str:
        """sha256 of the bytes read: the key findings are cached under."""
        return hashlib.sha256(self.data).hexdigest()

    @cached_property
    def text(self) -> str:
        return self.data.decode("utf-8", "replace")

    @cached_property
    def line_starts(self) -> list[int]:
        """Character offset where each line starts; line N (1-based) starts at ``line_starts[N-1]``."""
        return [0, *(match.end() for match in _NEWLINE.finditer(self.text))]

    @cached_property
    def lines(self) -> list[str]:
        """Each line without its line ending (``\\r\\n`` or ``\\n``)."""
        return [line[:-1] if line.endswith("\r") else line for line in self.text.split("\n")]

    def line_of(self, offset: int) -> int:
        """The 1-based line holding character ``offset``."""
        return bisect_right(self.line_starts, offset)

    def line_text(self, line: int) -> str:
        return self.lines[line - 1]


def line_of_byte(data: bytes, offset: int) -> int:
    """The 1-based line holding byte ``offset`` of ``data``."""
    return data.count(b"\n", 0, offset) + 1
