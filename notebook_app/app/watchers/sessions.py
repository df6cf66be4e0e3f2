"""Watch a home's agent-session files: new sessions and growing old-format call files.

The home watcher (:mod:`.home`) looks at bootstrap files only and never
into dot folders. Records live in ``.notebook/sessions``, which the first
agent session creates, perhaps while the notebook is open; so this watcher
follows the chain home → ``.notebook`` → ``sessions``, watching each level
that exists, and re-plans whenever one of those folders comes or goes (seen
as an event, or at the latest on the next one-second timeout, for a folder
made before its parent's watch began).
Every (re)start posts a :class:`Changed` too, covering whatever happened
while nothing was watched. It only says *that* something changed: readers
re-read in workers. Results reach the UI only as messages to the target.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import anyio
from textual.message_pump import MessagePump

from notebook_app.app.watchers.folder import (
    AWATCH_SETTINGS,
    MISSING_POLL_SECONDS,
    FolderWatcher,
    SessionsChanged,
    awatch,
)
from notebook_app.core.fs.state_dir import STATE_DIR
from notebook_app.core.record.log.store import LOG_PATH
from notebook_app.core.sessions.agents import OLD_CALLS_SUFFIX, SESSION_FILE_SUFFIX, sessions_path

if TYPE_CHECKING:
    from watchfiles import Change


class SessionsWatcher(FolderWatcher):
    """Posts :class:`Changed` to ``target`` when session files or old-format call files change."""

    what = "agent sessions"

    Changed = SessionsChanged

    def __init__(self, home: Path, target: MessagePump) -> None:
        super().__init__(target)
        self.home = home
        self.state_dir = home / STATE_DIR
        self.folder = sessions_path(home)
        self.log = home / LOG_PATH

    def _structural(self, path: Path) -> bool:
        """A folder of the chain: when it comes or goes, what to watch changes."""
        return path in (self.home, self.state_dir, self.folder)

    def _relevant(self, change: Change, path: str) -> bool:
        found = Path(path)
        if self._structural(found):
            return True
        if found == self.log:
            return True  # a session's calls are events of the home's log (a failed call changes no file)
        name = found.name
        is_session_file = name.endswith((SESSION_FILE_SUFFIX, OLD_CALLS_SUFFIX)) and not name.startswith(".")
        return found.parent == self.folder and is_session_file

    def _existing(self) -> list[Path]:
        return [path for path in (self.home, self.state_dir, self.folder) if path.is_dir()]

    async def run(self) -> None:
        """Watch until stopped; survive any folder of the chain vanishing and coming back."""

        while not self._stop.is_set():
            watched = await anyio.to_thread.run_sync(self._existing)
            if not watched:
                with anyio.move_on_after(MISSING_POLL_SECONDS):
                    await self._stop.wait()
                continue
            self.target.post_message(self.Changed())
            async for changes in awatch(
                *watched,
                watch_filter=self._relevant,
                stop_event=self._stop,
                yield_on_timeout=True,
                **AWATCH_SETTINGS,
            ):
                if any(self._structural(Path(path)) for _, path in changes):
                    break
                if changes:
                    self.target.post_message(self.Changed())
                elif await anyio.to_thread.run_sync(self._existing) != watched:
                    break
