"""The memory form's round trip: a dry run as you type, the write through the tool, what it says.

:class:`FormRoundTrip` is a controller the main screen holds: it owns the
dry run shown (and its worker, the latest keystroke wins), the entry a replace
or remove was pre-filled from, and the write's worker. It touches no widget:
the screen hands it what the form holds, and it posts what its workers bring
back (a dry run, a write's outcome, a failure in words) to the node it runs
on; the screen shows them in the form and the session panes.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message
from textual.widget import Widget

from notebook_app.app.view_model.dry_run import DryRun, Selection, dry_run, dry_run_status
from notebook_app.app.view_model.notebook import HomeState, Notebook
from notebook_app.app.widgets.form.action_form import ActionForm
from notebook_app.app.workers import LatestWins, run_once
from notebook_app.core.home.layout import Dialect
from notebook_app.core.home.reading import MEMORY_TARGETS
from notebook_app.core.memory.results import SpliceResult, ToolResult

AFTER_RESULT = 0.1
"""Seconds the toast and the footer's keys (a widget mount, a rebuild) wait
for the frames that show a write's result.
"""

WRITTEN_TEXT = {"add": "text", "replace": "with", "edit-entry": "to"}
"""The form's field whose text a write puts in the file, by action (a remove or a delete puts none)."""


def written_secret(args: dict[str, str]) -> str | None:
    """The core's sentence for a secret in the text this write puts in the file, or None (read in the worker)."""
    from notebook_app.core.text.quote import secret_notice  # lazy: detect-secrets

    field = WRITTEN_TEXT.get(args.get("action", ""))
    return secret_notice(args.get(field, "")) if field is not None else None


NO_ENTRY = "Select an entry first: choose MEMORY.md or USER.md and move to a line with the arrows."
"""Said when an entry edit or delete is asked for with no entry selected."""

FORM_ONLY = {"close_form", "submit", "toggle_target_in_form"}
NOT_WHILE_FORM_OPEN = {
    "add",
    "replace",
    "remove",
    "edit_entry",
    "delete_entry",
    "toggle_target",
    "pick_file",
    "next_session",
    "blame",
    "find",
    "go_to_line",
    "edit_file",
    "open_editor",
    "toggle_warnings",
}
"""Besides the views the app opens over the notebook (:data:`~...app.VIEWS`), which the app holds back itself."""


def form_allows(action: str, form: ActionForm, *, finding: bool) -> bool:
    """Whether the main screen's ``action`` may run with ``form`` as it is (``finding``: the find bar is open).

    Its own keys only while it is open (esc: the find bar first; ctrl+t: not in
    an entry edit, whose file is fixed); the notebook's keys only while it is not.
    """
    if action in FORM_ONLY:
        return (form.is_open and (action != "toggle_target_in_form" or form.has_target)) or (
            action == "close_form" and finding
        )
    if action in NOT_WHILE_FORM_OPEN:
        return not form.is_open
    return True


def prefill(selected: tuple[str, int, str] | None) -> Selection | None:
    """The entry a replace or remove is pre-filled from: the selected line (file, line from 1, text) as an entry."""
    if selected is None:
        return None
    filename, line, full = selected
    return Selection(filename, full.removeprefix("- "), line - 1)


class FormRoundTrip:
    """The dry runs and the write of the memory form on ``notebook``, run on ``node`` and posted to it."""

    @dataclass
    class DryRunDone(Message):
        """A dry run of what the form held (stale if the form or the state moved on since)."""

        dry: DryRun

    @dataclass
    class Written(Message):
        """A write finished: the tool's result, the state read back, the secret it put in the file (or None)."""

        result: ToolResult | SpliceResult
        state: HomeState
        secret: str | None

    @dataclass
    class Said(Message):
        """Words for the form's status line (``kind``: ``error``, ``flag``): a worker could not finish."""

        kind: str
        words: str

    def __init__(self, node: Widget, notebook: Notebook) -> None:
        self._node = node
        self.notebook = notebook
        self.dry: DryRun | None = None
        """The dry run of what the form holds, for the state it ran on."""
        self.selection: Selection | None = None
        """The entry a replace or remove was pre-filled from: the form warns when the first match is elsewhere."""
        self._typed_since_status = False
        """Whether the form changed since the tool last answered; until then its answer stays."""
        self._dry_runs = LatestWins(
            node,
            "dry-run",
            dry_run,
            done=lambda dry: node.post_message(self.DryRunDone(dry)),
            failed=lambda words: node.post_message(
                self.Said("flag", f"the dry run failed: {words}; enter still applies through the tool")
            ),
        )

    def opened(self, selection: Selection | None) -> None:
        """The form opens afresh (pre-filled from ``selection``, if any): no dry run yet, no answer to keep."""
        self.selection = selection
        self.dry = None
        self._typed_since_status = False

    def whole_entries(self, target: str, state: HomeState | None) -> bool:
        """Whether ``target`` is a ``§`` store (its host's dialect, or what its content shows): the form's fields
        say so."""
        name = MEMORY_TARGETS[target]
        return self.notebook.files.dialect is Dialect.SECTIONS or (state is not None and name in state.sections)

    def closed(self) -> None:
        self.dry = None
        self.selection = None

    def dry_run_for(self, state: HomeState, *, form_open: bool) -> DryRun | None:
        """The dry run to present with ``state``: the form's, while it is open and ran on that state."""
        dry = self.dry
        return dry if form_open and dry is not None and dry.seq == state.seq else None

    def request_dry_run(self, state: HomeState, args: dict[str, str]) -> None:
        self._dry_runs.request(state, args)

    def changed(self) -> None:
        """The form changed: its next answer replaces the last one (the screen asks for the dry run again)."""
        self._typed_since_status = True

    def took(self, dry: DryRun, status_kind: str) -> tuple[str, str] | None:
        """``dry`` is the form's dry run now; the status it should show, or None: the form's line (``status_kind``,
        the tool's answer) stays until something is typed."""
        self.dry = dry
        if status_kind not in ("error", "ok") or self._typed_since_status:
            return dry_run_status(dry, self.selection)
        return None

    def submit(self, args: dict[str, str]) -> None:
        self._typed_since_status = False
        run_once(
            self._node,
            "write",
            lambda: (*self.notebook.write(args), written_secret(args)),
            done=lambda outcome: self._node.post_message(self.Written(*outcome)),
            failed=lambda words: self._node.post_message(self.Said("error", f"the write could not finish: {words}")),
        )
