"""Is an agent session still connected? Its server holds a lock on its session file while it runs.

The MCP server takes a shared ``flock`` on its session file for as long as
its process lives (the kernel drops it when the process ends, however it
ends). A viewer probes with a non-blocking exclusive lock it releases at
once: refused means some server still holds the session file. Probing
opens it read-only and writes nothing.
"""

from __future__ import annotations

import fcntl
import os
import stat
from pathlib import Path


def hold(session_file: Path) -> int | None:
    """Hold ``session_file`` as "connected" until this process ends; the descriptor, or None if it cannot."""
    try:
        fd = os.open(session_file, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def is_live(session_file: Path) -> bool:
    """Whether a running server holds ``session_file``; never blocks, never writes."""
    try:
        fd = os.open(session_file, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    except OSError:
        return False
    finally:
        os.close(fd)
