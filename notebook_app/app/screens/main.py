"""The notebook's one working screen: the home, Current and Next session, the form.

It wires widgets to the :class:`~notebook_app.app.model.Notebook`: every read,
write, dry run and session start runs in a worker (:mod:`..workers`) and
comes back to a method here; widgets get plain attributes and method calls,
never the app.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import Header, Static

from ...core import MEMORY_TARGETS, EntryPlan, SpliceResult, ToolResult
from ...core.fs import moved
from ...core.memory import for_people
from ..documents import Mark
from ..dry_run import DryRun, Selection, dry_run, dry_run_status
from ..keymap import shown_key
from ..keys import NOTEBOOK_KEYS, bindings
from ..model import HomeState, Notebook
from ..watcher import HomeWatcher
from ..watching import FolderWatcher
from ..widgets.common import line_view, pane_tabs, status_line
from ..widgets.common.key_footer import KeyFooter
from ..widgets.common.pane_tabs import Tab
from ..widgets.common.status_line import StatusLine
from ..widgets.find import find_bar
from ..widgets.find.find_bar import FindBar
from ..widgets.form import action_form
from ..widgets.form.action_form import ActionForm
from ..widgets.home import home_pane
from ..widgets.home.home_pane import HomePane, file_at
from ..widgets.session import session_pane
from ..widgets.session.session_pane import SessionPane, present
from ..workers import LatestWins, run_once
from .main_edits import HandEdits
from .main_find import NotebookFind
from .main_tools import NotebookTools, blame_labels
from .main_watch import CHECK_DELAY, HomeWatching
from .panes import PaneScreen

TARGET_OF = {name: target for target, name in MEMORY_TARGETS.items()}

FORM_ONLY = {"close_form", "submit", "toggle_target_in_form"}
AFTER_RESULT = 0.1  # seconds the toast and footer keys (a mount, a rebuild) wait for the frames of a write's result
NOT_WHILE_FORM_OPEN = {"add", "replace", "remove", "edit_entry", "delete_entry", "toggle_target", "pick_file", "next_session", "agent_sessions", "doctor", "history", "review", "blame", "find", "go_to_line", "edit_file", "open_editor", "toggle_warnings"}


class MainScreen(HandEdits, NotebookFind, NotebookTools, HomeWatching, PaneScreen):
    """What the running session loaded, what is on disk, what loads next."""

    CSS_PATH = [line_view.TCSS, pane_tabs.TCSS, status_line.TCSS, home_pane.TCSS, session_pane.TCSS, action_form.TCSS, find_bar.TCSS, Path(__file__).with_name("main.tcss")]
    KEYS = NOTEBOOK_KEYS
    BINDINGS = bindings(KEYS)
    TABS = (Tab("home", "Home", "f2"), Tab("current", "Current", "f3", group="sessions"), Tab("next", "Next", "f4", group="sessions"))
    AUTO_FOCUS = "#pane-memory EntryView"  # where on_mount puts it: focus elsewhere first restyled the Home column twice

    target: reactive[str] = reactive("self", init=False)

    def __init__(
        self,
        notebook: Notebook,
        *,
        watch: bool,
        home_label: str,
        clock: Callable[[datetime], str],
        keymap: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.notebook = notebook
        self.watch_home = watch
        self.home_label = home_label
        self.clock = clock
        self.keymap = dict(keymap or {})
        self.state: HomeState | None = None
        self.dry: DryRun | None = None
        self.home_missing = False
        self._selection: Selection | None = None
        """The entry a replace or remove was pre-filled from: the form warns when the first match is elsewhere."""
        self._watcher: HomeWatcher | None = None
        self._watching = False
        self._agents: FolderWatcher | None = None
        self._typed_since_status = False
        """Whether the form changed since the tool last answered; until then its answer stays."""
        self._checked_once = False
        self._blaming = False
        self._blames = LatestWins(self, "blame", blame_labels, done=self._blamed, failed=self._blame_failed)
        self._landed: int | None = None
        """The first line Next added when ``n`` was pressed: Current scrolls there once it is the new snapshot."""
        self._reads = LatestWins(self, "home", notebook.refresh, done=self._read_done, failed=self._read_failed)
        self._dry_runs = LatestWins(self, "dry-run", dry_run, done=self._dry_run_done, failed=self._dry_run_failed)
        self._checks = LatestWins(self, "doctor", notebook.health, done=self._checked, failed=self._check_failed)
        self._pending = 0
        self._warnings_unfolded = False
        self._init_find()

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        yield StatusLine(id="status-line")
        yield Static("", id="home-banner", markup=False)
        yield self.pane_tabs()
        with Horizontal(id="panes"):
            # Over the panes' bottom rows, so opening or closing it resizes no pane; first, so that showing
            # or hiding it leaves the panes' stacking order (and so their geometry) as it was: no repaint.
            yield ActionForm(id="form")
            yield HomePane(id="home", classes="-active")
            yield SessionPane("Current session", id="current")
            yield SessionPane("Next session", id="next")
        yield FindBar(id="find-bar")
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        self.sub_title = self.home_label
        shown = {key.id: shown_key(key, self.keymap) for key in NOTEBOOK_KEYS}
        self.form.show_keys(apply=shown["submit"], close=shown["close-form"], target=shown["toggle-target-form"])
        self.watch_target(self.target)
        home = self.query_one(HomePane)
        home.unfold_warnings(False, shown["toggle-warnings"])
        home.focus_entries()
        first = self.notebook.take_first_state()
        if first is None:
            self._reads.request()
        else:
            self._read_done(first)  # read while Textual loaded: the first frame already shows the home

    def on_unmount(self) -> None:
        for watcher in (self._watcher, self._agents):
            if watcher is not None:
                watcher.stop()

    @property
    def form(self) -> ActionForm:
        return self.query_one(ActionForm)

    @property
    def is_typing(self) -> bool:
        """The form is open: letter keys type (or do nothing), they never act as commands."""
        return self.form.is_open

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in FORM_ONLY:  # esc: the find bar first; ctrl+t: not in an entry edit, whose file is fixed
            return (self.form.is_open and (action != "toggle_target_in_form" or self.form.has_target)) or (action == "close_form" and self.finding)
        if action in NOT_WHILE_FORM_OPEN:
            return not self.form.is_open
        return True

    def focus_pane(self, pane: str) -> None:
        if pane == "home":
            self.query_one(HomePane).focus_files()
        else:
            self.query_one(f"#{pane}", SessionPane).focus_view()

    # --- results of the workers ------------------------------------------------

    def _read_done(self, state: HomeState) -> None:
        self._apply(state)
        self._start_watching()

    def _read_failed(self, words: str) -> None:
        shown = "Showing the last state read." if self.state is not None else "Nothing can be shown until it can be read."
        self._show_banner(f"⚠ Could not read the home: {words}. {shown}")

    def _started(self, state: HomeState) -> None:
        if self._apply(state):
            self.notify(f"Session #{state.current.number} started from what is on disk now.", title="next session")
            if self._landed is not None:
                # after the next layout: at narrow widths the pane has only just been shown
                self.call_after_refresh(self.query_one("#current", SessionPane).reveal_line, self._landed)
        self._landed = None

    def _written(self, outcome: tuple[ToolResult | SpliceResult, HomeState]) -> None:
        result, state = outcome
        if result.is_error:
            self.form.show_status("error", result.output)
            self._apply(state)
            return
        self._close_form(present=False)  # the new state is presented once, below: not the old one first
        said, unkept = for_people(result.output, result.unrecorded), result.unrecorded is not None
        self.set_timer(AFTER_RESULT, lambda: self.notify(said, title="memory", severity="warning" if unkept else "information", markup=False, timeout=8 if unkept else 4))
        if not self._apply(state):
            self._show_sessions()

    def _write_failed(self, words: str) -> None:
        self.form.show_status("error", f"the write could not finish: {words}")

    def _dry_run_done(self, dry: DryRun) -> None:
        if not self.form.is_open or dry.args != self.form.args or self.state is None or dry.seq != self.state.seq:
            return  # stale: a newer one is due, or the form closed
        self.dry = dry
        if self.form.awaiting is None and (self.form.status[0] not in ("error", "ok") or self._typed_since_status):
            self.form.show_status(*dry_run_status(dry, self._selection))
        self._show_sessions()

    def _dry_run_failed(self, words: str) -> None:
        self.form.show_status("flag", f"the dry run failed: {words}; enter still applies through the tool")

    def _apply(self, state: HomeState) -> bool:
        if self.state is not None and state.seq <= self.state.seq:
            return False
        if self.state is not None and not self.home_missing:
            self.query_one("#home-banner", Static).remove_class("-shown")  # a read succeeded again
        elif self.state is None and self.notebook.counter.problem:
            self.notify(self.notebook.counter.problem, title="session numbers", severity="warning", markup=False)
        self.state = state
        self.query_one(HomePane).show_state(state)
        self._show_sessions()
        self._request_dry_run()
        self._refind()
        if self._blaming:
            self._request_blame()
        if self._checked_once:
            self._checks.request_when_quiet(CHECK_DELAY)
        else:  # the first check waits until the first frame is out: it must not slow the start
            self._checked_once = True
            self.call_after_refresh(self._checks.request_when_quiet, CHECK_DELAY)
        return True

    def _request_dry_run(self) -> None:
        if self.state is not None and self.form.is_open:
            self._dry_runs.request(self.state, self.form.args)

    def _show_sessions(self) -> None:
        state = self.state
        if state is None:
            return
        number = state.current.number
        dry = self.dry if self.form.is_open and self.dry is not None and self.dry.seq == state.seq else None
        current_meta = f"#{number} · began {self.clock(state.current.taken_at)}"
        current, upcoming = self.query_one("#current", SessionPane), self.query_one("#next", SessionPane)
        if dry is not None and dry.comparison is not None:
            outcome = dry.outcome
            doing = outcome.label if isinstance(outcome, EntryPlan) else outcome.request.action
            present(current, upcoming, dry.comparison, current_meta=current_meta, next_meta=f"#{number + 1} · preview + {doing}", next_kind="dry-run")
        else:
            present(current, upcoming, state.comparison, current_meta=current_meta, next_meta=f"#{number + 1} · if it began now")

    def _show_banner(self, text: str) -> None:
        banner = self.query_one("#home-banner", Static)
        banner.update(text)
        banner.add_class("-shown")

    # --- the watcher ---------------------------------------------------------------

    def on_sessions_watcher_changed(self) -> None:
        """Agent activity in the log (a proposal queued, a session started): the health line looks again."""
        if self.state is not None:
            self._checks.request_when_quiet(CHECK_DELAY)

    @on(HomeWatcher.Changed)
    def _home_changed(self) -> None:
        self._reads.request()

    # --- the form ----------------------------------------------------------------

    @on(ActionForm.Changed)
    def _form_changed(self) -> None:
        self._typed_since_status = True
        self._request_dry_run()

    @on(ActionForm.Submitted)
    def _form_submitted(self, message: ActionForm.Submitted) -> None:
        if self.home_missing:  # the core would refuse it: say so in its words, without a worker
            self.form.show_status("error", moved(self.notebook.home) or f"the home directory is gone ({self.home_label}); nothing was written")
            return
        self._typed_since_status = False
        args = message.args
        run_once(self, "write", lambda: self.notebook.write(args), done=self._written, failed=self._write_failed)

    def _open_form(self, action: str) -> None:
        self._selection = None
        text = ""
        selected = self.query_one(HomePane).selected_line if action != "add" else None
        if selected is not None:
            filename, line, full = selected
            text = full.removeprefix("- ")
            self.target = next(t for t, f in MEMORY_TARGETS.items() if f == filename)
            self._selection = Selection(filename, text, line - 1)
        self._before_form()
        self.form.open(action, text, text if action == "replace" else "")
        self.call_after_refresh(self._keep_next_clear)

    def _open_entry_form(self, action: str) -> None:
        selected = self.query_one(HomePane).selected_line
        if selected is None:
            self.notify("Select an entry first: choose MEMORY.md or USER.md and move to a line with the arrows.", title="entry", markup=False)
            return
        self._selection = None
        self._before_form()
        self.form.open_entry(action, *selected)
        self.call_after_refresh(self._keep_next_clear)

    def _before_form(self) -> None:
        self._close_find(refocus=False)
        self.dry = None
        self._typed_since_status = False
        if self.narrow:
            self.activate("next")  # the dry run is what a person typing needs to see
        self.call_after_refresh(self.refresh_bindings)

    @on(ActionForm.Resized)
    def _keep_next_clear(self) -> None:
        """The form lies over the panes' bottom rows; Next, where its dry run shows, ends above it."""
        self.query_one("#next", SessionPane).keep_clear_of(self.form.outer_size.height if self.form.is_open else 0)

    def _close_form(self, *, present: bool = True) -> None:
        self.form.close()
        self._keep_next_clear()
        self.dry = None
        self._selection = None
        self.action_show_pane("next") if self.narrow else self.query_one(HomePane).focus_entries()  # narrow: Next, where the result shows
        if present:
            self._show_sessions()
        self.set_timer(AFTER_RESULT, self.refresh_bindings)

    def watch_target(self, target: str) -> None:
        self.form.target = target
        home = self.query_one(HomePane)
        home.mark_target(MEMORY_TARGETS[target])
        home.border_subtitle = f"target: {target} → {MEMORY_TARGETS[target]}"

    @on(HomePane.EntryFileViewed)
    def _entry_file_viewed(self, event: HomePane.EntryFileViewed) -> None:
        """The target follows the entry file a person looks at."""
        if not self.form.is_open:
            self.target = TARGET_OF[event.name]

    # --- actions (keys, palette) ---------------------------------------------

    def action_add(self) -> None:
        self._open_form("add")

    def action_replace(self) -> None:
        self._open_form("replace")

    def action_remove(self) -> None:
        self._open_form("remove")

    def action_edit_entry(self) -> None:
        self._open_entry_form("edit-entry")

    def action_delete_entry(self) -> None:
        self._open_entry_form("delete-entry")

    def action_toggle_target(self) -> None:
        """t: the other entry file's pane, and the target with it."""
        self.target = "user" if self.target == "self" else "self"
        self.query_one(HomePane).focus_entries(MEMORY_TARGETS[self.target])

    def action_toggle_warnings(self) -> None:
        """w: every file's warnings in full, or folded back to one
        row each; at narrow widths Home comes to the front first."""
        self._warnings_unfolded = not self._warnings_unfolded
        self.activate("home")
        fold_key = next(shown_key(key, self.keymap) for key in NOTEBOOK_KEYS if key.id == "toggle-warnings")
        self.query_one(HomePane).unfold_warnings(self._warnings_unfolded, fold_key)

    def action_toggle_target_in_form(self) -> None:
        self.target = "user" if self.target == "self" else "self"

    def action_pick_file(self, position: int) -> None:
        """1–7: a bootstrap file in load order, in its pane (the Home tab at narrow widths)."""
        self.activate("home")
        self.query_one(HomePane).pick(file_at(position))

    def action_close_form(self) -> None:
        if self.finding:
            self._close_find()
        elif self.form.request_close():
            self._close_form()

    def action_form_field(self, step: int) -> None:
        """Tab: within the form while it is open (so letters never turn into commands), else Textual's focus order."""
        if self.form.is_open:
            self.form.focus_field(step)
        elif step > 0:
            self.focus_next()
        else:
            self.focus_previous()

    def action_submit(self) -> None:
        if self.form.is_open:
            self.form.request_submit()

    def action_next_session(self) -> None:
        if self.state is not None:
            marks = self.state.comparison.next_doc.marks
            self._landed = min((line for line, mark in marks.items() if mark is Mark.ADDED), default=None)
        if self.narrow:
            self.activate("current")
        run_once(self, "advance", self.notebook.advance, done=self._started, failed=self._read_failed)
