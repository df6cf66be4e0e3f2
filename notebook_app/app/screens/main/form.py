"""The memory form's round trip: a dry run as you type, the write through the tool, what it says.

:class:`FormRoundTrip` is a controller the main screen holds: it owns the
dry run shown (and its worker, the latest keystroke wins), the entry a replace
or remove was pre-filled from, and the write's worker. The screen hands it the
form's messages; what a write read back goes to ``apply``, and a dry run to
``shown`` (the session panes present it).
"""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen

from notebook_app.app.view_model.dry_run import DryRun, Selection, dry_run, dry_run_status
from notebook_app.app.view_model.notebook import HomeState, Notebook
from notebook_app.app.widgets.form.action_form import ActionForm
from notebook_app.app.workers import LatestWins, run_once
from notebook_app.core.home.layout import Dialect
from notebook_app.core.home.reading import MEMORY_TARGETS
from notebook_app.core.memory.results import SpliceResult, ToolResult, for_people

AFTER_RESULT = 0.1
"""Seconds the toast and the footer's keys (a widget mount, a rebuild) wait
for the frames that show a write's result.
"""

WRITTEN_TEXT = {"add": "text", "replace": "with", "edit-entry": "to"}
"""The form's field whose text a write puts in the file, by action (a remove or a delete puts none)."""


def written_secret(args: dict[str, str]) -> str | None:
    """The core's sentence for a secret in the text this write puts in the file, or None (read in the worker)."""
    from notebook_app.core.text.quote import secret_notice

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
    """The dry runs and the write of ``screen``'s form on ``notebook``.

    ``state`` gives the home state a dry run runs against; ``refused`` the
    words when no write may start (the home moved), else None; ``close``
    closes the form after a write, without presenting the old state; ``apply``
    takes the state a write read back (False: not newer than the one shown);
    ``shown`` presents the sessions again, a new dry run with them.
    """

    def __init__(
        self,
        screen: Screen,
        notebook: Notebook,
        *,
        state: Callable[[], HomeState | None],
        refused: Callable[[], str | None],
        close: Callable[[], None],
        apply: Callable[[HomeState], bool],
        shown: Callable[[], None],
    ) -> None:
        self._screen = screen
        self.notebook = notebook
        self._state = state
        self._refused = refused
        self._close = close
        self._apply = apply
        self._shown = shown
        self.dry: DryRun | None = None
        """The dry run of what the form holds, for the state it ran on."""
        self.selection: Selection | None = None
        """The entry a replace or remove was pre-filled from: the form warns when the first match is elsewhere."""
        self._typed_since_status = False
        """Whether the form changed since the tool last answered; until then its answer stays."""
        self._dry_runs = LatestWins(screen, "dry-run", dry_run, done=self._dry_run_done, failed=self._dry_run_failed)

    @property
    def form(self) -> ActionForm:
        return self._screen.query_one(ActionForm)

    def opened(self, selection: Selection | None) -> None:
        """The form opens afresh (pre-filled from ``selection``, if any): no dry run yet, no answer to keep.
        Its target is a ``§`` store or not (its host's dialect, or what its content shows), which its fields say."""
        state = self._state()
        name = MEMORY_TARGETS[self.form.target]
        self.form.whole_entries = self.notebook.files.dialect is Dialect.SECTIONS or (
            state is not None and name in state.sections
        )
        self.selection = selection
        self.dry = None
        self._typed_since_status = False

    def closed(self) -> None:
        self.dry = None
        self.selection = None

    def dry_run_for(self, state: HomeState) -> DryRun | None:
        """The dry run to present with ``state``: the form's, while it is open and ran on that state."""
        dry = self.dry
        return dry if self.form.is_open and dry is not None and dry.seq == state.seq else None

    def request_dry_run(self) -> None:
        state = self._state()
        if state is not None and self.form.is_open:
            self._dry_runs.request(state, self.form.args)

    def changed(self) -> None:
        """The form changed: its next answer replaces the last one, and the dry run runs again."""
        self._typed_since_status = True
        self.request_dry_run()

    def submit(self, args: dict[str, str]) -> None:
        refused = self._refused()
        if refused is not None:  # the core would refuse it: say so in its words, without a worker
            self.form.show_status("error", refused)
            return
        self._typed_since_status = False
        run_once(
            self._screen,
            "write",
            lambda: (*self.notebook.write(args), written_secret(args)),
            done=self._written,
            failed=self._write_failed,
        )

    def _written(self, outcome: tuple[ToolResult | SpliceResult, HomeState, str | None]) -> None:
        result, state, secret = outcome
        if result.is_error:
            near = result.near if isinstance(result, ToolResult) else None  # the core's words, as the CLI says them
            self.form.show_status("error", result.output + (f"; {near}" if near else ""))
            self._apply(state)
            return
        self._close()  # the new state is presented once, below: not the old one first
        said, unkept = for_people(result.output, result.unrecorded), result.unrecorded is not None
        notify = self._screen.notify
        self._screen.set_timer(
            AFTER_RESULT,
            lambda: notify(
                said,
                title="memory",
                severity="warning" if unkept else "information",
                markup=False,
                timeout=8 if unkept else 4,
            ),
        )
        if secret is not None:  # allowed, and said even so (issue 34): the CLI's sentence, in one notification
            self._screen.set_timer(
                AFTER_RESULT,
                lambda: notify(f"⚠ {secret}", title="secret", severity="warning", markup=False, timeout=10),
            )
        if not self._apply(state):
            self._shown()

    def _write_failed(self, words: str) -> None:
        self.form.show_status("error", f"the write could not finish: {words}")

    def _dry_run_done(self, dry: DryRun) -> None:
        state = self._state()
        if not self.form.is_open or dry.args != self.form.args or state is None or dry.seq != state.seq:
            return  # stale: a newer one is due, or the form closed
        self.dry = dry
        if self.form.awaiting is None and (self.form.status[0] not in ("error", "ok") or self._typed_since_status):
            self.form.show_status(*dry_run_status(dry, self.selection))
        self._shown()

    def _dry_run_failed(self, words: str) -> None:
        self.form.show_status("flag", f"the dry run failed: {words}; enter still applies through the tool")
