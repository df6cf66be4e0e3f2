"""The persona-home contract, free of any UI: the memory tool, the soul, sessions.

Everything the app, the CLI and the MCP server do to a home goes through here.

Importing the package loads none of its modules: each name loads its own
module on first use (PEP 562), so ``from notebook_app.core import compose``
costs compose's imports, not the whole core's (the app's start, the CLI).
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from .entry_plan import EntryPlan, plan_entry
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
    from .memory import DESCRIPTION, INPUT_SCHEMA, MemoryTool, memory_tool
    from .merge import Conflict, MergeResult, merge3
    from .reading import ENTRY_FILES, JOURNAL_NAME, MEMORY_TARGETS, is_scratch_file
    from .refusals import Rejection, edit_refusal
    from .results import SpliceResult, ToolResult
    from .session import FileDiff, Session, Snapshot, SoulDiff, diff_compositions, diff_lines, take_snapshot
    from .splice import Splice, delete_entry, edit_entry, splice

_HOME_OF: dict[str, str] = {
    "ACTIONS": "actions",
    "TARGETS": "actions",
    "Edit": "actions",
    "MemoryRequest": "actions",
    "load_outcome": "actions",
    "parse_request": "actions",
    "plan_edit": "actions",
    "preview": "actions",
    "preview_file": "actions",
    "Actor": "actor",
    "ActorKind": "actor",
    "CopyEditResult": "edit_copy",
    "CopyOutcome": "edit_copy",
    "EditorRunner": "edit_copy",
    "edit_with_editor": "edit_copy",
    "edits_dir": "edit_copy",
    "FileRead": "files",
    "FileStatus": "files",
    "read_file": "files",
    "HandEditResult": "hand_edit",
    "text_digest": "hand_edit",
    "write_file": "hand_edit",
    "BOOTSTRAP_ORDER": "home",
    "MAX_FILE_BYTES": "home",
    "TRUNCATION_NOTICE": "home",
    "BootstrapFile": "home",
    "Composition": "home",
    "SkippedFile": "home",
    "compose": "home",
    "compose_soul": "home",
    "Conflict": "merge",
    "MergeResult": "merge",
    "merge3": "merge",
    "DESCRIPTION": "memory",
    "INPUT_SCHEMA": "memory",
    "MemoryTool": "memory",
    "ToolResult": "results",
    "memory_tool": "memory",
    "Rejection": "refusals",
    "edit_refusal": "refusals",
    "FileDiff": "session",
    "Session": "session",
    "Snapshot": "session",
    "SoulDiff": "session",
    "diff_compositions": "session",
    "diff_lines": "session",
    "take_snapshot": "session",
    "EntryPlan": "entry_plan",
    "plan_entry": "entry_plan",
    "Splice": "splice",
    "SpliceResult": "results",
    "delete_entry": "splice",
    "edit_entry": "splice",
    "splice": "splice",
    "ENTRY_FILES": "reading",
    "JOURNAL_NAME": "reading",
    "MEMORY_TARGETS": "reading",
    "is_scratch_file": "reading",
}
"""Each exported name -> the module that defines it."""


def __getattr__(name: str) -> Any:
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME_OF})


class _Core(ModuleType):
    """The package, where a name exported from a module of the same name stays the export.

    ``splice`` is a module and its function: importing the module sets the
    package's attribute to the module, and the function must win, as it did
    when this package imported every name eagerly.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and _HOME_OF.get(name) == name:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Core


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
