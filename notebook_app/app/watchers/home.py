"""Watch the home for other writers: an agent, the CLI, an editor.

The home DIRECTORY is watched, not single files: an atomic save replaces a
file and shows up as "added"; so is each subfolder of the home's file map
(a Hermes home's ``memories/``) that is there, and when one comes or goes
(Hermes makes ``memories/`` at its first write) the watch is set up again on
what is there now. Only bootstrap files count; the core's journal, temp files
and Hermes's ``.mem_*.tmp`` and ``*.lock`` never do. A change whose bytes hash to what the notebook last
read or wrote is its own write and is dropped, so it causes no second refresh.
Results reach the UI only as messages posted to the target.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import anyio
from textual.message import Message
from textual.message_pump import MessagePump

from notebook_app.app.view_model.live_files import READ_LIMIT, fingerprint
from notebook_app.app.watchers.folder import AWATCH_SETTINGS, MISSING_POLL_SECONDS, FolderWatcher, awatch
from notebook_app.core.home.files import FileStatus, read_file
from notebook_app.core.home.layout import FLAT, FileMap, on_demand_files
from notebook_app.core.home.reading import is_scratch_file
from notebook_app.core.home.soul import BOOTSTRAP_ORDER

if TYPE_CHECKING:
    from watchfiles import Change


def current_digest(path: Path) -> str | None:
    """The fingerprint the notebook keeps of ``path``, read the bounded way (None: absent)."""
    read = read_file(path, limit=READ_LIMIT)
    return None if read.status is FileStatus.ABSENT else fingerprint(read)


class HomeWatcher(FolderWatcher):
    """Posts :class:`Changed`, :class:`HomeMissing` and :class:`HomeBack` to ``target``."""

    what = "the home"

    @dataclass
    class Changed(Message):
        """Bootstrap files changed on disk, by someone other than this notebook."""

        names: frozenset[str]

    class HomeMissing(Message):
        """The home directory itself is gone."""

    class HomeBack(Message):
        """The home directory exists again."""

    def __init__(
        self,
        home: Path,
        target: MessagePump,
        known_digest: Callable[[str], str | None],
        files: FileMap = FLAT,
    ) -> None:
        super().__init__(target)
        self.home = home
        self.known_digest = known_digest
        self.files = files
        """Where the home's files are: a Hermes home's entry files are watched in ``memories/`` too."""

    def _relevant(self, change: Change, path: str) -> bool:
        """A file of the map where it puts it, one read on demand, or one of the map's subfolders coming or going;
        never Hermes's ``.mem_*.tmp`` or ``*.lock`` beside a file."""
        if Path(path) == self.home or self._is_subfolder(path):
            return True
        return not is_scratch_file(Path(path).name) and self.files.name_at(self.home, Path(path)) is not None

    def _is_subfolder(self, path: str) -> bool:
        """``path`` is one of the file map's subfolders (a Hermes home's ``memories/``)."""
        return Path(path).parent == self.home and Path(path).name in self.files.subfolders

    def unexpected(self, names: Iterable[str]) -> frozenset[str]:
        """The files whose bytes differ from what the notebook last saw."""
        return frozenset(
            name for name in names if current_digest(self.files.path(self.home, name)) != self.known_digest(name)
        )

    def every_file(self) -> set[str]:
        """Every file the notebook shows: the host's, the contract's, and those read on demand there now (a daily
        note written between the first read and the watch being set up is one of them)."""
        return {*BOOTSTRAP_ORDER, *self.files.order, *on_demand_files(self.home, self.files)[0]}

    def _folders(self) -> list[Path]:
        """The home, and each subfolder of its file map that is there now."""
        return [self.home, *(p for p in (self.home / f for f in self.files.subfolders) if p.is_dir())]

    async def run(self) -> None:
        """Watch until stopped; survive the home vanishing and coming back."""

        while not self._stop.is_set():
            if not self.home.is_dir():
                self.target.post_message(self.HomeMissing())
                while not self.home.is_dir():
                    with anyio.move_on_after(MISSING_POLL_SECONDS):
                        await self._stop.wait()
                    if self._stop.is_set():
                        return
                self.target.post_message(self.HomeBack())
            first = True
            armed = self._folders()
            try:
                async for changes in awatch(
                    *armed,
                    watch_filter=self._relevant,
                    stop_event=self._stop,
                    yield_on_timeout=True,
                    **AWATCH_SETTINGS,
                ):
                    names = {n for _, path in changes if (n := self.files.name_at(self.home, Path(path))) is not None}
                    if first:  # the watch is set up now: a write made after the last read and before it went unseen
                        first, names = False, await asyncio.to_thread(self.every_file)
                    if names:
                        changed = await asyncio.to_thread(self.unexpected, names)
                        if changed:
                            self.target.post_message(self.Changed(changed))
                    if not self.home.is_dir():
                        break
                    if any(self._is_subfolder(path) for _, path in changes) and self._folders() != armed:
                        break  # memories/ came (Hermes makes it at its first write) or went: watch what is there now
            except FileNotFoundError:
                continue  # a subfolder went between listing and watching it: list again
