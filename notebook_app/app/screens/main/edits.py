"""Editing a whole file, in the built-in editor (``E``) or in ``$VISUAL``/``$EDITOR`` (``o``).

:class:`FileEdits` is a controller the main screen holds; it touches no
widget, and what comes of an edit (a state a save read, the view closed) is
posted to the node it runs on (:class:`FileEdits.Applied`,
:class:`FileEdits.Back`). Both ways go
through the core: :func:`~notebook_app.core.hand_edit.read_for_edit` for the
text an edit starts from, the guarded hand edit to save it, and
:func:`~notebook_app.core.edit_copy.edit_with_editor` for an outside editor
working on a copy. How the outside editor runs is injected (``run_editor``):
None is the real one, ``$VISUAL``/``$EDITOR`` with the app suspended; tests
(and a future browser version, which cannot suspend) pass another.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App, SuspendNotSupported
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.widget import Widget

from notebook_app.app.view_model.notebook import HomeState, Notebook
from notebook_app.app.workers import run_once
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.home.soul import MAX_FILE_BYTES
from notebook_app.core.memory.results import for_people
from notebook_app.core.record.log.actor import NOTEBOOK

if TYPE_CHECKING:
    from notebook_app.core.memory.edits.editor_copy import CopyEditResult

EditorLauncher = Callable[[Path], int]
"""Runs an editor on a copy's path, ON THE EVENT LOOP, and returns its exit status (0: saved and quit)."""


def suspended_editor(app: App, command: list[str]) -> EditorLauncher:
    """``command`` on the copy with the app suspended: the editor gets the terminal, the notebook resumes after."""

    def run(copy: Path) -> int:
        try:
            with app.suspend():
                return subprocess.run([*command, str(copy)], check=False).returncode
        except SuspendNotSupported:
            app.notify(
                "This terminal cannot hand over to another program; E edits the file here.",
                title="editor",
                severity="error",
                markup=False,
            )
            return 126
        except OSError as error:
            app.notify(
                f"Could not start the editor {command[0]!r}: {error.strerror or error}",
                title="editor",
                severity="error",
                markup=False,
            )
            return 127

    return run


@dataclass(frozen=True)
class Unkept(Rejection):
    """A file the buffer would not keep byte for byte: ``$EDITOR`` can still open it."""


def editable(home: Path, name: str, files: FileMap = FLAT) -> str | Rejection:
    """The text the built-in editor opens: the core's read for an edit, within
    the cap, that the buffer keeps as it is.
    """
    from notebook_app.app.widgets.editor.buffer import buffer_rewrites  # lazy: the editor, at the first edit
    from notebook_app.core.memory.edits.hand_edit import read_for_edit  # lazy: the write path

    found = read_for_edit(home, name, max_bytes=MAX_FILE_BYTES, files=files)
    if isinstance(found, Rejection):
        return found
    rewrites = buffer_rewrites(found)
    if rewrites is not None:
        return Unkept(f"{name}: the built-in editor would change it on saving: {rewrites}; nothing was opened")
    return found


class FileEdits:
    """``E`` and ``o``: a file of ``notebook`` edited, each state a save read and the end of the edit posted to
    ``node``."""

    @dataclass
    class Applied(Message):
        """A save in an editor or conflict view read this state of the home."""

        state: HomeState

    class Back(Message):
        """An edit ended (its view closed, the outside editor exited): the home may have changed."""

    def __init__(
        self, node: Widget, notebook: Notebook, *, watch: bool, run_editor: EditorLauncher | None = None
    ) -> None:
        self._node = node
        self.notebook = notebook
        self.watch = watch
        self.run_editor = run_editor
        """The outside editor, run on the event loop; None: ``$VISUAL``/``$EDITOR`` with the app suspended."""

    def applied(self, state: HomeState) -> None:
        """What the views opened here call with each state a save read: it goes on to ``node``."""
        self._node.post_message(self.Applied(state))

    def read_again(self) -> None:
        """The edit ended: ``node`` reads the home again."""
        self._node.post_message(self.Back())

    def refusal(self, name: str, otherwise: str) -> str:
        """The core's words when ``name`` is the host's own file (Claude Code's CLAUDE.md chain), else ``otherwise``."""
        outside = self.notebook.files.host_files.get(name)
        return outside.refusal(name) if outside is not None else otherwise

    def refused(self, name: str) -> bool:
        """Said, and True, when ``name`` is the host's own file: ``a``, ``r`` and ``x`` there open no form."""
        if name not in self.notebook.files.host_files:
            return False
        self._node.notify(self.refusal(name, ""), title=f"{name} is read-only", severity="warning", markup=False)
        return True

    def edit_here(self, name: str) -> None:
        """E: ``name`` (any of the seven, or a Claude Code topic file) in the built-in editor, read in a worker."""
        home, files = self.notebook.home, self.notebook.files
        run_once(
            self._node,
            "editor-open",
            lambda: editable(home, files.relative(name), files),  # memories/MEMORY.md in a Hermes home
            done=lambda found: self._open_editor(name, found),
            failed=self._edit_failed,
        )

    def _open_editor(self, name: str, found: str | Rejection) -> None:
        if isinstance(found, Rejection):
            from notebook_app.core.memory.edits.hand_edit import TooLarge  # lazy: the write path

            hint = "; o opens it in $VISUAL / $EDITOR" if isinstance(found, (TooLarge, Unkept)) else ""
            self._node.notify(f"{found.message}{hint}", title=f"edit {name}", severity="error", markup=False, timeout=8)
            return
        from notebook_app.app.screens.editor.screen import EditorScreen  # lazy: the editor, at the first edit

        screen = EditorScreen(self.notebook, name, found, watch=self.watch, applied=self.applied)
        self._node.app.push_screen(screen, lambda _: self.read_again())

    def _edit_failed(self, words: str) -> None:
        self._node.notify(f"The file could not be opened: {words}", title="edit", severity="error", markup=False)

    def edit_outside(self, name: str) -> None:
        """o: ``name`` in ``$VISUAL``/``$EDITOR`` (a copy), saved back with the guard when it exits.

        Served to a browser there is no terminal to hand over: refused in words, E edits it here.
        """
        if self._node.app.is_web:
            self._node.notify(
                "In a browser there is no terminal to hand the file to $EDITOR; E edits it here.",
                title="editor",
                severity="error",
                markup=False,
            )
            return
        from notebook_app.core.memory.edits.copies import edits_dir  # lazy: the write path
        from notebook_app.core.memory.edits.editor_copy import edit_with_editor, editor_command  # lazy: the write path

        launcher = self.run_editor
        if launcher is None:
            command = editor_command(os.environ)
            if command is None:
                self._node.notify(
                    "No editor: set $VISUAL or $EDITOR (e.g. EDITOR=nano); E edits the file here.",
                    title="editor",
                    severity="error",
                    markup=False,
                )
                return
            launcher = suspended_editor(self._node.app, command)
        app, home, folder, files = self._node.app, self.notebook.home, edits_dir(), self.notebook.files
        chosen = launcher

        def run(copy: Path) -> int:
            return app.call_from_thread(
                chosen, copy
            )  # the editor needs the event loop (to suspend), the write does not

        where = files.relative(name)  # where the home keeps it: memories/MEMORY.md in a Hermes home
        job = lambda: edit_with_editor(home, where, run, edits_dir=folder, by=NOTEBOOK, files=files)  # noqa: E731
        run_once(
            self._node,
            "outside-editor",
            job,
            done=lambda result: self._edited_outside(name, result),
            failed=self._edit_failed,
        )

    def _edited_outside(self, name: str, result: CopyEditResult) -> None:
        """What came of it, in words: written (merged or not), unchanged, or a conflict with where the edit is kept."""
        from notebook_app.core.memory.edits.editor_copy import CopyOutcome  # lazy: the write path

        heads = {
            CopyOutcome.WRITTEN: "Written",
            CopyOutcome.UNCHANGED: "Unchanged",
            CopyOutcome.CONFLICT: "Conflict",
            CopyOutcome.REFUSED: "Not written",
        }
        severity: SeverityLevel = "error" if result.is_error else "information"
        said = for_people(result.output, result.edit.unrecorded if result.edit is not None else None)
        self.read_again()
        edit = result.edit
        notify = self._node.notify
        if result.outcome is CopyOutcome.CONFLICT and edit is not None and edit.merge is not None:
            from notebook_app.app.screens.conflict import ConflictScreen  # lazy: the editor, at the first conflict

            kept = result.kept
            notify(
                f"Conflict: {said}. Resolve it side by side, or esc to keep your copy.",
                title=f"{name} in $EDITOR",
                severity="warning",
                markup=False,
                timeout=15,
            )
            screen = ConflictScreen(self.notebook, name, edit.merge, theirs=edit.current or "", applied=self.applied)
            self._node.app.push_screen(screen, lambda written: self._outside_resolved(name, kept, written))
            return
        notify(
            f"{heads[result.outcome]}: {said}",
            title=f"{name} in $EDITOR",
            severity=severity,
            markup=False,
            timeout=15 if result.is_error else 5,
        )

    def _outside_resolved(self, name: str, kept: Path | None, written: tuple[str, str] | None) -> None:
        """Back from the conflict view of an outside edit: once resolved, the kept copy has done its work."""
        from notebook_app.core.memory.edits.editor_copy import discard_copy  # lazy: the write path

        if written is None:
            self._node.notify(
                f"Not written: your edit is kept at {kept}",
                title=f"{name} in $EDITOR",
                severity="warning",
                markup=False,
                timeout=15,
            )
            return
        if kept is not None:
            discard_copy(kept)
        self._node.notify(f"Written: {written[1]}", title=f"{name} in $EDITOR", markup=False)
