"""The memory tool's actions as pure functions: validate, then plan an edit.

Nothing here touches disk. ``memory_tool`` applies exactly the ``Edit`` that
``plan_edit`` returns, and the app's dry run shows that same ``Edit`` before it
is applied, so a preview and a real call can never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from .refusals import Rejection
from .storage import MEMORY_TARGETS

Action = Literal["add", "replace", "remove"]
ACTIONS: tuple[Action, ...] = ("add", "replace", "remove")
TARGETS: tuple[str, ...] = tuple(MEMORY_TARGETS)


@dataclass(frozen=True)
class MemoryRequest:
    """A validated tool input."""

    action: Action
    target: str
    text: str
    replacement: str | None = None
    """The ``with`` field; only replace carries one."""

    @property
    def filename(self) -> str:
        return MEMORY_TARGETS[self.target]


@dataclass(frozen=True)
class Edit:
    """One splice of a file's text: at ``start``, ``removed`` goes and ``inserted`` comes."""

    request: MemoryRequest
    start: int
    removed: str
    inserted: str
    old_length: int

    @property
    def is_append(self) -> bool:
        """An edit at the very end that removes nothing: written by appending."""
        return self.start == self.old_length and not self.removed

    @property
    def end(self) -> int:
        """Where the removed text ended in the old text."""
        return self.start + len(self.removed)

    def apply(self, text: str) -> str:
        return text[: self.start] + self.inserted + text[self.end :]


def _type_name(value: object) -> str:
    names = {bool: "boolean", int: "number", float: "number", str: "string", list: "array", dict: "object"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _string_field(args: Mapping[str, object], key: str) -> str | Rejection | None:
    """A string field, None when absent or null, a Rejection when not usable."""
    value = args.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        return Rejection(f"'{key}' must be a string, got {_type_name(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return Rejection(f"'{key}' is not valid Unicode text (it holds a lone surrogate)")
    return value


def parse_request(args: object) -> MemoryRequest | Rejection:
    """Check a tool input against the schema and say plainly what is wrong."""
    if not isinstance(args, Mapping):
        return Rejection(f"input must be an object with 'action' and 'text', got {_type_name(args)}")
    action = args.get("action")
    if action is None:
        return Rejection("missing 'action': expected one of add, replace, remove")
    if action not in ACTIONS:
        return Rejection(f"unknown action {action!r}: expected one of add, replace, remove")
    target = args.get("target")
    if target is None:
        target = "self"
    if not isinstance(target, str) or target not in TARGETS:
        return Rejection(f"unknown target {target!r}: expected 'self' (MEMORY.md) or 'user' (USER.md)")
    text = _string_field(args, "text")
    if isinstance(text, Rejection):
        return text
    if text is None:
        return Rejection("missing 'text': the entry to add, or the existing text to replace or remove")
    if not text.strip():
        return Rejection("'text' must not be empty or only whitespace")
    replacement = None
    if action == "replace":
        replacement = _string_field(args, "with")
        if isinstance(replacement, Rejection):
            return replacement
        if replacement is None:
            return Rejection("replace needs 'with': the text to put in place of 'text' (\"\" removes it)")
    return MemoryRequest(action=action, target=target, text=text, replacement=replacement)


def plan_edit(request: MemoryRequest, current: str | None) -> Edit | Rejection:
    """The edit ``request`` makes to a file whose text is ``current`` (None: absent).

    add appends ``- <text>`` and a line ending, first closing an unterminated
    last line so the entry starts a line of its own; the line ending is the
    file's own (CRLF when its last line ending is CRLF, else LF). replace and
    remove act on the FIRST occurrence and reject a miss with
    ``not found: <text>``. An add depends only on how the text ends (from the
    byte before its last line ending on), so the tool passes just that end of
    a large file; ``start`` then counts from there.
    """
    text = current or ""
    if request.action == "add":
        last = text.rfind("\n")
        ending = "\r\n" if last >= 1 and text[last - 1] == "\r" else "\n"
        separator = ending if text and not text.endswith("\n") else ""
        return Edit(request, len(text), "", f"{separator}- {request.text}{ending}", len(text))
    start = text.find(request.text)
    if start < 0:
        return Rejection(f"not found: {request.text}")
    inserted = request.replacement if request.action == "replace" else ""
    return Edit(request, start, request.text, inserted or "", len(text))


def preview(args: object, current: str | None) -> Edit | Rejection:
    """Dry run: what ``args`` would do to a target file whose text is ``current``."""
    request = parse_request(args)
    if isinstance(request, Rejection):
        return request
    return plan_edit(request, current)
