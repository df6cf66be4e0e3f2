"""The notebook's one working screen: the home, Current and Next session, the form.

It wires widgets to the :class:`~notebook_app.app.view_model.notebook.Notebook`: every read,
write, dry run and session start runs in a worker (:mod:`...workers`) and
comes back to a method here or to a controller the screen holds, each owning
its state: find (:mod:`.find`), the form's round trip (:mod:`.form`),
the session panes (:mod:`.sessions`), file edits (:mod:`.edits`),
the watchers (:mod:`.watch`), the health line and blame (:mod:`.tools`).
Messages come up to handlers here; widgets and controllers get plain
attributes and method calls, never the app.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from functools import partial
from pathlib import Path

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import Header

from notebook_app.app.keymap import shown_key
from notebook_app.app.keys import NOTEBOOK_KEYS, bindings
from notebook_app.app.screens.main.edits import EditorLauncher, FileEdits
from notebook_app.app.screens.main.find import HomeFind
from notebook_app.app.screens.main.form import AFTER_RESULT, NO_ENTRY, FormRoundTrip, form_allows, prefill
from notebook_app.app.screens.main.sessions import SessionsShown
from notebook_app.app.screens.main.target import TARGET_OF, TargetShown
from notebook_app.app.screens.main.tools import BlameGutter, HealthLine
from notebook_app.app.screens.main.watch import HomeWatch
from notebook_app.app.screens.panes import PaneScreen
from notebook_app.app.view_model.dry_run import Selection
from notebook_app.app.view_model.notebook import HomeState, Notebook, opening_notice
from notebook_app.app.watchers.folder import SessionsChanged
from notebook_app.app.watchers.home import HomeWatcher
from notebook_app.app.widgets.common import line_view, pane_tabs, status_line
from notebook_app.app.widgets.common.banner import Banner
from notebook_app.app.widgets.common.key_footer import KeyFooter
from notebook_app.app.widgets.common.pane_tabs import Tab
from notebook_app.app.widgets.common.status_line import StatusLine
from notebook_app.app.widgets.find import find_bar
from notebook_app.app.widgets.find.find_bar import FindRow
from notebook_app.app.widgets.form import action_form
from notebook_app.app.widgets.form.action_form import ActionForm
from notebook_app.app.widgets.home import home_pane
from notebook_app.app.widgets.home.home_pane import HomePane
from notebook_app.app.widgets.session import session_pane
from notebook_app.app.widgets.session.session_pane import SessionPane
from notebook_app.app.workers import LatestWins


class MainScreen(PaneScreen):
    """What the running session loaded, what is on disk, what loads next."""

    CSS_PATH = [
        line_view.TCSS,
        pane_tabs.TCSS,
        status_line.TCSS,
        home_pane.TCSS,
        session_pane.TCSS,
        action_form.TCSS,
        find_bar.TCSS,
        Path(__file__).with_name("main.tcss"),
    ]
    KEYS = NOTEBOOK_KEYS
    BINDINGS = bindings(KEYS)
    TABS = (
        Tab("home", "Home", "f2"),
        Tab("current", "Current", "f3", group="sessions"),
        Tab("next", "Next", "f4", group="sessions"),
    )
    # Where the mount puts it: focus elsewhere first restyled the Home column twice.
    AUTO_FOCUS = "#pane-memory EntryView"

    target: reactive[str] = reactive("self", init=False)

    def __init__(
        self,
        notebook: Notebook,
        *,
        watch: bool,
        home_label: str,
        clock: Callable[[datetime], str],
        keymap: Mapping[str, str] | None = None,
        run_editor: EditorLauncher | None = None,
    ) -> None:
        """``run_editor``: how ``o`` runs the outside editor (None: ``$VISUAL``/``$EDITOR``, the app suspended)."""
        super().__init__()
        self.notebook = notebook
        self.home_label = home_label
        self.clock = clock
        self.keymap = dict(keymap or {})
        self.state: HomeState | None = None
        self._reads = LatestWins(self, "home", notebook.refresh, done=self._read_done, failed=self._read_failed)
        self.shown_keys: dict[str, str] = {}  # key id -> the key named on screen, after the keymap (at mount)
        self.find = HomeFind(self, state=lambda: self.state, show_pane=self.activate)
        self.edits = FileEdits(
            self, notebook, watch=watch, applied=self._apply, read_again=self.read_again, run_editor=run_editor
        )
        self.watching = HomeWatch(self, notebook, watch=watch)
        self.health = HealthLine(self, notebook, self.keymap)
        self.blame = BlameGutter(self, notebook, clock, say=lambda text: self.query_one(Banner).say(text))
        self.targets = TargetShown(self, notebook, get=lambda: self.target, put=partial(setattr, self, "target"))
        self.sessions = SessionsShown(self, notebook, clock, apply=self._apply, failed=self._read_failed)
        self.round_trip = FormRoundTrip(
            self,
            notebook,
            state=lambda: self.state,
            refused=lambda: self.watching.refusal(home_label),
            close=lambda: self._close_form(present=False),
            apply=self._apply,
            shown=self._show_sessions,
        )

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        yield StatusLine(id="status-line")
        yield Banner(id="home-banner")
        yield self.pane_tabs()
        with Horizontal(id="panes"):
            # Over the panes' bottom rows, so opening or closing it resizes no pane; first, so that showing
            # or hiding it leaves the panes' stacking order (and so their geometry) as it was: no repaint.
            yield ActionForm(id="form")
            yield HomePane(id="home", classes="-active")
            yield SessionPane("Current session", id="current")
            yield SessionPane("Next session", id="next")
        yield FindRow(self.find)
        yield KeyFooter(compact=True)

    @on(events.Mount)
    def _mounted(self) -> None:
        self.sub_title = self.home_label
        shown = self.shown_keys = {key.id: shown_key(key, self.keymap) for key in NOTEBOOK_KEYS}
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
        if self.notebook.opened_as is not None:  # opened as a host: Current and Next as it loads them
            self.sessions.use_host(self.notebook.opened_as)
        if self.notebook.opening_words:
            title, words = opening_notice(self.notebook.opening_words)
            self.notify(words, title=title, markup=False, timeout=8)

    @on(events.Unmount)
    def _unmounted(self) -> None:
        self.watching.stop()

    @property
    def form(self) -> ActionForm:
        return self.query_one(ActionForm)

    @property
    def is_typing(self) -> bool:
        """The form is open: letter keys type (or do nothing), they never act as commands."""
        return self.form.is_open

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return form_allows(action, self.form, finding=self.find.is_open)

    def focus_pane(self, pane: str) -> None:
        if pane == "home":
            self.query_one(HomePane).focus_files()
        else:
            self.query_one(f"#{pane}", SessionPane).focus_view()

    def read_again(self) -> None:
        """Read the home again (back from a view that may have written): the doctor's check follows the read."""
        self._reads.request()

    def back_from_doctor(self, place: tuple[str, int] | None) -> None:
        """Show the finding's line chosen in the doctor, and look again (a fix may have landed)."""
        self._reads.request()
        if place is not None:
            self.activate("home")
            self.query_one(HomePane).pick(*place)

    # --- results of the workers ------------------------------------------------

    def _read_done(self, state: HomeState) -> None:
        self._apply(state)
        self.watching.start()

    def _read_failed(self, words: str) -> None:
        shown = (
            "Showing the last state read." if self.state is not None else "Nothing can be shown until it can be read."
        )
        self.query_one(Banner).say(f"⚠ Could not read the home: {words}. {shown}")

    def _apply(self, state: HomeState) -> bool:
        if self.state is not None and state.seq <= self.state.seq:
            return False
        if self.state is not None and not self.watching.home_missing:
            self.query_one(Banner).clear()  # a read succeeded again
        elif self.state is None and self.notebook.counter.problem:
            self.notify(self.notebook.counter.problem, title="session numbers", severity="warning", markup=False)
        self.state = state
        self.query_one(HomePane).show_state(state)
        self._show_sessions()
        self.round_trip.request_dry_run()
        self.find.refind()
        self.blame.refresh()
        self.health.after_read()
        return True

    def _show_sessions(self) -> None:
        if self.state is not None:
            self.sessions.present(self.state, self.round_trip.dry_run_for(self.state))

    # --- the watchers ----------------------------------------------------------

    @on(SessionsChanged)
    def _log_changed(self) -> None:
        """Agent activity in the log (a proposal queued, a session started): the health line looks again."""
        if self.state is not None:
            self.health.look_again()

    @on(HomeWatcher.Changed)
    def _home_changed(self) -> None:
        self._reads.request()

    @on(HomeWatcher.HomeMissing)
    @on(HomeWatcher.HomeBack)
    def _home_went_or_came(self) -> None:
        self.watching.check_pin()

    @on(HomeWatch.PinChanged)
    def _pin_changed(self, event: HomeWatch.PinChanged) -> None:
        """The home was moved or removed, or is back: the banner, a notice, a new look."""
        self.watching.announce(event.gone, self.query_one(Banner), self.home_label)
        self._reads.request()  # moved: the same state, saying that writes are refused; back: read again
        self.health.look_again()  # the health line says it too

    # --- the form ----------------------------------------------------------------

    @on(ActionForm.Changed)
    def _form_changed(self) -> None:
        self.round_trip.changed()

    @on(ActionForm.Submitted)
    def _form_submitted(self, message: ActionForm.Submitted) -> None:
        self.round_trip.submit(message.args)

    def _open_form(self, action: str) -> None:
        if self.edits.refused(self.query_one(HomePane).selected_file):  # the host's own file: no form opens
            return
        selection = prefill(self.query_one(HomePane).selected_line if action != "add" else None)
        text = selection.text if selection is not None else ""
        if selection is not None:
            self.target = TARGET_OF[selection.filename]
        self._before_form(selection)
        self.form.open(action, text, text if action == "replace" else "")
        self.call_after_refresh(self._keep_sessions_clear)

    def _open_entry_form(self, action: str) -> None:
        home = self.query_one(HomePane)
        selected = home.selected_line
        if selected is None:  # on the host's own file (CLAUDE.md): why it is never written here
            self.notify(self.edits.refusal(home.selected_file, NO_ENTRY), title="entry", markup=False)
            return
        self._before_form(None)
        self.form.open_entry(action, *selected)
        self.call_after_refresh(self._keep_sessions_clear)

    def _before_form(self, selection: Selection | None) -> None:
        self.find.close(refocus=False)
        self.round_trip.opened(selection)
        if self.narrow:
            self.activate("next")  # the dry run is what a person typing needs to see
        self.call_after_refresh(self.refresh_bindings)

    @on(ActionForm.Resized)
    def _keep_sessions_clear(self) -> None:
        """The form lies over the panes' bottom rows; Next, where its dry run shows, and Current, opened at the same
        place, end above it."""
        for side in ("#current", "#next"):
            self.query_one(side, SessionPane).keep_clear_of(self.form.outer_size.height if self.form.is_open else 0)

    def _close_form(self, *, present: bool = True) -> None:
        self.form.close()
        self._keep_sessions_clear()
        self.round_trip.closed()
        self.action_show_pane("next") if self.narrow else self.query_one(
            HomePane
        ).focus_entries()  # narrow: Next, where the result shows
        if present:
            self._show_sessions()
        self.set_timer(AFTER_RESULT, self.refresh_bindings)

    def watch_target(self, target: str) -> None:
        self.form.target = target
        self.targets.show(target)

    @on(HomePane.EntryFileViewed)
    def _entry_file_viewed(self, event: HomePane.EntryFileViewed) -> None:
        """The target follows the entry file a person looks at."""
        if not self.form.is_open:
            self.targets.follow(event.name)

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
        """t: the host's next entry file's pane, and the target with it."""
        self.targets.cycle(focus=True)

    def action_toggle_warnings(self) -> None:
        """w: every file's warnings in full, or folded back to one row each; at narrow widths Home comes to the front
        first.
        """
        self.activate("home")
        self.query_one(HomePane).toggle_warnings(self.shown_keys["toggle-warnings"])

    def action_toggle_target_in_form(self) -> None:
        self.targets.cycle(focus=False)

    def action_pick_file(self, position: int) -> None:
        """1–9: the Nth file the host loads, in its order, in its pane (the Home tab at narrow widths)."""
        home = self.query_one(HomePane)
        name = home.file_at(position)
        if name is None:
            self.notify(
                f"the list has {home.file_count} files: there is no file {position}", title="files", markup=False
            )
            return
        self.activate("home")
        home.pick(name)

    def action_close_form(self) -> None:
        if self.find.is_open:
            self.find.close()
        elif self.form.request_close():
            self._close_form()

    def action_form_field(self, step: int) -> None:
        """Tab: within the form while it is open (so letters never turn into commands), else Textual's focus order."""
        if not self.form.focus_field(step):
            (self.focus_next if step > 0 else self.focus_previous)()

    def action_submit(self) -> None:
        self.form.request_submit()  # held back by check_action while the form is closed

    def action_next_session(self) -> None:
        if self.narrow:
            self.activate("current")
        self.sessions.start_next(self.state)

    def action_blame(self) -> None:
        self.blame.toggle()

    def action_edit_file(self) -> None:
        self.edits.edit_here(self.query_one(HomePane).selected_file)

    def action_open_editor(self) -> None:
        self.edits.edit_outside(self.query_one(HomePane).selected_file)

    def action_use_host(self, name: str) -> None:
        self.sessions.choose_host(name)

    def action_hosts_left_out(self) -> None:
        self.sessions.say_hosts_left_out()

    def action_use_session_kind(self, kind: str) -> None:
        self.sessions.use_session_kind(kind)

    # --- find: the keys that open the bar (its messages reach the controller through FindRow) -----

    def action_find(self) -> None:
        """/: open the find bar (again: back into it), searching what it still holds."""
        self.find.open_find()

    def action_go_to_line(self) -> None:
        self.find.open_line()

    @on(events.DescendantFocus)
    def _focus_moved(self, event: events.DescendantFocus) -> None:
        self.find.focus_moved(event.widget)
