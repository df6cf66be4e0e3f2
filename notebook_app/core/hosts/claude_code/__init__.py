"""Claude Code 2.1.332: the ``<system-reminder>`` block of instruction files and auto memory it sends at the
start of a session, as its own binary builds it. ``load`` walks the files; ``text`` holds JavaScript's string
rules (UTF-16 units, trims, front matter); ``imports`` its ``@path`` imports. Names load on first use.
"""

from __future__ import annotations

from ...lazy import lazy_face

lazy_face(
    __name__,
    {
        "ClaudeLoad": "load",
        "claude_code_load": "load",
        "claude_code_version": "load",
        "instruction_files": "load",
        "js_length": "load",
        "memory_text": "load",
        "rules": "load",
    },
)

__all__ = [
    "ClaudeLoad",
    "claude_code_load",
    "claude_code_version",
    "instruction_files",
    "js_length",
    "memory_text",
    "rules",
]
