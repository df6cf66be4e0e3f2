"""Write exactly a plan: each planned file's text, never over a file changed since, all of a place or none.

A move that is no merge finds each of its folders absent or empty (the plan allows nothing else): every file of
a place is written in a staging folder beside it and the staging folder renamed onto it (:mod:`.staging`), so a
killed move leaves the place as it was or whole. Claude Code's two places are two renames, the auto-memory folder
first and the project (DEST) last: DEST written means the whole move was.

A merge adds to a home that is there, file by file: its folders are locked as every writer of the core locks a
home (``flock`` on the folder, ``core/fs``), in the plan's order, then a Hermes home's stores with Hermes's own
lock (``MEMORY.md.lock``) where its ``memories/`` is there, and each file written atomically (a temp file renamed
over it), so a reader never sees half of one; a merge killed midway leaves some files written and others not. A
file that holds the planned text already is not written at all.

Either way every planned file is first checked against what the plan found there: nothing (it must still be
absent) or the bytes whose digest the plan kept. One that changed refuses the whole write before any is written.
"""

from __future__ import annotations

import os
import stat
from contextlib import ExitStack
from pathlib import Path

from notebook_app.core.fs.atomic import flocked_directory, remove_temps, write_atomically
from notebook_app.core.home.files import FileStatus, read_file
from notebook_app.core.hostbase.export import Place
from notebook_app.core.record.places import host_lock
from notebook_app.portable.layouts import ENTRY_FILES
from notebook_app.portable.model import Applied, Plan, Problem, digest
from notebook_app.portable.reading import READ_LIMIT, folder_problem
from notebook_app.portable.staging import publish, remove_stale, staged, sync_tree

_EFFECTIVE = os.access in os.supports_effective_ids
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
        remove_stale(folder)
    return _merge(plan, folders) if plan.merge else _whole(plan)


def _whole(plan: Plan) -> Applied | Problem:
    """Each place written in a staging folder, then renamed onto it: the auto-memory folder first, DEST last."""
    for file in plan.files:
        if (changed := _changed(plan.path_of(file), file.before)) is not None:
            return Problem(changed, usage=False)
    order = [place for place in (Place.MEMORY, Place.HOME) if place in plan.places]
    with ExitStack() as stagings:
        staging = {place: stagings.enter_context(staged(plan.places[place])) for place in order}
        if stores := plan.host.export.stores:
            (staging[Place.HOME] / stores).mkdir()
        for file in plan.files:
            path = staging[file.place] / file.path
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path.parent, path.name, file.text.encode("utf-8"), temp_prefix=TEMP_PREFIX)
        for place in order:
            sync_tree(staging[place])
        moves = [(_what(place), staging[place], plan.places[place]) for place in order]
        if (refused := publish(moves)) is not None:
            return Problem(refused, usage=False)
    return Applied(tuple(plan.path_of(file) for file in plan.files))


def _what(place: Place) -> str:
    return "the auto-memory folder" if place is Place.MEMORY else "DEST"


def _merge(plan: Plan, folders: list[Path]) -> Applied | Problem:
    """Each file written atomically where it goes, under the home's locks (and Hermes's own)."""
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
    with ExitStack() as locks:
        for folder in folders:
            locks.enter_context(flocked_directory(folder))
            remove_temps(folder, TEMP_PREFIX)
        mapped = plan.host.file_map()
        if (store_folder := plan.host.export.stores) and mapped is not None:
            # then the host's own lock on a store that is there (Hermes's), as every write of ours does
            stores = plan.places[Place.HOME] / store_folder
            for name in (name for name in ENTRY_FILES if name in plan.host.locked_stores):
                locks.enter_context(host_lock(mapped, name, lambda _: stores, lambda _: stores.is_dir(), make=False))
        for file in plan.files:
            path = plan.path_of(file)
            why = folder_problem(plan.places[file.place], file.path) or _changed(path, file.before)
            if why is None and file.before is not None and not os.access(path, os.W_OK, effective_ids=_EFFECTIVE):
                why = f"{path} cannot be written (its mode refuses it: Permission denied); nothing written"
            if why is not None:
                return Problem(why, usage=False)
        if store_folder:
            (plan.places[Place.HOME] / store_folder).mkdir(exist_ok=True)
        written: list[Path] = []
        for file in plan.files:
            if file.unchanged:
                continue  # its bytes are there already: rewriting them would only change its inode and time
            path = plan.path_of(file)
            path.parent.mkdir(parents=True, exist_ok=True)
            mode = stat.S_IMODE(path.lstat().st_mode) if file.before is not None else 0o644  # as the core keeps it
            data = file.text.encode("utf-8")
            write_atomically(path.parent, path.name, data, mode=mode, temp_prefix=TEMP_PREFIX)
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
