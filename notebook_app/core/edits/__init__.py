"""A person's writes: entry plans, the guarded splice, whole-file hand edits, edits in an outside editor."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_face

if TYPE_CHECKING:
    from .copies import KeptCopy, edits_dir, keep_buffer, kept_copies, mark_told
    from .editor_copy import (
        CopyEditResult,
        CopyOutcome,
        EditorRunner,
        discard_copy,
        edit_with_editor,
        editor_command,
    )
    from .entry_plan import EntryPlan, plan_entry
    from .guarded_splice import Splice, delete_entry, edit_entry, splice
    from .hand_edit import (
        HandEditResult,
        TooLarge,
        hand_edit_refusal,
        keep_typing,
        read_for_edit,
        text_digest,
        write_file,
    )

_HOME_OF: dict[str, str] = {
    "CopyEditResult": "editor_copy",
    "CopyOutcome": "editor_copy",
    "EditorRunner": "editor_copy",
    "discard_copy": "editor_copy",
    "edit_with_editor": "editor_copy",
    "editor_command": "editor_copy",
    "edits_dir": "copies",
    "KeptCopy": "copies",
    "keep_buffer": "copies",
    "kept_copies": "copies",
    "mark_told": "copies",
    "EntryPlan": "entry_plan",
    "plan_entry": "entry_plan",
    "HandEditResult": "hand_edit",
    "TooLarge": "hand_edit",
    "hand_edit_refusal": "hand_edit",
    "keep_typing": "hand_edit",
    "read_for_edit": "hand_edit",
    "text_digest": "hand_edit",
    "write_file": "hand_edit",
    "Splice": "guarded_splice",
    "delete_entry": "guarded_splice",
    "edit_entry": "guarded_splice",
    "splice": "guarded_splice",
}
"""Each exported name -> the module that defines it; it loads on the name's first use."""

lazy_face(__name__, _HOME_OF)

__all__ = [
    "CopyEditResult",
    "CopyOutcome",
    "EditorRunner",
    "EntryPlan",
    "HandEditResult",
    "KeptCopy",
    "Splice",
    "TooLarge",
    "delete_entry",
    "discard_copy",
    "edit_entry",
    "edit_with_editor",
    "editor_command",
    "edits_dir",
    "hand_edit_refusal",
    "keep_buffer",
    "keep_typing",
    "kept_copies",
    "mark_told",
    "plan_entry",
    "read_for_edit",
    "splice",
    "text_digest",
    "write_file",
]
