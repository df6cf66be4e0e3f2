"""The dry run: what a pending action would do, shown as the next session it leads to. No Textual.

The core plans it (``preview_file`` for the agent's tool, ``plan_entry`` for
the notebook's entry edits) exactly as the write will, so what is shown and
what is written cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from notebook_app.app.view_model.comparison import Comparison, compare
from notebook_app.app.view_model.notebook import ENTRY_ACTIONS, HomeState
from notebook_app.core.home.files import FileRead, FileStatus
from notebook_app.core.home.layout import Dialect
from notebook_app.core.home.refusals import Rejection, edit_refusal, text_of
from notebook_app.core.memory.edits.entry_plan import EntryPlan, plan_entry
from notebook_app.core.record.log.actor import NOTEBOOK

if TYPE_CHECKING:
    from notebook_app.core.memory.edits.entry_plan import EntryPlan
    from notebook_app.core.memory.plan import Edit


@dataclass(frozen=True)
class DryRun:
    """A pending action's effect, before it is applied."""

    args: Mapping[str, object]
    seq: int
    """The :class:`HomeState` it was computed against."""
    outcome: Edit | EntryPlan | Rejection
    comparison: Comparison | None = None
    """The session against the next one as it would be after the action; None when refused."""
    edit_line: int | None = None
    """The target file's line where the edit starts."""
    blocked: bool = False
    """The home refuses every write (read-only, moved): said however little was typed."""


def dry_run(state: HomeState, args: Mapping[str, object]) -> DryRun:
    """What ``args`` would do, shown as the next session it would lead to.

    The core's ``preview_file`` checks the target as the tool will (a link, a
    FIFO, bytes that are not UTF-8 are refused in the tool's words) and says
    whether the edit loads next session; the soul after it is built from that
    same edit. A home that refuses every write says so first, in the core's words.
    """
    if state.refusal is not None:
        return DryRun(args, state.seq, Rejection(state.refusal), blocked=True)
    if args.get("action") in ENTRY_ACTIONS:
        return entry_dry_run(state, args)
    from notebook_app.core.memory.plan import parse_request, preview_file  # lazy: the write path

    request = parse_request(dict(args))
    if isinstance(request, Rejection):
        return DryRun(args, state.seq, request)
    live = state.files.get(request.filename)
    read = live.read if live is not None else FileRead(request.filename, FileStatus.ABSENT)
    outcome = preview_file(dict(args), read, by=NOTEBOOK, files=state.layout)  # a person's write keeps the dialect
    if isinstance(outcome, Rejection):
        return DryRun(args, state.seq, outcome)
    before = text_of(read) or ""
    name = outcome.request.filename
    composition = state.preview.composition.with_text(name, outcome.apply(before), path=state.layout.relative(name))
    edit_line = outcome.line  # None for an add past what was read: its line is not claimed
    comparison = compare(
        state.comparison.current, composition, state.comparison
    )  # splits the soul only around the edit
    return DryRun(args, state.seq, outcome, comparison, edit_line=edit_line)


def entry_dry_run(state: HomeState, args: Mapping[str, object]) -> DryRun:
    """An entry delete or edit on the file as shown, planned by the core's ``plan_entry``."""

    name, line = str(args["file"]), int(str(args["line"]))
    live = state.files.get(name)
    read = live.read if live is not None else FileRead(name, FileStatus.ABSENT)
    refusal = edit_refusal(read)
    if refusal is not None:
        return DryRun(args, state.seq, refusal)
    before = text_of(read)
    new_text = None if args["action"] == "delete-entry" else str(args.get("to", ""))
    dialect = Dialect.SECTIONS if name in state.sections else Dialect.LINES
    limit = state.layout.limits.get(name)
    plan = plan_entry(before, name, line, str(args["expect"]), new_text, dialect=dialect, limit=limit)
    if isinstance(plan, Rejection):
        return DryRun(args, state.seq, plan)
    text = before or ""
    composition = state.preview.composition.with_text(name, plan.apply(text), path=state.layout.relative(name))
    comparison = compare(state.comparison.current, composition, state.comparison)
    at = plan.start if plan.origin is None else plan.origin
    return DryRun(args, state.seq, plan, comparison, edit_line=text.count("\n", 0, at))


StatusKind = Literal["hint", "flag"]


@dataclass(frozen=True)
class Selection:
    """The entry the form was pre-filled from: its file, text and line (0-based; in a `§` store, its entry number
    from 0, as the file pane numbers a store's entries)."""

    filename: str
    text: str
    line: int


def dry_run_status(dry: DryRun, selected: Selection | None = None) -> tuple[StatusKind, str]:
    """The line under the form: what the dry run found, in words; ``flag`` when it needs attention."""

    outcome = dry.outcome
    if isinstance(outcome, EntryPlan):
        what = outcome.label.partition(" ")[2]  # "line 3", or "entry 2" of a '§' store
        if outcome.label.startswith("delete"):
            ending = ", its line ending too" if what.startswith("line") else " and the '§' line beside it"
            return "flag", f"dry run: deletes {what} of {outcome.name}{ending}; enter deletes it, esc keeps it"
        if not outcome.changes:
            return "hint", f"{what} of {outcome.name} already reads so; type its new text"
        return "hint", f"dry run: edits {what} of {outcome.name} in place; enter applies it"
    if isinstance(outcome, Rejection):
        typed = str(dry.args.get("text", "")).strip()
        said = outcome.message + (f"; {outcome.near}" if outcome.near else "")  # the CLI's words: the core's
        return ("flag", said) if typed or dry.blocked else ("hint", "type the text; enter applies it")
    request = outcome.request
    if dry.edit_line is not None:
        where = f"line {dry.edit_line + 1} of {request.filename}"
    else:  # only the start of a large file is read: lines past it are not counted, so none is named
        where = f"the end of {request.filename} (line not counted: only its start is read)"
    if outcome.entry is not None:  # a '§' store: a replace or remove acts on the whole entry holding the text
        return whole_entry_status(outcome, where, selected)
    if request.action == "replace" and not request.replacement:
        return "flag", f"dry run: deletes “{request.text}” (with is empty), {where}; enter asks to confirm"
    if (
        selected is not None
        and request.action != "add"
        and (selected.filename, selected.text) == (request.filename, request.text)
        and dry.edit_line is not None
        and dry.edit_line != selected.line
    ):
        return (
            "flag",
            f"the first match is on line {dry.edit_line + 1}, not the selected line {selected.line + 1}: "
            "the tool changes the first one",
        )
    if (
        request.action == "remove"
        and selected is not None
        and (selected.filename, selected.text, selected.line) == (request.filename, request.text, dry.edit_line)
    ):  # the tool removes text, not lines: the whole entry's text leaves its bullet behind
        return (
            "flag",
            f"dry run: removes the text of {where} and leaves an empty “- ” there; esc, then d deletes the whole entry",
        )
    verb = {"add": "appends at", "replace": "replaces the first match, on", "remove": "removes the first match, on"}[
        request.action
    ]
    loads = outcome.outcome or "loads next session"
    return ("flag" if loads.startswith("will not load") else "hint"), f"dry run: {verb} {where}; {loads}"


def whole_entry_status(edit: Edit, where: str, selected: Selection | None) -> tuple[StatusKind, str]:
    """The dry run of a replace or remove in a ``§`` store, which acts on the whole entry holding the text: that
    entry, shown whole (to 120 characters), and where it begins in the store's own lines."""
    from notebook_app.core.memory.sections import shown_entry  # lazy: the write path

    request = edit.request
    entry = edit.entry or ""
    typed = shown_entry(request.text)  # a line break in it said ⏎, as the entry's are: a raw one breaks the line
    if selected is not None and selected.filename == request.filename and selected.text != entry:
        # a store's selection is a whole entry (its number, not a line): Hermes keeps no repeats, so its text names it
        return (
            "flag",
            f"the entry that holds “{typed}” is not the selected one: it begins on {where}, and the tool "
            "changes that whole entry",
        )
    loads = edit.outcome or "loads next session"
    shown = shown_entry(entry)
    if request.action == "remove":
        kind: StatusKind = "hint" if entry == request.text.strip() else "flag"
        return kind, f"dry run: removes the whole entry that holds “{typed}”, {where}: {shown}; {loads}"
    new = shown_entry((request.replacement or "").strip())
    said = f"dry run: replaces the whole entry that holds “{typed}”, {where} ({shown}) with: {new}"
    return "hint", f"{said}; {loads}"
