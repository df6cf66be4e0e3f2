"""The persona-home contract, free of any UI: the memory tool, the soul, sessions.

Everything the app, the CLI and the MCP server do to a home goes through here.
"""

from .actions import ACTIONS, TARGETS, Edit, MemoryRequest, Rejection, parse_request, plan_edit, preview
from .files import FileRead, FileStatus, read_file
from .home import (
    BOOTSTRAP_ORDER,
    MAX_FILE_BYTES,
    TRUNCATION_NOTICE,
    BootstrapFile,
    Composition,
    SkippedFile,
    compose,
    compose_soul,
)
from .memory import DESCRIPTION, INPUT_SCHEMA, MemoryTool, ToolResult, memory_tool
from .session import FileDiff, Session, Snapshot, SoulDiff, diff_compositions, diff_lines, take_snapshot
from .storage import JOURNAL_NAME, MEMORY_TARGETS, is_scratch_file

__all__ = [
    "ACTIONS",
    "BOOTSTRAP_ORDER",
    "DESCRIPTION",
    "INPUT_SCHEMA",
    "JOURNAL_NAME",
    "MAX_FILE_BYTES",
    "MEMORY_TARGETS",
    "TARGETS",
    "TRUNCATION_NOTICE",
    "BootstrapFile",
    "Composition",
    "Edit",
    "FileDiff",
    "FileRead",
    "FileStatus",
    "MemoryRequest",
    "MemoryTool",
    "Rejection",
    "Session",
    "SkippedFile",
    "Snapshot",
    "SoulDiff",
    "ToolResult",
    "compose",
    "compose_soul",
    "diff_compositions",
    "diff_lines",
    "is_scratch_file",
    "memory_tool",
    "parse_request",
    "plan_edit",
    "preview",
    "read_file",
    "take_snapshot",
]
