"""The ``memory`` tool: section 3 of the contract, with our safety on top.

Validation and the edit itself come from :mod:`.actions` (pure), the locked
crash-safe write from :mod:`.storage`. ``call`` never raises: every failure
is an ``is_error`` result whose output says what was wrong.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from typing import Any

from .actions import ACTIONS, TARGETS, Edit, Rejection, parse_request, placed, placed_in_text, plan_edit
from .home import home_path
from .storage import StorageError, locked_home

DESCRIPTION = (
    "Edit your durable memory files. action 'add' appends an entry, 'replace' swaps the first "
    "occurrence of 'text' for 'with', 'remove' deletes the first occurrence of 'text'. "
    "target 'self' (default) is MEMORY.md, your own notes; 'user' is USER.md, what you know "
    "about your user. Writes persist to disk immediately but are NOT loaded into your current "
    "context: they load at the START of the NEXT session. A replace or remove whose text is "
    "not found is an error and changes nothing."
)

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": list(ACTIONS), "description": "Which change to make."},
        "target": {
            "type": "string",
            "enum": list(TARGETS),
            "description": "self -> MEMORY.md (default); user -> USER.md.",
        },
        "text": {
            "type": "string",
            "description": "add: the new entry. replace/remove: the existing text to find.",
        },
        "with": {"type": "string", "description": "replace: the text to put in its place."},
    },
    "required": ["action", "text"],
}


@dataclass(frozen=True)
class ToolResult:
    output: str
    is_error: bool = False
    refused_by: str | None = None
    """The doctor's rule that refused the call in guard mode; None otherwise."""


class MemoryTool:
    """File-backed memory over one home directory."""

    name = "memory"
    source = "native"
    description = DESCRIPTION
    input_schema = INPUT_SCHEMA

    def __init__(self, home: str | os.PathLike[str], *, durable: bool = True) -> None:
        self.home = home_path(home)
        self._durable = durable

    def call(self, args: object) -> ToolResult:
        """Apply one action now; the result says what happened, never raises."""
        try:
            return self._call(args)
        except StorageError as error:
            return ToolResult(str(error), is_error=True)
        except OSError as error:
            reason = error.strerror or str(error)
            where = f": {error.filename}" if error.filename else ""
            return ToolResult(f"could not write memory ({reason}{where}); nothing was changed", is_error=True)

    async def execute(self, args: object) -> ToolResult:
        """The async twin of :meth:`call`; the file work runs off the event loop."""
        return await asyncio.to_thread(self.call, args)

    def _call(self, args: object) -> ToolResult:
        request = parse_request(args)
        if isinstance(request, Rejection):
            return ToolResult(request.message, is_error=True)
        name = request.filename
        with locked_home(self.home, create=request.action == "add", durable=self._durable) as home:
            if request.action == "add":
                end = home.read_end(name)
                edit = plan_edit(request, end.text)
                assert isinstance(edit, Edit)  # an add always plans
                edit = placed(edit, start=end.size, size=end.size)
                home.append(name, edit.inserted.encode("utf-8"), validated=True)
            else:
                current = home.read_text(name)
                edit = plan_edit(request, current)
                if isinstance(edit, Rejection):
                    return ToolResult(edit.message, is_error=True)
                edit = placed_in_text(edit, current or "")
                home.rewrite(name, edit.apply(current or "").encode("utf-8"), validated=True)
        return ToolResult(success_message(edit))


def success_message(edit: Edit) -> str:
    """``ok (<action> → <file>); loads next session``, or what the cap does to it instead."""
    request = edit.request
    return f"ok ({request.action} → {request.filename}); {edit.outcome or 'loads next session'}"


def memory_tool(home: str | os.PathLike[str]) -> MemoryTool:
    """The contract's ``memory_tool(dir)``."""
    return MemoryTool(home)
