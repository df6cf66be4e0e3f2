"""Write exactly a plan: each planned file's text, under the target's lock, never over a file changed since.

The target's folders are made (the home, Claude Code's memory folder, the subfolders the plan names), then each
is locked as every writer of the core locks a home (``flock`` on the folder, ``core/fs``), in the plan's order,
then a Hermes home's stores with Hermes's own lock (``MEMORY.md.lock``) where its ``memories/`` is there.
Under the locks every planned file is checked against what the plan found there: nothing (it must still be
absent) or the bytes whose digest the plan kept. One that changed refuses the whole write before any file is
written. Each file is then written atomically (a temp file renamed over it), so a reader never sees half of one.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

from ..core import FileStatus, read_file
from ..core.fs import flocked_directory, remove_temps, write_atomically
from ..core.home import hermes_files
from ..core.store import host_lock
from .model import Applied, Host, Place, Plan, Problem, digest
from .reading import READ_LIMIT

TEMP_PREFIX = ".persona-move-"
"""The prefix of a move's temp files; one a killed move left is removed under the lock by the next."""


def apply_plan(plan: Plan) -> Applied | Problem:
    """Write ``plan``'s files; a refused plan (a secret) or a file changed since the plan writes nothing."""
    if (refusal := plan.refusal) is not None:
        return Problem(refusal, usage=False)
    try:
        return _apply(plan)
    except OSError as why:
        return Problem(f"the move could not be written: {why.strerror or why} ({why.filename}); see what is there")


def _apply(plan: Plan) -> Applied | Problem:
    folders = [plan.places[place] for place in (Place.HOME, Place.MEMORY) if place in plan.places]
    for folder in folders:
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            return Problem(f"{folder} is no longer a folder; nothing written", usage=False)
        folder.mkdir(parents=True, exist_ok=True)
    with ExitStack() as locks:
        for folder in folders:
            locks.enter_context(flocked_directory(folder))
            remove_temps(folder, TEMP_PREFIX)
        if plan.host is Host.HERMES:  # then Hermes's own lock on a store that is there, as every write of ours does
            stores = plan.places[Place.HOME] / "memories"
            for name in ("MEMORY.md", "USER.md"):
                locks.enter_context(
                    host_lock(hermes_files(), name, lambda _: stores, lambda _: stores.is_dir(), make=False)
                )
        for file in plan.files:
            if (changed := _changed(plan.path_of(file), file.before)) is not None:
                return Problem(changed, usage=False)
        if plan.host is Host.HERMES:
            (plan.places[Place.HOME] / "memories").mkdir(exist_ok=True)
        written: list[Path] = []
        for file in plan.files:
            path = plan.path_of(file)
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path.parent, path.name, file.text.encode("utf-8"), temp_prefix=TEMP_PREFIX)
            written.append(path)
    return Applied(tuple(written))


def _changed(path: Path, before: str | None) -> str | None:
    """Why ``path`` is not what the plan found, in words; None when it is."""
    found = read_file(path, limit=READ_LIMIT)
    if found.status is FileStatus.ABSENT:
        return None if before is None else f"{path} was removed since the plan; nothing written: plan again"
    if before is None:
        return f"{path} appeared since the plan; nothing written: plan again"
    if found.status is not FileStatus.REGULAR or not found.complete or digest(found.data) != before:
        return f"{path} changed since the plan; nothing written: plan again"
    return None
