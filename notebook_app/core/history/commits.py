"""Each write's git commit, for the history view (issue 26): read from the commit messages, which name the write.

With git on, each recorded write's commit message ends with its event id
(``add MEMORY.md (w-1m94mhf0waa9m)``; a group's body names each of its
writes), so ``git log`` gives the mapping back; the reading lives with the
rest of git's reading, :mod:`..store.git_history`. Run it in a worker: it
runs one ``git log``, and none when git is off and the home has no ``.git``.
"""

from __future__ import annotations

import os

from notebook_app.core.home.soul import home_path
from notebook_app.core.record.git.history import commits_of_writes as _commits_of_writes


def commits_of_writes(home: str | os.PathLike[str]) -> dict[str, str]:
    """Each write's event id → its commit's short id (``git log``'s ``%h``); empty when git knows of none."""
    return _commits_of_writes(home_path(home))
