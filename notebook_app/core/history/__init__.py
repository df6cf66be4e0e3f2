"""The history: reading it, looking after it (prune, redact), undo and restore, blame."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_face

if TYPE_CHECKING:
    from .admin import prune, redact
    from .commits import commits_of_writes
    from .origins import Origin, blame
    from .query import find, history, not_a_file, record_diff, record_json, undoable
    from .undo_group import undo
    from .undo_restore import HistoryResult, restore, who

_HOME_OF: dict[str, str] = {
    "prune": "admin",
    "redact": "admin",
    "commits_of_writes": "commits",
    "Origin": "origins",
    "blame": "origins",
    "find": "query",
    "history": "query",
    "not_a_file": "query",
    "record_diff": "query",
    "record_json": "query",
    "undoable": "query",
    "HistoryResult": "undo_restore",
    "restore": "undo_restore",
    "undo": "undo_group",
    "who": "undo_restore",
}
"""Each exported name -> the module that defines it; it loads on the name's first use."""

lazy_face(__name__, _HOME_OF)

__all__ = [
    "HistoryResult",
    "Origin",
    "blame",
    "commits_of_writes",
    "find",
    "history",
    "not_a_file",
    "prune",
    "record_diff",
    "record_json",
    "redact",
    "restore",
    "undo",
    "undoable",
    "who",
]
