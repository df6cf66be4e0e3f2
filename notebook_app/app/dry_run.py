"""The dry run: what a pending action would do, shown as the next session it leads to. No Textual.

The core plans it (``preview_file`` for the agent's tool, ``plan_entry`` for
the notebook's entry edits) exactly as the write will, so what is shown and
what is written cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..core import (
    Composition,
    Edit,
    EntryPlan,
    Rejection,
    SoulDiff,
    diff_compositions,
    edit_refusal,
    parse_request,
    plan_entry,
    preview_file,
)
from ..core.files import FileRead, FileStatus
from ..core.hidden import has_hidden
from ..core.refusals import text_of
from .documents import Document, lines_of, soul_document
from .model import ENTRY_ACTIONS, HomeState

@dataclass(frozen=True)
class DryRun:
    """A pending action's effect, before it is applied."""

    args: Mapping[str, object]
    seq: int
    """The :class:`HomeState` it was computed against."""
    outcome: Edit | EntryPlan | Rejection
    diff: SoulDiff | None = None
    current_doc: Document | None = None
    next_doc: Document | None = None
    edit_line: int | None = None
    """The target file's line where the edit starts."""


def dry_run(state: HomeState, args: Mapping[str, object]) -> DryRun:
    """What ``args`` would do, shown as the next session it would lead to.

    The core's ``preview_file`` checks the target as the tool will (a link, a
    FIFO, bytes that are not UTF-8 are refused in the tool's words) and says
    whether the edit loads next session; the soul after it is built from that
    same edit.
    """
    if args.get("action") in ENTRY_ACTIONS:
        return entry_dry_run(state, args)
    request = parse_request(dict(args))
    if isinstance(request, Rejection):
        return DryRun(args, state.seq, request)
    live = state.files.get(request.filename)
    read = live.read if live is not None else FileRead(request.filename, FileStatus.ABSENT)
    outcome = preview_file(dict(args), read)
    if isinstance(outcome, Rejection):
        return DryRun(args, state.seq, outcome)
    before = text_of(read) or ""
    composition = state.preview.composition.with_text(outcome.request.filename, outcome.apply(before))
    diff = diff_compositions(state.current.composition, composition)
    edit_line = before.count("\n", 0, outcome.start)
    return DryRun(
        args,
        state.seq,
        outcome,
        diff=diff,
        current_doc=soul_document(state.current.composition, diff, "current", lines_of(state.current_doc)),
        next_doc=soul_document(composition, diff, "next", edited_soul_lines(state, composition, outcome.request.filename, edit_line)),
        edit_line=edit_line,
    )


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
    plan = plan_entry(before, name, line, str(args["expect"]), new_text)
    if isinstance(plan, Rejection):
        return DryRun(args, state.seq, plan)
    text = before or ""
    composition = state.preview.composition.with_text(name, plan.apply(text))
    diff = diff_compositions(state.current.composition, composition)
    return DryRun(
        args,
        state.seq,
        plan,
        diff=diff,
        current_doc=soul_document(state.current.composition, diff, "current", lines_of(state.current_doc)),
        next_doc=soul_document(composition, diff, "next"),
        edit_line=line - 1,
    )


def edited_soul_lines(
    state: HomeState, composition: Composition, filename: str, edit_line: int
) -> tuple[list[str], None] | None:
    """The lines of ``composition``'s soul, split anew only from the edited line on.

    A keystroke in the form must not re-scan and re-split a 2 MiB soul: the
    lines before the edit are the preview's. Which line that is comes from
    the core's layout of the soul (its sections); the shared prefix is then
    checked character for character, and None (split it all) is returned
    when it does not hold, or when hidden characters need the source kept.
    """
    if state.next_doc.source is not None:
        return None
    old_lines, old_soul, new_soul = state.next_doc.lines, state.preview.soul, composition.soul
    section = state.preview.composition.section(filename)
    if section is None:
        return None
    keep = min(section.first_body_line + edit_line, len(old_lines) - 1)
    if keep <= 0:
        return None
    chars = sum(map(len, old_lines[:keep])) + keep
    if old_soul[:chars] != new_soul[:chars]:
        return None
    rest = new_soul[chars:]
    if has_hidden(rest):
        return None
    return [*old_lines[:keep], *rest.split("\n")], None
