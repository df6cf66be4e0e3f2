"""What a write did, as the memory tool and the guarded splice report it.

Plain result types, apart from the writes that make them: the app names them
from its first frame, and the write path loads only with the first write.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from notebook_app.core.memory.edits.guarded_splice import Splice


def for_people(output: str, unrecorded: str | None) -> str:
    """What a person is shown of a write: its output, then why
    it is not in the history when it is not (never the agent)."""
    return output if unrecorded is None else f"{output}; not recorded: {unrecorded}"


@dataclass(frozen=True)
class ToolResult:
    output: str
    is_error: bool = False
    refused_by: str | None = None
    """The doctor's rule that refused the call in guard mode; None otherwise."""
    near: str | None = field(default=None, compare=False)
    """A miss's near match, for a person (:func:`.plan.near_words`); never shown to the agent."""
    unrecorded: str | None = field(default=None, compare=False)
    """Why a write went unrecorded in the home's history (``.notebook`` unusable); never shown to the agent."""


@dataclass(frozen=True)
class SpliceResult:
    """What a human write did, worded like the tool's ``ToolResult``."""

    output: str
    is_error: bool = False
    applied: Splice | None = None
    """The change as written; None when nothing was written."""
    unrecorded: str | None = field(default=None, compare=False)
    """Why the write is not in the home's history (``.notebook`` unusable); None when it is."""
