"""The agent's ``memory`` tool (contract section 3): its plan (pure), the tool, the entry dialect, results.

The guard and review modes wrap the tool (:mod:`..modes`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_face

if TYPE_CHECKING:
    from .dialect import dialect_for
    from .lines import Line, LineKind, file_lines
    from .plan import (
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
    from .results import SpliceResult, ToolResult, for_people
    from .sections import Usage, entries, entry_spans, hermes_text, joined, measure, shown_entry, store_usage
    from .tool import DESCRIPTION, INPUT_SCHEMA, MemoryTool, memory_tool

_HOME_OF: dict[str, str] = {
    "ACTIONS": "plan",
    "Edit": "plan",
    "dialect_for": "dialect",
    "MemoryRequest": "plan",
    "TARGETS": "plan",
    "load_outcome": "plan",
    "parse_request": "plan",
    "plan_edit": "plan",
    "preview": "plan",
    "preview_file": "plan",
    "SpliceResult": "results",
    "ToolResult": "results",
    "for_people": "results",
    "DESCRIPTION": "tool",
    "INPUT_SCHEMA": "tool",
    "MemoryTool": "tool",
    "memory_tool": "tool",
    "Usage": "sections",
    "store_usage": "sections",
    "entries": "sections",
    "entry_spans": "sections",
    "hermes_text": "sections",
    "joined": "sections",
    "measure": "sections",
    "shown_entry": "sections",
    "Line": "lines",
    "LineKind": "lines",
    "file_lines": "lines",
}
"""Each exported name -> the module that defines it; it loads on the name's first use."""

lazy_face(__name__, _HOME_OF)

__all__ = [
    "ACTIONS",
    "DESCRIPTION",
    "INPUT_SCHEMA",
    "TARGETS",
    "Edit",
    "MemoryRequest",
    "MemoryTool",
    "SpliceResult",
    "Line",
    "LineKind",
    "ToolResult",
    "Usage",
    "dialect_for",
    "entries",
    "entry_spans",
    "file_lines",
    "for_people",
    "hermes_text",
    "joined",
    "measure",
    "load_outcome",
    "memory_tool",
    "parse_request",
    "plan_edit",
    "preview",
    "preview_file",
    "shown_entry",
    "store_usage",
]
