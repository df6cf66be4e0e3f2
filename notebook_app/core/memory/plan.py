"""The memory tool's actions as pure functions: validate, then plan an edit.

Nothing here touches disk. ``memory_tool`` applies exactly the ``Edit`` that
``plan_edit`` returns, placed in the file by :func:`placed` (what the 2 MiB
cap does to it), and the app's dry run shows that same ``Edit`` before it is
applied (:func:`preview_file`, which refuses what the tool refuses through the
same :func:`~..home.refusals.edit_refusal`), so a preview and a real call can never
disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from notebook_app.core.home.files import FileRead
from notebook_app.core.home.layout import FLAT, Dialect, FileMap
from notebook_app.core.home.names import is_home_path
from notebook_app.core.home.reading import MEMORY_TARGETS
from notebook_app.core.home.refusals import Rejection, edit_refusal, text_of
from notebook_app.core.home.soul import MAX_FILE_BYTES
from notebook_app.core.record.log.actor import LIBRARY, Actor
from notebook_app.core.memory import sections
from notebook_app.core.memory.dialect import dialect_for, entry_text_refusal
from notebook_app.core.text.hidden import char_name, near_match, with_markers

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
    outcome: str | None = None
    """What the next session makes of it once placed in the file (:func:`load_outcome`):
    ``loads next session``, the same with an over-cap warning, or ``will not load: …``.
    None from :func:`plan_edit`, which does not know where in the file it is."""
    line: int | None = None
    """The file's line (0-based) the edit begins on: for an add, the line its entry lands on. Set by the
    dry runs; None from :func:`plan_edit`, and for an add to a file read only in part, whose lines past
    the read were never counted (a number there would be a guess)."""
    entry: str | None = None
    """In a ``§`` store: the whole entry a replace or remove acts on (the one holding the text), as it reads
    now; ``line`` is then the line it begins on. None for an add, and in a ``- `` file."""

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


def dialect_refusal(request: MemoryRequest, by: Actor) -> Rejection | None:
    """Why a human's add would break its file's entry dialect (a line break in a ``- `` file); None when it would not.

    The agent's tool (MCP, the library) keeps the contract and is never
    refused here (spec §9). replace and remove search text that is already in
    the file, so only an add's text is an entry of its own.
    """
    if request.action != "add" or not by.is_human:
        return None
    return entry_text_refusal(request.filename, request.text)


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
        return Rejection(f"not found: {request.text}", near=near_words(request.text, text, request.filename))
    inserted = request.replacement if request.action == "replace" else ""
    return Edit(request, start, request.text, inserted or "", len(text))


def near_words(sought: str, text: str, name: str) -> str | None:
    """``near match on line 2 of MEMORY.md: “tea∙at 4”, the same but for U+200B ZERO WIDTH SPACE in the file``.

    What a person is told beside a miss that only hidden characters caused
    (:func:`..text.hidden.near_match`), the CLI and the app's form alike; the
    agent's tool keeps its contract's ``not found: <text>``. None for any other miss.
    """
    found = near_match(sought, text)
    if found is None:
        return None
    shown = with_markers(text[found.start : found.end])
    shown = shown if len(shown) <= 80 else shown[:79] + "…"
    names = [f"{char_name(c)} in the file" for c in found.in_text[:3]]
    names += [f"{char_name(c)} in your text" for c in found.in_sought[:3]]
    differ = ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1]
    line = text.count("\n", 0, found.start) + 1
    return f"near match on line {line} of {name}: “{shown}”, the same but for {differ}"


def load_outcome(name: str, *, start: int, inserted: int, size: int, removed: int = 0) -> str:
    """What the next session makes of an edit of ``name``, in words.

    ``start`` is the byte offset where the edit begins, ``inserted`` how many
    bytes it puts there, ``removed`` how many it takes out, ``size`` the file's
    bytes after it. Text that lands past the 2 MiB cap never loads, and saying
    "loads next session" then would be a lie: the tool's success output and the
    dry run both say ``will not load: …`` and how far past the cut. A removal
    wholly past the cut changes nothing a session sees, and says so.
    """
    if not is_home_path(name):  # a topic file (the only other name written): no session injects it, none cuts it
        return "read on demand, never injected"
    end = start + inserted
    cap = f"{name} is cut at the {MAX_FILE_BYTES:,}-byte bootstrap cap"
    past = start - MAX_FILE_BYTES
    where = "right at the cut" if not past else f"{past:,} byte{'s' if past != 1 else ''} past the cut"
    if inserted and start >= MAX_FILE_BYTES:
        return f"will not load: {cap} and this starts {where}"
    if removed and start >= MAX_FILE_BYTES:
        return f"the next session sees no change: {cap} and what this takes out starts {where}, where no session reads"
    if inserted and end > MAX_FILE_BYTES:
        return (
            f"will not load: {cap} and this crosses the cut; its last "
            f"{end - MAX_FILE_BYTES:,} of {inserted:,} bytes fall past it"
        )
    if size > MAX_FILE_BYTES:
        return (
            f"loads next session (warning: {name} is {size:,} bytes, over the {MAX_FILE_BYTES:,}-byte "
            "bootstrap cap; the next session loads it truncated)"
        )
    return "loads next session"


def byte_length(text: str) -> int:
    """Bytes of ``text`` in UTF-8; free for ASCII text (``isascii`` is a flag lookup)."""
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def placed(edit: Edit, *, start: int, size: int) -> Edit:
    """``edit`` with its :attr:`Edit.outcome`, beginning at byte ``start`` of a file of ``size`` bytes."""
    inserted, removed = byte_length(edit.inserted), byte_length(edit.removed)
    after = size - removed + inserted
    outcome = load_outcome(edit.request.filename, start=start, inserted=inserted, size=after, removed=removed)
    return replace(edit, outcome=outcome)


def placed_in_text(edit: Edit, text: str) -> Edit:
    """``edit`` placed in a file whose whole text is ``text``."""
    return placed(edit, start=byte_length(text[: edit.start]), size=byte_length(text))


def preview(args: object, current: str | None, *, by: Actor = LIBRARY) -> Edit | Rejection:
    """Dry run: what ``args``, called as ``by``, would do to a target file whose text is ``current``."""
    request = parse_request(args)
    if isinstance(request, Rejection):
        return request
    refusal = dialect_refusal(request, by)
    if refusal is not None:
        return refusal
    edit = plan_edit(request, current)
    if isinstance(edit, Rejection):
        return edit
    return replace(placed_in_text(edit, current or ""), line=line_of(edit, current or ""))


def preview_file(args: object, read: FileRead, *, by: Actor = LIBRARY, files: FileMap = FLAT) -> Edit | Rejection:
    """Dry run over a file as read: what the tool would do to it, or its exact refusal.

    ``read`` is the target file as the caller last read it (the app reads the
    cap and a margin). It refuses what the tool refuses, in the same words: a
    link, what is not a regular file, an unreadable file, bytes that are not
    UTF-8. When the read stopped before the end, a replace or remove whose
    text is not in what was read is rejected as not found in those bytes
    (the tool searches the whole file), and an add is placed at the file's
    real end. ``by`` is who would call: a human's write keeps the file's
    dialect, a Hermes store's ``§`` entries where ``files`` or the content
    says so (:func:`store_preview`, as :class:`.tool.MemoryTool` writes it).
    """
    request = parse_request(args)
    if isinstance(request, Rejection):
        return request
    if read.name != request.filename:
        return Rejection(f"this call writes {request.filename}, but the dry run was given {read.name}")
    refusal = edit_refusal(read)
    if refusal is not None:
        return refusal
    text = text_of(read) or ""
    if files.dialect is Dialect.SECTIONS or (by.is_human and files.dialect is None and "§" in text):
        return store_preview(request, read, text, files)
    refusal = dialect_refusal(request, by)
    if refusal is not None:
        return refusal
    edit = plan_edit(request, text)
    if isinstance(edit, Rejection):
        if read.complete:
            return edit
        return Rejection(
            f"not found in the first {len(read.data):,} bytes of {read.name}: {request.text} "
            f"(the file is {read.size:,} bytes; the tool searches all of it)"
        )
    start = read.size if edit.is_append else byte_length(text[: edit.start])
    line = None if edit.is_append and not read.complete else line_of(edit, text)
    return replace(placed(edit, start=start, size=read.size), line=line)


def plan_in_store(request: MemoryRequest, text: str | None, files: FileMap) -> sections.StoreWrite | Rejection:
    """What a human's add, replace or remove makes of a ``§`` store whose text is ``text``, within its limit."""
    op = sections.StoreOp(request.action, request.text, request.replacement)
    limit = files.limits.get(request.filename) or sections.LIMITS[request.filename]
    write = sections.plan_store(text, op, name=files.relative(request.filename), limit=limit)
    if isinstance(write, Rejection) and request.action != "add" and request.text not in (text or ""):
        return replace(write, near=near_words(request.text, text or "", request.filename))  # USER.md, as writes say
    return write


def store_preview(request: MemoryRequest, read: FileRead, text: str, files: FileMap) -> Edit | Rejection:
    """A human write to a Hermes ``§`` store as an :class:`Edit`: the splice that gives Hermes's bytes.

    Asked only where the store's dialect is ``§`` (``files``) or may be (the
    text holds the separator): content that shows both dialects is refused.
    """
    dialect = dialect_for(request.filename, files.dialect, text)
    if isinstance(dialect, Rejection):
        return dialect
    if not read.complete:
        return Rejection(f"{request.filename} is larger than a Hermes store can be; nothing was written")
    write = plan_in_store(request, text_of(read), files)
    if isinstance(write, Rejection):
        return write
    outcome = f"loads next session ({write.message} {write.usage})"
    edit = Edit(request, write.start, write.removed, write.inserted, len(text), outcome, entry=write.was)
    return replace(edit, line=_entry_line(text, write))


def _entry_line(text: str, write: sections.StoreWrite) -> int:
    """The line (0-based) of the store's own text where the entry written begins: the entry a replace or remove
    acts on, as it reads now, or where an add's new entry lands (Hermes's repeats dropped, as it numbers them)."""
    if write.was is None:  # an add: its entry is the last of what Hermes writes, which holds no repeats
        return sections.entry_spans(write.result)[write.entry - 1][2] - 1
    spans = sections.entry_spans(sections.hermes_text(text))
    return next(line for _, _, line, entry in spans if entry == write.was) - 1


def line_of(edit: Edit, text: str) -> int:
    """The line (0-based) of ``text`` that ``edit`` begins on;
    an add's entry starts a line after an unterminated last one."""
    line = text.count("\n", 0, edit.start)
    return line + 1 if edit.is_append and text and not text.endswith("\n") else line
