"""What failed git commits said, asked only of a write path already loaded."""

from __future__ import annotations

import sys


def git_notes() -> list[str]:
    """What this thread's failed git commits said (git_commit.take_notes), each taken once.

    The one place the shells ask (the CLI prints each, the app shows each as a notice). Asked only of a
    git_commit module already loaded, since only a write loads it: asking loads nothing of the write path.
    """
    module = sys.modules.get("notebook_app.core.record.git.commit")
    return module.take_notes() if module is not None else []
