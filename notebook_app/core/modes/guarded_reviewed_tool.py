"""The memory tool in review and guard mode at once: the guard refuses first, what it lets through is queued."""

from __future__ import annotations

from notebook_app.core.memory.tool import DESCRIPTION
from notebook_app.core.guard.tool import GUARD_SENTENCE, GuardedMemoryTool
from notebook_app.core.memory.review.decisions import REVIEW_SENTENCE, ReviewedMemoryTool


class GuardedReviewedMemoryTool(GuardedMemoryTool, ReviewedMemoryTool):
    description = f"{DESCRIPTION} {GUARD_SENTENCE} {REVIEW_SENTENCE}"
