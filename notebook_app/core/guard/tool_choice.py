"""The review tool a server runs, with the guard or without: the guard refuses first, the rest is queued.

The tool of both modes is a class of its own module, loaded only when both are
asked for, so that review alone never loads the guard (the doctor's rules).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from notebook_app.core.guard.reviewed_tool import (
    GuardedReviewedMemoryTool,  # the doctor's rules load only in guard mode
)
from notebook_app.core.memory.review.decisions import ReviewedMemoryTool

if TYPE_CHECKING:
    from notebook_app.core.memory.tool import MemoryTool


def reviewed_tool_class(*, guard: bool) -> type[MemoryTool]:
    """The review tool; with the guard too, the guard refuses first and what it lets through is queued."""
    if not guard:
        return ReviewedMemoryTool

    return GuardedReviewedMemoryTool
