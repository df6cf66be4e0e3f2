"""The persona-home contract, free of any UI: the memory tool, the soul, sessions.

Everything the app, the CLI and the MCP server do to a home goes through here.
"""

from .actions import (
    ACTIONS,
    TARGETS,
    Edit,
    MemoryRequest,
    load_outcome,
    parse_request,
    plan_edit,
    preview,
    preview_file,
)
from .actor import Actor, ActorKind
from .edit_copy import CopyEditResult, CopyOutcome, EditorRunner, edit_with_editor, edits_dir
from .files import FileRead, FileStatus, read_file
from .hand_edit import HandEditResult, text_digest, write_file
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
from .merge import Conflict, MergeResult, merge3
from .memory import DESCRIPTION, INPUT_SCHEMA, MemoryTool, ToolResult, memory_tool
from .refusals import Rejection, edit_refusal
from .session import FileDiff, Session, Snapshot, SoulDiff, diff_compositions, diff_lines, take_snapshot
from .splice import ENTRY_FILES, EntryPlan, Splice, SpliceResult, delete_entry, edit_entry, plan_entry, splice
from .storage import JOURNAL_NAME, MEMORY_TARGETS, is_scratch_file

__all__ = [
    "ACTIONS",
    "BOOTSTRAP_ORDER",
    "DESCRIPTION",
    "ENTRY_FILES",
    "INPUT_SCHEMA",
    "JOURNAL_NAME",
    "MAX_FILE_BYTES",
    "MEMORY_TARGETS",
    "TARGETS",
    "TRUNCATION_NOTICE",
    "Actor",
    "ActorKind",
    "BootstrapFile",
    "Composition",
    "Conflict",
    "CopyEditResult",
    "CopyOutcome",
    "Edit",
    "EditorRunner",
    "EntryPlan",
    "FileDiff",
    "FileRead",
    "FileStatus",
    "HandEditResult",
    "MemoryRequest",
    "MemoryTool",
    "MergeResult",
    "Rejection",
    "Session",
    "SkippedFile",
    "Snapshot",
    "SoulDiff",
    "Splice",
    "SpliceResult",
    "ToolResult",
    "compose",
    "compose_soul",
    "delete_entry",
    "diff_compositions",
    "diff_lines",
    "edit_entry",
    "edit_with_editor",
    "edits_dir",
    "edit_refusal",
    "is_scratch_file",
    "load_outcome",
    "memory_tool",
    "merge3",
    "parse_request",
    "plan_edit",
    "plan_entry",
    "preview",
    "preview_file",
    "read_file",
    "splice",
    "take_snapshot",
    "text_digest",
    "write_file",
]
