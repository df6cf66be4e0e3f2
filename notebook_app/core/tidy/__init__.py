"""Tidy (issue 23): one reviewed proposal to consolidate a home's memory, never a silent rewrite.

The proposal, from reads alone: duplicates, rewordings, superseded facts,
files over their host's cap, empty lines; what is not an entry is reported,
never proposed. Applying chosen hunks (:func:`apply_tidy`): recomputed under
the home's lock, live ids only, the archive first, then the sources, as one
recorded, undoable write. :func:`tidy_prompt` words the same rules for an
agent, whose calls a review-mode server queues.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_face

if TYPE_CHECKING:
    from .apply import Refused, TidyResult, apply_tidy, tidied_texts
    from .budget import Budget, budget_for
    from .model import (
        ARCHIVES,
        DEFAULT_TARGET,
        SCHEMA,
        Entry,
        Hunk,
        Kind,
        Proposal,
        Stray,
        Untidied,
        archive_for,
        to_json,
    )
    from .near import STOP_WORDS, THRESHOLD, naive_pairs, near_pairs, words
    from .prompt import PROMPT_DESCRIPTION, PROMPT_NAME, PROMPT_TITLE, Suggestion, TidyPrompt, tidy_prompt
    from .propose import tidy

_HOME_OF: dict[str, str] = {
    "Refused": "apply",
    "TidyResult": "apply",
    "apply_tidy": "apply",
    "tidied_texts": "apply",
    "Budget": "budget",
    "budget_for": "budget",
    "ARCHIVES": "model",
    "DEFAULT_TARGET": "model",
    "Entry": "model",
    "Hunk": "model",
    "Kind": "model",
    "Proposal": "model",
    "Stray": "model",
    "Untidied": "model",
    "archive_for": "model",
    "SCHEMA": "model",
    "to_json": "model",
    "STOP_WORDS": "near",
    "THRESHOLD": "near",
    "naive_pairs": "near",
    "near_pairs": "near",
    "words": "near",
    "PROMPT_DESCRIPTION": "prompt",
    "PROMPT_NAME": "prompt",
    "PROMPT_TITLE": "prompt",
    "Suggestion": "prompt",
    "TidyPrompt": "prompt",
    "tidy_prompt": "prompt",
    "tidy": "propose",
}
"""Each exported name -> the module that defines it; it loads on the name's first use."""

lazy_face(__name__, _HOME_OF)

__all__ = [
    "ARCHIVES",
    "DEFAULT_TARGET",
    "PROMPT_DESCRIPTION",
    "PROMPT_NAME",
    "PROMPT_TITLE",
    "SCHEMA",
    "STOP_WORDS",
    "THRESHOLD",
    "Budget",
    "Entry",
    "Hunk",
    "Kind",
    "Proposal",
    "Refused",
    "Stray",
    "Suggestion",
    "TidyPrompt",
    "TidyResult",
    "Untidied",
    "apply_tidy",
    "tidied_texts",
    "archive_for",
    "budget_for",
    "naive_pairs",
    "near_pairs",
    "tidy",
    "tidy_prompt",
    "to_json",
    "words",
]
