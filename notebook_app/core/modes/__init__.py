"""How a server's memory tool runs on a home: review (proposals a person approves), guard (the
doctor's rules on every agent write), and the per-home settings that choose between them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_face

if TYPE_CHECKING:
    from .git_mode import GitStatus, git_off, git_on, git_status, other_repository, to_ignore
    from .guard import GuardedMemoryTool
    from .review import (
        Decision,
        Outcome,
        Proposal,
        ProposalStatus,
        ReviewError,
        approve,
        approve_all,
        holds_secret,
        pending,
        pending_count,
        reject,
        reject_all,
        secret_words,
    )
    from .review_batch import Batch, preview_batch, session_batches
    from .review_preview import ProposalPreview, preview_proposal, preview_proposals
    from .review_tool import reviewed_tool_class
    from .settings import load_settings, mode_in_force, set_review

_HOME_OF: dict[str, str] = {
    "GitStatus": "git_mode",
    "git_off": "git_mode",
    "git_on": "git_mode",
    "git_status": "git_mode",
    "other_repository": "git_mode",
    "to_ignore": "git_mode",
    "GuardedMemoryTool": "guard",
    "Decision": "review",
    "Outcome": "review",
    "Proposal": "review",
    "ProposalStatus": "review",
    "ReviewError": "review",
    "approve": "review",
    "approve_all": "review",
    "holds_secret": "review",
    "pending": "review",
    "pending_count": "review",
    "reject": "review",
    "reject_all": "review",
    "reviewed_tool_class": "review_tool",
    "secret_words": "review",
    "Batch": "review_batch",
    "preview_batch": "review_batch",
    "session_batches": "review_batch",
    "ProposalPreview": "review_preview",
    "preview_proposal": "review_preview",
    "preview_proposals": "review_preview",
    "load_settings": "settings",
    "mode_in_force": "settings",
    "set_review": "settings",
}
"""Each exported name -> the module that defines it; it loads on the name's first use."""

lazy_face(__name__, _HOME_OF)

__all__ = [
    "Batch",
    "Decision",
    "GitStatus",
    "GuardedMemoryTool",
    "Outcome",
    "Proposal",
    "ProposalPreview",
    "ProposalStatus",
    "ReviewError",
    "approve",
    "approve_all",
    "git_off",
    "git_on",
    "git_status",
    "other_repository",
    "holds_secret",
    "load_settings",
    "mode_in_force",
    "pending",
    "pending_count",
    "preview_batch",
    "preview_proposal",
    "preview_proposals",
    "reject",
    "reject_all",
    "reviewed_tool_class",
    "secret_words",
    "session_batches",
    "set_review",
    "to_ignore",
]
