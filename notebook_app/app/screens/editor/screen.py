"""The built-in editor: one whole bootstrap file in a TextArea, saved through the guarded hand edit.

The screen keeps the base, the text it started from (and, after each save,
the text written): ``ctrl+s`` sends the buffer with that base to the core,
which writes it as is, merges it with what another writer wrote since, or
returns the conflicts, which open :class:`~..conflict.ConflictScreen`. Nothing
here merges or writes by itself. While the file is open, a change on disk
that is not this editor's own save is said in a banner: the next save merges.
Find (``ctrl+f``) is a controller the screen holds (:mod:`.find`),
driving the cursor through :meth:`EditorScreen.go_to_line` and
:meth:`EditorScreen.select_span`; the find bar's messages reach it through
:class:`~...widgets.find.find_bar.FindRow`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from textual import events, on
from textual.app import ComposeResult
from textual.widgets import Header, Static, TextArea
from textual.widgets.text_area import Selection

from notebook_app.app.keys import EDITOR_KEYS, bindings
from notebook_app.app.screens.conflict import ConflictScreen  # loaded when a save first conflicts
from notebook_app.app.screens.editor.find import SCOPE, BufferFind
from notebook_app.app.screens.editor.kept import kept_words
from notebook_app.app.screens.keyed import KeyedScreen
from notebook_app.app.view_model.live_files import READ_LIMIT
from notebook_app.app.view_model.notebook import HomeState, Notebook
from notebook_app.app.watchers.home import HomeWatcher
from notebook_app.app.widgets.common.key_footer import KeyFooter
from notebook_app.app.widgets.editor.buffer import EditorBuffer
from notebook_app.app.widgets.find import find_bar
from notebook_app.app.widgets.find.find_bar import FindRow
from notebook_app.app.workers import LatestWins, run_once
from notebook_app.core.home.files import FileStatus, read_file
from notebook_app.core.memory.edits.hand_edit import HandEditResult, keep_typing, text_digest
from notebook_app.core.memory.results import for_people
from notebook_app.core.text.merge import follow_line
from notebook_app.core.text.quote import secret_notice as notice

HIGHLIGHT_UP_TO = 256 * 1024
"""Bytes up to which the buffer gets Markdown highlighting and soft wrap; above, plain unwrapped text opens and types
quickly.
"""


@dataclass(frozen=True)
class OnDisk:
    """The file as it is now: its digest (None: absent, or not a regular file) and, should it differ from the base, the
    words for it.
    """

    digest: str | None
    absent: bool
    words: str


def on_disk(path: Path) -> OnDisk:
    read = read_file(path, limit=READ_LIMIT)
    if read.status is FileStatus.ABSENT:
        return OnDisk(None, True, f"{path.name} was deleted on disk")
    if read.status is not FileStatus.REGULAR:
        return OnDisk(None, False, f"{path.name} on disk is now: {read.describe()}")
    return OnDisk(
        hashlib.sha256(read.data).hexdigest(),
        False,
        f"{path.name} changed on disk since you opened it (an agent or another program wrote it)",
    )


class EditorScreen(KeyedScreen[None]):
    """Edits ``name``; ``applied`` gets each home state read after a save (the notebook shows it)."""

    CSS_PATH = [find_bar.TCSS, Path(__file__).with_name("editor.tcss")]
    KEYS = EDITOR_KEYS
    BINDINGS = bindings(KEYS)

    def __init__(
        self, notebook: Notebook, name: str, text: str, *, watch: bool, applied: Callable[[HomeState], object]
    ) -> None:
        super().__init__()
        self.notebook = notebook
        self.file_name = name
        self.base = text
        """What the buffer is an edit of: the text opened, then the text each save wrote."""
        self._base_digest = text_digest(text)
        self.watch_home = watch
        self.applied = applied
        self.saving = False
        self._sent = text
        """The text the last save took: what is typed after it is kept when the save comes back."""
        self._asked_to_close = False
        self._watcher: HomeWatcher | None = None
        self._disk = LatestWins(self, "editor-disk", on_disk, done=self._disk_checked, failed=self._show_failure)
        self.find = BufferFind(self, name, select_span=self.select_span, go_to_line=self.go_to_line)

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        yield Static("", id="editor-banner", markup=False)
        small = len(self.base.encode("utf-8")) <= HIGHLIGHT_UP_TO
        yield EditorBuffer(
            "", language="markdown" if small else None, soft_wrap=small, show_line_numbers=True, id="editor-text"
        )
        yield FindRow(self.find, scope=SCOPE)
        yield KeyFooter(compact=True)

    @on(events.Mount)
    def _mounted(self) -> None:
        self.sub_title = f"editing {self.file_name}"
        self.text_area.border_title = self.file_name
        self.text_area.load_text(
            self.base
        )  # once, here: TextArea built with the text splits and wraps it three times more
        self._show_unsaved()
        self.text_area.focus()
        if self.watch_home:
            self._watcher = HomeWatcher(
                self.notebook.home, self, lambda _name: ""
            )  # every change is looked at: a deletion too
            self.call_after_refresh(self._watcher.start, self, "editor-watch")

    @on(events.Unmount)
    def _unmounted(self) -> None:
        if self._watcher is not None:
            self._watcher.stop()

    @property
    def text_area(self) -> TextArea:
        return self.query_one("#editor-text", TextArea)

    @property
    def text(self) -> str:
        return self.text_area.text

    @property
    def unsaved(self) -> bool:
        return self.text != self.base

    @property
    def is_typing(self) -> bool:
        """Letters type into the buffer: ``?`` and ``q`` never act here (``f1``, ``ctrl+q`` do)."""
        return True

    # --- for find: move the cursor, select a span ------------------------------

    def go_to_line(self, line: int, column: int = 0) -> None:
        """Put the cursor at ``line`` (from 1), ``column`` (from 0), scrolled into view; clamped to the text."""
        document = self.text_area.document
        row = max(0, min(line - 1, document.line_count - 1))
        self.text_area.move_cursor((row, max(0, min(column, len(document[row])))), center=True)

    def select_span(self, line: int, start: int, end: int) -> None:
        """Select columns ``start``–``end`` (from 0, end exclusive) of ``line`` (from 1), scrolled into view."""
        row = max(0, min(line - 1, self.text_area.document.line_count - 1))
        self.text_area.selection = Selection((row, start), (row, end))
        self.text_area.scroll_cursor_visible(center=True)

    # --- find: the keys that open the bar (its messages reach the controller through FindRow) ---

    def action_find(self) -> None:
        """ctrl+f: open the find bar (again: back into it), searching from the match still selected, else the cursor."""
        self.find.open_find()

    def action_go_to_line(self) -> None:
        self.find.open_line()

    # --- saving ------------------------------------------------------------------

    def action_save(self) -> None:
        """Save in a worker; typing goes on meanwhile, and what is typed is kept when the save comes back
        (:meth:`_written`).
        """
        if self.saving:
            return
        self.saving = True
        name, text, base = self.file_name, self.text, self.base
        self._sent = text
        run_once(
            self,
            "editor-save",
            lambda: (*self.notebook.hand_edit(name, text, base), secret_notice(text, base)),
            done=self._saved,
            failed=self._save_failed,
        )

    def _saved(self, outcome: tuple[HandEditResult, HomeState, str | None]) -> None:
        result, state, secret = outcome
        self.saving = False
        self.applied(state)
        if result.merge is not None and result.conflicts:
            self._show_banner(
                "warning", f"{result.output}. Resolve it in the conflict view, or esc there to keep editing."
            )
            screen = ConflictScreen(
                self.notebook, self.file_name, result.merge, theirs=result.current or "", applied=self.applied
            )
            self.app.push_screen(screen, self._resolved)
            return
        if result.is_error or result.text is None:
            self._show_banner("error", f"Not saved: {result.output}")
            return
        if secret is not None:  # a secret this save added: allowed, and said even so (issue 34), as the CLI says it
            self.notify(f"⚠ {secret}", title="secret", severity="warning", markup=False, timeout=10)
        merged = f"Saved and merged: {result.output}. Your edit and what was written since are both in the buffer now."
        self._written(
            result.text, for_people(result.output, result.unrecorded), note=merged if result.merge is not None else None
        )

    def _save_failed(self, words: str) -> None:
        self.saving = False
        self._show_banner("error", f"Not saved: the write could not finish: {words}")

    def _resolved(self, written: tuple[str, str] | None) -> None:
        """Back from the conflict view: the text it wrote and the core's words, or None (nothing written)."""
        if written is None:
            self._show_banner(
                "warning", "Not saved: the conflict is not resolved; your edit is still here, ctrl+s tries again."
            )
            return
        text, output = written
        self._written(text, output, note=f"Saved your resolution: {output}.")

    def _written(self, text: str, output: str, *, note: str | None) -> None:
        """``text`` is on disk now: it becomes the base, and the buffer when a merge added to it; ``note`` says how.

        What was typed while the save ran is kept (:func:`keep_typing`); when
        it touches what the merge changed, the buffer stays as typed over its
        old base, and the next save merges again.
        """
        now = self.text
        buffer = keep_typing(self.file_name, sent=self._sent, written=text, now=now)
        if buffer is None:
            self._show_banner(
                "warning",
                f"Saved: {output}. What you typed during the save touches what the merge changed, so it is not merged "
                "in yet: ctrl+s merges it (a conflict shows both sides).",
            )
            return
        self.base = text
        self._base_digest = text_digest(text)
        self._asked_to_close = False
        if buffer != now:
            area = self.text_area
            row, column = area.cursor_location
            area.load_text(buffer)
            self.go_to_line(follow_line(now, buffer, row) + 1, column)  # the same line, though lines came above it
        if note is not None:
            self._show_banner("info", note)
        else:
            self._hide_banner()
            self.notify(output, title=self.file_name, markup=False, timeout=4)
        self._show_unsaved()

    # --- the file on disk --------------------------------------------------------

    @on(HomeWatcher.Changed)
    def _home_changed(self, event: HomeWatcher.Changed) -> None:
        event.stop()
        if self.file_name in event.names:
            self._disk.request(self.notebook.home / self.file_name)

    @on(HomeWatcher.HomeMissing)
    def _home_missing(self, event: HomeWatcher.HomeMissing) -> None:
        event.stop()
        self._show_banner("error", "The home directory is gone; saving waits until it is back (your text stays here).")

    @on(HomeWatcher.HomeBack)
    def _home_back(self, event: HomeWatcher.HomeBack) -> None:
        event.stop()
        self._disk.request(self.notebook.home / self.file_name)

    def _disk_checked(self, found: OnDisk) -> None:
        """Compared with the base as it is now, not as it was when the look began: a save may have landed since."""
        if self.saving:
            return  # the save's own result says what is on disk
        same = found.digest == self._base_digest or (found.absent and self.base == "")
        banner = self.query_one("#editor-banner", Static)
        if same:
            if banner.has_class("-disk"):
                self._hide_banner()
            return
        self._show_banner("warning", f"{found.words}; ctrl+s merges your edit with it (a conflict shows both sides).")
        banner.add_class("-disk")

    def _show_failure(self, words: str) -> None:
        self._show_banner("error", f"Could not look at {self.file_name} on disk: {words}")

    # --- closing -------------------------------------------------------------------

    @on(TextArea.Changed)
    def _changed(self) -> None:
        self._asked_to_close = False
        self.find.buffer_edited()
        self._show_unsaved()

    def action_close(self) -> None:
        """esc: the find bar first (even with the focus back in the buffer), then the editor."""
        if self.find.is_open:
            self.find.close()
            return
        if self.saving:
            return
        if self.unsaved and not self._asked_to_close:
            self._asked_to_close = True
            self._show_banner("warning", "Unsaved changes: esc again discards them, ctrl+s saves.")
            return
        self.dismiss(None)

    def keep_unsaved(self, home_label: str) -> str | None:
        """The notebook is ending with this buffer unsaved: keep it as an editing copy, in the state directory.

        On the event loop, as the app ends: a few small writes outside the home, done before the process is.
        """
        if not self.unsaved:
            return None
        from notebook_app.core.memory.edits.copies import edits_dir, keep_buffer  # lazy: the write path

        where = self.notebook.files.relative(self.file_name)  # memories/MEMORY.md in a Hermes home
        kept = keep_buffer(self.notebook.home, where, self.text, self.base, edits_dir=edits_dir())
        return kept_words(self.file_name, kept, home_label)

    def action_undo(self) -> None:
        self.text_area.undo()

    def action_redo(self) -> None:
        self.text_area.redo()

    def _show_unsaved(self) -> None:
        self.text_area.border_subtitle = "● unsaved · ctrl+s saves" if self.unsaved else "saved"

    def _show_banner(self, kind: str, text: str) -> None:
        banner = self.query_one("#editor-banner", Static)
        banner.update(text)
        banner.set_classes(f"-shown -{kind}")

    def _hide_banner(self) -> None:
        self.query_one("#editor-banner", Static).set_classes("")


def secret_notice(text: str, before: str) -> str | None:
    """The core's sentence for a secret ``text`` holds that ``before`` did not (the finder loads with a save)."""

    return notice(text, before)
