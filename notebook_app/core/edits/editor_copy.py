"""Editing a bootstrap file in an outside editor: a copy kept outside the home, saved back with the guard.

``$EDITOR`` writes wherever it likes and whenever it likes, so it never gets
the home's file: it gets a copy in a folder of the user's state directory,
with the base (the text the copy started as) kept beside it. When the editor
returns, the copy goes back through :func:`.hand_edit.write_file`, guarded by
that base. Whatever happens after the editor ran, the person's text is never
lost: the copy is removed only once it is written (or there was nothing to
write); otherwise it stays and its path is given. How the editor runs is the
caller's (the CLI starts a process, the app suspends first, tests pass a
function): this module runs nothing itself.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from notebook_app.core.memory.edits.copies import make_copy
from notebook_app.core.memory.edits.hand_edit import HandEditResult, hand_edit_refusal, read_for_edit, text_digest, write_file
from notebook_app.core.fs.home_pin import moved
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.soul import home_path
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.places import read_only_refusal

EditorRunner = Callable[[Path], int]
"""Runs an editor on the copy's path and waits; returns its exit status (0: saved and quit)."""


class CopyOutcome(Enum):
    WRITTEN = "written"
    """The edit (merged or not) is in the file; the copy was removed."""
    UNCHANGED = "unchanged"
    """Nothing to write (no change, or the change was already there); the copy was removed."""
    CONFLICT = "conflict"
    """The file changed since and the edit conflicts with it: the file was kept, the copy is kept."""
    REFUSED = "refused"
    """The file cannot be edited, the editor failed or the write was refused: the copy (if any) is kept."""


@dataclass(frozen=True)
class CopyEditResult:
    """What an outside-editor session did; ``kept`` is where the person's text is when it was not written."""

    output: str
    outcome: CopyOutcome
    kept: Path | None = None
    """The editing copy, left in place (its base beside it as ``NAME.base``); None once removed."""
    edit: HandEditResult | None = None
    """The guarded write's result, when the copy was saved back."""

    @property
    def is_error(self) -> bool:
        return self.outcome in (CopyOutcome.CONFLICT, CopyOutcome.REFUSED)


def editor_command(environ: Mapping[str, str]) -> list[str] | None:
    """``$VISUAL``, else ``$EDITOR``, split as a shell would split it; None when neither is set.

    One rule for the CLI and the app: both start the same editor.
    """
    for variable in ("VISUAL", "EDITOR"):
        value = environ.get(variable, "").strip()
        if value:
            return shlex.split(value)
    return None


def edit_with_editor(
    home: str | os.PathLike[str],
    name: str,
    run_editor: EditorRunner,
    *,
    edits_dir: Path,
    by: Actor,
    files: FileMap = FLAT,
) -> CopyEditResult:
    """Copy ``name`` to a fresh folder under ``edits_dir``, run the editor on it, and write it back, guarded.

    A file the home's host keeps read-only (``files``) is refused before the editor runs."""
    refused = read_only_refusal(files, name) or hand_edit_refusal(files, name, opening=True)
    if refused is not None:
        return CopyEditResult(refused, CopyOutcome.REFUSED)
    root = home_path(home)
    if not root.is_dir():
        return CopyEditResult(moved(root) or f"no such home: {root}; nothing was changed", CopyOutcome.REFUSED)
    base = read_for_edit(root, name, files=files)
    if not isinstance(base, str):
        return CopyEditResult(base.message, CopyOutcome.REFUSED)
    try:
        copy = make_copy(edits_dir, name, base)
    except OSError as error:
        return CopyEditResult(
            f"could not make an editing copy in {edits_dir} ({error.strerror or error}); nothing was changed",
            CopyOutcome.REFUSED,
        )
    status = run_editor(copy)
    if status != 0:
        if _unchanged(copy, base):  # an editor that failed to start left nothing worth keeping: copies do not pile up
            discard_copy(copy)
            return CopyEditResult(
                f"the editor exited with status {status}; nothing was written (the copy was unchanged)",
                CopyOutcome.REFUSED,
            )
        return CopyEditResult(
            f"the editor exited with status {status}; nothing was written, your copy is kept at {copy}",
            CopyOutcome.REFUSED,
            copy,
        )
    try:
        new_text = copy.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return CopyEditResult(
            f"could not read the edited copy ({error}); nothing was written, it is kept at {copy}",
            CopyOutcome.REFUSED,
            copy,
        )
    result = write_file(root, name, new_text, base_text=base, base_digest=text_digest(base), by=by, files=files)
    if result.conflicts:
        output = f"{result.output}; {name} keeps the other writer's version, your edit is kept at {copy}"
        return CopyEditResult(output, CopyOutcome.CONFLICT, copy, result)
    if result.is_error:
        return CopyEditResult(f"{result.output}; your edit is kept at {copy}", CopyOutcome.REFUSED, copy, result)
    discard_copy(copy)
    outcome = CopyOutcome.WRITTEN if result.applied is not None else CopyOutcome.UNCHANGED
    return CopyEditResult(result.output, outcome, None, result)


def _unchanged(copy: Path, base: str) -> bool:
    try:
        return copy.read_bytes() == base.encode("utf-8")
    except OSError:
        return False


def discard_copy(copy: Path) -> None:
    """Remove an editing copy and its folder, once what it held is written (a conflict resolved)."""
    shutil.rmtree(copy.parent, ignore_errors=True)
