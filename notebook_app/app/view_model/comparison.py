"""One soul against another, ready to show: the diff and both sides as documents. No Textual.

Every comparison view is this: the notebook's own session against Next
(:mod:`.notebook`), an agent's session against Next (:mod:`.agents`), a dry run
against the session (:mod:`.dry_run`), and any view still to come (a history
record against now). Documents of a side whose soul did not change are
reused, so a pane re-marks rows instead of wrapping them again.
"""

from __future__ import annotations

from dataclasses import dataclass

from notebook_app.app.view_model.documents import Document, lines_of, soul_document, split_reusing
from notebook_app.core.home.soul import Composition
from notebook_app.core.sessions.snapshot import SoulDiff, diff_compositions


@dataclass(frozen=True)
class Comparison:
    current: Composition
    """The frozen side: what a session was given."""
    upcoming: Composition
    """The other side: what a session starting now (or after an edit) would load."""
    diff: SoulDiff
    current_doc: Document
    next_doc: Document

    @property
    def in_sync(self) -> bool:
        return self.diff.in_sync


def compare(current: Composition, upcoming: Composition, previous: Comparison | None = None) -> Comparison:
    """The comparison of ``current`` with ``upcoming``, reusing what ``previous`` already built."""
    diff = diff_compositions(current, upcoming)
    same_current = previous is not None and (previous.current is current or previous.current.soul == current.soul)
    same_next = previous is not None and previous.upcoming.soul == upcoming.soul
    if same_current and previous is not None and previous.diff == diff:
        current_doc = previous.current_doc
    else:
        current_doc = soul_document(
            current, diff, "current", lines_of(previous.current_doc) if same_current and previous else None
        )
    if same_next and previous is not None and previous.diff == diff:
        next_doc = previous.next_doc
    else:
        lines = lines_of(previous.next_doc) if same_next and previous else None
        if lines is None and previous is not None and upcoming.soul:
            lines = split_reusing(
                previous.upcoming.soul, previous.next_doc, upcoming.soul
            )  # an edit: split only around it
        next_doc = soul_document(upcoming, diff, "next", lines)
    return Comparison(current, upcoming, diff, current_doc, next_doc)
