"""The persona-home contract, free of any UI: the memory tool, the soul, sessions.

Everything the app, the CLI and the MCP server do to a home goes through here.

Importing the package loads none of its modules: each name loads its own
module on first use (PEP 562), so ``from notebook_app.core import compose``
costs compose's imports, not the whole core's (the app's start, the CLI).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_face

if TYPE_CHECKING:
    from .edits.copies import edits_dir
    from .edits.editor_copy import CopyEditResult, CopyOutcome, EditorRunner, edit_with_editor
    from .edits.entry_plan import EntryPlan, plan_entry
    from .edits.guarded_splice import Splice, delete_entry, edit_entry, splice
    from .edits.hand_edit import HandEditResult, text_digest, write_file
    from .home.files import FileRead, FileStatus, read_file
    from .home.reading import ENTRY_FILES, JOURNAL_NAME, MEMORY_TARGETS, is_scratch_file
    from .home.refusals import Rejection, edit_refusal
    from .home.soul import (
        BOOTSTRAP_ORDER,
        MAX_FILE_BYTES,
        TRUNCATION_NOTICE,
        BootstrapFile,
        Composition,
        SkippedFile,
        compose,
        compose_soul,
    )
    from .log.actor import Actor, ActorKind
    from .memory.plan import (
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
    from .memory.results import SpliceResult, ToolResult
    from .memory.tool import DESCRIPTION, INPUT_SCHEMA, MemoryTool, memory_tool
    from .sessions.snapshot import FileDiff, Session, Snapshot, SoulDiff, diff_compositions, diff_lines, take_snapshot
    from .text.merge import Conflict, MergeResult, merge3

_HOME_OF: dict[str, str] = {
    "ACTIONS": "memory.plan",
    "TARGETS": "memory.plan",
    "Edit": "memory.plan",
    "MemoryRequest": "memory.plan",
    "load_outcome": "memory.plan",
    "parse_request": "memory.plan",
    "plan_edit": "memory.plan",
    "preview": "memory.plan",
    "preview_file": "memory.plan",
    "Actor": "log.actor",
    "ActorKind": "log.actor",
    "CopyEditResult": "edits.editor_copy",
    "CopyOutcome": "edits.editor_copy",
    "EditorRunner": "edits.editor_copy",
    "edit_with_editor": "edits.editor_copy",
    "edits_dir": "edits.copies",
    "FileRead": "home.files",
    "FileStatus": "home.files",
    "read_file": "home.files",
    "HandEditResult": "edits.hand_edit",
    "text_digest": "edits.hand_edit",
    "write_file": "edits.hand_edit",
    "BOOTSTRAP_ORDER": "home.soul",
    "MAX_FILE_BYTES": "home.soul",
    "TRUNCATION_NOTICE": "home.soul",
    "BootstrapFile": "home.soul",
    "Composition": "home.soul",
    "SkippedFile": "home.soul",
    "compose": "home.soul",
    "compose_soul": "home.soul",
    "Conflict": "text.merge",
    "MergeResult": "text.merge",
    "merge3": "text.merge",
    "DESCRIPTION": "memory.tool",
    "INPUT_SCHEMA": "memory.tool",
    "MemoryTool": "memory.tool",
    "ToolResult": "memory.results",
    "memory_tool": "memory.tool",
    "Rejection": "home.refusals",
    "edit_refusal": "home.refusals",
    "FileDiff": "sessions.snapshot",
    "Session": "sessions.snapshot",
    "Snapshot": "sessions.snapshot",
    "SoulDiff": "sessions.snapshot",
    "diff_compositions": "sessions.snapshot",
    "diff_lines": "sessions.snapshot",
    "take_snapshot": "sessions.snapshot",
    "EntryPlan": "edits.entry_plan",
    "plan_entry": "edits.entry_plan",
    "Splice": "edits.guarded_splice",
    "SpliceResult": "memory.results",
    "delete_entry": "edits.guarded_splice",
    "edit_entry": "edits.guarded_splice",
    "splice": "edits.guarded_splice",
    "ENTRY_FILES": "home.reading",
    "JOURNAL_NAME": "home.reading",
    "MEMORY_TARGETS": "home.reading",
    "is_scratch_file": "home.reading",
}
"""Each exported name -> the module that defines it."""


lazy_face(__name__, _HOME_OF)


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
