"""The ``memory`` tool: section 3 of the contract, with our safety on top.

Validation and the edit itself come from :mod:`.plan` (pure), the locked
crash-safe write from :mod:`..store.storage`. ``call`` never raises: every failure
is an ``is_error`` result whose output says what was wrong.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from notebook_app.core.home.layout import FLAT, Dialect, FileMap
from notebook_app.core.home.soul import home_path
from notebook_app.core.record.log.actor import LIBRARY, Actor, ActorKind
from notebook_app.core.record.log.json_lines import json_safe
from notebook_app.core.memory import sections
from notebook_app.core.memory.dialect import dialect_for
from notebook_app.core.memory.plan import (
    ACTIONS,
    TARGETS,
    Edit,
    MemoryRequest,
    Rejection,
    byte_length,
    dialect_refusal,
    parse_request,
    placed,
    placed_in_text,
    plan_edit,
    plan_in_store,
)
from notebook_app.core.memory.results import ToolResult
from notebook_app.core.record.places import holds
from notebook_app.core.record.side_events import record_failed
from notebook_app.core.record.storage import Change, LockedHome, StorageError, locked_home

DESCRIPTION = (
    "Edit your durable memory files. action 'add' appends an entry, 'replace' swaps the first "
    "occurrence of 'text' for 'with', 'remove' deletes the first occurrence of 'text'. "
    "target 'self' (default) is MEMORY.md, your own notes; 'user' is USER.md, what you know "
    "about your user. Writes persist to disk immediately but are NOT loaded into your current "
    "context: they load at the START of the NEXT session. A replace or remove whose text is "
    "not found is an error and changes nothing."
)

WHOLE_ENTRY_SENTENCE = (
    "In this home entries are separated by lines holding only '§', and 'replace' and 'remove' act on the whole "
    "entry that holds 'text', which must be in one entry only."
)
"""The one sentence the description gains on a home in Hermes's ``§`` dialect (spec §9)."""

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


class MemoryTool:
    """File-backed memory over one home directory; every write is recorded as ``by``."""

    name = "memory"
    source = "native"
    description = DESCRIPTION
    input_schema = INPUT_SCHEMA

    def __init__(
        self, home: str | os.PathLike[str], *, durable: bool = True, by: Actor = LIBRARY, files: FileMap = FLAT
    ) -> None:
        self.home = home_path(home)
        self._durable = durable
        self.files = files
        """Where the target files are and whose home it is; a Hermes home's entries are its ``§`` entries."""
        if files.dialect is Dialect.SECTIONS:  # the schema never changes; the description gains one sentence
            self.description = f"{type(self).description} {WHOLE_ENTRY_SENTENCE}"
        self.by = by
        """Who calls: the history names it. Inside an MCP session, failed calls are recorded too."""

    def call(self, args: object) -> ToolResult:
        """Apply one action now; the result says what happened, never raises."""
        try:
            result = self._call(args)
        except StorageError as error:
            result = ToolResult(str(error), is_error=True)
        except OSError as error:
            reason = error.strerror or str(error)
            where = f": {error.filename}" if error.filename else ""
            result = ToolResult(f"could not write memory ({reason}{where}); nothing was changed", is_error=True)
        if result.is_error:
            result = self._record_failure(args, result)
        return result

    def _record_failure(self, args: object, result: ToolResult) -> ToolResult:
        """Log a failed call of an MCP session among its calls; other callers' failures leave nothing."""
        if self.by.kind is not ActorKind.MCP:
            return result
        unrecorded = record_failed(
            self.home, self.by, args, result.output, refused=result.refused_by, durable=self._durable
        )
        return ToolResult(result.output, True, refused_by=result.refused_by, unrecorded=unrecorded)

    async def execute(self, args: object) -> ToolResult:
        """The async twin of :meth:`call`; the file work runs off the event loop."""
        return await asyncio.to_thread(self.call, args)

    def _call(self, args: object) -> ToolResult:
        request = parse_request(args)
        if isinstance(request, Rejection):
            return ToolResult(request.message, is_error=True)
        if self.files.dialect is Dialect.LINES:  # a "- " host: refused now; with no host known, under the lock
            refusal = dialect_refusal(request, self.by)
            if refusal is not None:
                return ToolResult(refusal.message, is_error=True)
        elif self.files.dialect is Dialect.SECTIONS and (
            problem := sections.text_problem(request.replacement or request.text) or _blocked(request)
        ):
            return ToolResult(problem, is_error=True)  # before the lock: a refusal makes no memories/
        name = self.files.relative(request.filename)
        given = json_safe(args)
        with (
            locked_home(
                self.home, create=request.action == "add", durable=self._durable, by=self.by, files=self.files
            ) as home,
            home.host_lock(name, make=request.action == "add"),
        ):
            refusal = self._under_lock(home)
            if refusal is not None:
                return refusal
            if self.files.dialect is Dialect.SECTIONS or (self.by.is_human and self.files.dialect is None):
                written = self._in_dialect(home, request, name, given)
                if written is not None:
                    return written
            if request.action == "add":
                end = home.read_end(name)
                edit = plan_edit(request, end.text)
                assert isinstance(edit, Edit)  # an add always plans
                edit = placed(edit, start=end.size, size=end.size)
                output = success_message(edit)
                home.append(
                    name,
                    edit.inserted.encode("utf-8"),
                    validated=True,
                    change=self._change(request.action, given, output),
                )
            else:
                current = home.read_text(name)
                edit = plan_edit(request, current)
                if isinstance(edit, Rejection):
                    return ToolResult(edit.message, is_error=True, near=edit.near)
                text = current or ""
                edit = placed_in_text(edit, text)
                output = success_message(edit)
                start = byte_length(text[: edit.start])
                splice = (start, edit.removed.encode("utf-8"), edit.inserted.encode("utf-8"))
                change = self._change(request.action, given, output)
                home.rewrite(name, edit.apply(text).encode("utf-8"), validated=True, change=change, edit=splice)
            unrecorded = home.unrecorded
        return ToolResult(output, unrecorded=unrecorded)

    def _in_dialect(self, home: LockedHome, request: MemoryRequest, name: str, given: object) -> ToolResult | None:
        """A human write in the file's own dialect when it is Hermes's ``§`` (spec §9); None for a ``- `` file.

        The host's dialect decides; with no host known, the file's content
        does, and content that shows both is refused rather than guessed.
        """
        if self.files.dialect is None and not holds(home.path(name), "§".encode(), rare=b"\xa7"):
            refusal = dialect_refusal(request, self.by)  # no '§' anywhere: a '- ' file, and an add stays constant-time
            return None if refusal is None else ToolResult(refusal.message, is_error=True)
        text = home.read_text(name)
        dialect = dialect_for(name, self.files.dialect, text)
        if isinstance(dialect, Rejection):
            return ToolResult(dialect.message, is_error=True)
        if dialect is not Dialect.SECTIONS:
            refusal = dialect_refusal(request, self.by)
            return None if refusal is None else ToolResult(refusal.message, is_error=True)
        write = plan_in_store(request, text, self.files)
        if isinstance(write, Rejection):
            return ToolResult(write.message, is_error=True, near=write.near)
        output = store_output(request, request.filename, write)  # the name the doctor and the panes give it
        change = self._change(request.action, given, output)
        if write.is_append:
            home.append(name, write.inserted.encode("utf-8"), validated=True, change=change)
        else:
            old = text or ""
            splice = (byte_length(old[: write.start]), write.removed.encode("utf-8"), write.inserted.encode("utf-8"))
            home.rewrite(name, write.result.encode("utf-8"), validated=True, change=change, edit=splice)
        return ToolResult(output, unrecorded=home.unrecorded)

    def _under_lock(self, home: LockedHome) -> ToolResult | None:
        """A refusal decided under the home's lock, before anything is read; approvals check their status here."""
        return None

    def _change(self, action: str, given: object, output: str) -> Change:
        """What the write's record says about itself; an approval records ``approved`` and its proposal."""
        return Change(action, given, output)


def store_output(request: MemoryRequest, name: str, write: sections.StoreWrite) -> str:
    """A ``§`` store write's output: the contract's ``ok (…); loads next session``, what a replace or remove did
    to the whole entry holding its text, and Hermes's own words and meter."""
    said = sections.whole_entry_said(request.action, request.text, write)
    done = f"{said}; " if said else ""
    return f"ok ({request.action} → {name}); {done}loads next session ({write.message} {write.usage})"


def success_message(edit: Edit) -> str:
    """``ok (<action> → <file>); loads next session``, or what the cap does to it instead."""
    request = edit.request
    return f"ok ({request.action} → {request.filename}); {edit.outcome or 'loads next session'}"


def memory_tool(home: str | os.PathLike[str], *, by: Actor = LIBRARY, files: FileMap = FLAT) -> MemoryTool:
    """The contract's ``memory_tool(dir)``; ``by`` names the caller in the history (a library caller by default),
    ``files`` where the home's host keeps its entry files (a Hermes home's are ``memories/``, in ``§`` entries)."""
    return MemoryTool(home, by=by, files=files)


def _blocked(request: MemoryRequest) -> str | None:
    """An add's or replace's new text holding a character Hermes's scan blocks, refused before the lock (a remove's
    text may hold one: it names the entry to take out, as Hermes's placeholder asks)."""
    new = request.text if request.action == "add" else request.replacement
    return sections.blocked_problem(new) if new else None
