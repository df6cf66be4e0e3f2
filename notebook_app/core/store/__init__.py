"""The write path: the locked home, writes and their records, the ``.memory.journal`` slots, recovery.

Every write of the core goes through :mod:`.storage` here; nothing of it loads before the first write.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ..lazy import lazy_face

if TYPE_CHECKING:
    from .git_commit import git_setting, take_notes
    from .git_history import (
        SCAN_COMMITS,
        GitHolding,
        blob_contents,
        commits_holding,
        commits_of_writes,
        head_commit,
        home_blobs,
        scanned_repo,
    )
    from .group import FileWrite, reserve_ids, write_group
    from .journal import read_slots
    from .places import host_lock
    from .recording import Change, Recorder
    from .recovery import recover
    from .side_events import append_event, record_failed, record_session_start
    from .storage import LockedHome, StorageError, locked_home

_HOME_OF: dict[str, str] = {
    "git_setting": "git_commit",
    "take_notes": "git_commit",
    "SCAN_COMMITS": "git_history",
    "GitHolding": "git_history",
    "blob_contents": "git_history",
    "commits_holding": "git_history",
    "commits_of_writes": "git_history",
    "head_commit": "git_history",
    "home_blobs": "git_history",
    "scanned_repo": "git_history",
    "FileWrite": "group",
    "reserve_ids": "group",
    "write_group": "group",
    "read_slots": "journal",
    "host_lock": "places",
    "Change": "recording",
    "Recorder": "recording",
    "recover": "recovery",
    "append_event": "side_events",
    "record_failed": "side_events",
    "record_session_start": "side_events",
    "LockedHome": "storage",
    "StorageError": "storage",
    "locked_home": "storage",
}
"""Each exported name -> the module that defines it; it loads on the name's first use."""

lazy_face(__name__, _HOME_OF)


def git_notes() -> list[str]:
    """What this thread's failed git commits said (:func:`.git_commit.take_notes`), each taken once.

    The one place the shells ask (the CLI prints each, the app shows each as a notice). Asked only of a
    :mod:`.git_commit` already loaded, since only a write loads it: asking loads nothing of the write path.
    """
    module = sys.modules.get(f"{__name__}.git_commit")
    return module.take_notes() if module is not None else []


__all__ = [
    "SCAN_COMMITS",
    "Change",
    "FileWrite",
    "GitHolding",
    "LockedHome",
    "Recorder",
    "StorageError",
    "append_event",
    "blob_contents",
    "commits_holding",
    "commits_of_writes",
    "git_notes",
    "git_setting",
    "head_commit",
    "home_blobs",
    "host_lock",
    "locked_home",
    "read_slots",
    "record_failed",
    "record_session_start",
    "recover",
    "reserve_ids",
    "scanned_repo",
    "take_notes",
    "write_group",
]
