"""The notebook's one working screen: the home, Current and Next session, the form.

It wires widgets to the :class:`~notebook_app.app.view_model.notebook.Notebook`: every read,
write, dry run and session start runs in a worker (:mod:`...workers`) that a
controller the screen holds owns, each with its state: find (:mod:`.find`),
the form's round trip (:mod:`.form`), the next session and the host in view
(:mod:`.sessions`), file edits (:mod:`.edits`), the watchers (:mod:`.watch`),
the doctor's look and blame (:mod:`.tools`). Messages come up to handlers
here, from the widgets and from the controllers alike; the screen alone
touches its widgets, with plain attributes and method calls. Controllers get
what they need as arguments and never see a widget; nothing gets the app.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Header

from notebook_app.app.keymap import shown_key
from notebook_app.app.keys import NOTEBOOK_KEYS, bindings
from notebook_app.app.screens.main.edits import EditorLauncher, FileEdits
from notebook_app.app.screens.main.find import HomeFind
from notebook_app.app.screens.main.form import AFTER_RESULT, NO_ENTRY, FormRoundTrip, form_allows, prefill
from notebook_app.app.screens.main.sessions import SessionsShown
from notebook_app.app.screens.main.tools import BlameGutter, HealthLine
from notebook_app.app.screens.main.watch import MOVED_BANNER, HomeWatch
from notebook_app.app.screens.panes import PaneScreen
from notebook_app.app.view_model.dry_run import Selection
from notebook_app.app.view_model.file_rows import OneTarget, next_target
from notebook_app.app.view_model.finding import SESSION_PLACES, past_the_end, place_label
from notebook_app.app.view_model.notebook import HomeState, Notebook, opening_notice
from notebook_app.app.watchers.folder import SessionsChanged
from notebook_app.app.watchers.home import HomeWatcher
from notebook_app.app.widgets.common import line_view, pane_tabs, status_line
from notebook_app.app.widgets.common.banner import Banner
from notebook_app.app.widgets.common.key_footer import KeyFooter
from notebook_app.app.widgets.common.pane_tabs import Tab
from notebook_app.app.widgets.common.status_line import StatusLine
from notebook_app.app.widgets.find import find_bar
from notebook_app.app.widgets.find.find_bar import FindBar, FindRow
from notebook_app.app.widgets.form import action_form
from notebook_app.app.widgets.form.action_form import ActionForm
from notebook_app.app.widgets.home import home_pane
from notebook_app.app.widgets.home.home_pane import HomePane
from notebook_app.app.widgets.session import session_pane
from notebook_app.app.widgets.session.session_pane import SessionPane, present
from notebook_app.app.workers import LatestWins
from notebook_app.core.home.reading import MEMORY_TARGETS
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.memory.edits.entry_plan import EntryPlan
from notebook_app.core.memory.results import ToolResult, for_people

if TYPE_CHECKING:
    from notebook_app.core.home.search import Hit

TARGET_OF = {name: target for target, name in MEMORY_TARGETS.items()}
"""Entry file -> the memory tool's target naming it (``MEMORY.md`` -> ``self``)."""


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
    """The memory tool's target: which of the host's entry files an add writes, marked in the Home column."""

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
        # The controllers: each runs its workers on this screen and posts what they bring back to it.
        self.find = HomeFind(self)
        self.edits = FileEdits(self, notebook, watch=watch, run_editor=run_editor)
        self.watching = HomeWatch(self, notebook, watch=watch)
        self.health = HealthLine(self, notebook)
        self.blame = BlameGutter(self, notebook, clock)
        self.sessions = SessionsShown(self, notebook)
        self.round_trip = FormRoundTrip(self, notebook)

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
        yield FindRow()  # no controls: the bar's messages come up to the handlers here
        yield KeyFooter(compact=True)

    @on(events.Mount)
    def _mounted(self) -> None:
        self.sub_title = self.home_label
        shown = self.shown_keys = {key.id: shown_key(key, self.keymap) for key in NOTEBOOK_KEYS}
        self.form.show_keys(apply=shown["submit"], close=shown["close-form"], target=shown["toggle-target-form"])
        self.watch_target(self.target)
        home = self.home
        home.unfold_warnings(False, shown["toggle-warnings"])
        home.focus_entries()
        first = self.notebook.take_first_state()
        if first is None:
            self._reads.request()
        else:
            self._read_done(first)  # read while Textual loaded: the first frame already shows the home
        if self.notebook.opened_as is not None:  # opened as a host: Current and Next as its installed release has them
            self.sessions.use_installed(self.notebook.opened_as)
        if self.notebook.opening_words:
            title, words = opening_notice(self.notebook.opening_words)
            self.notify(words, title=title, markup=False, timeout=8)

    @on(events.Unmount)
    def _unmounted(self) -> None:
        self.watching.stop()

    # --- the screen's widgets: only the screen touches them -----------------------

    @property
    def form(self) -> ActionForm:
        return self.query_one(ActionForm)

    @property
    def home(self) -> HomePane:
        return self.query_one(HomePane)

    @property
    def find_bar(self) -> FindBar:
        return self.query_one(FindBar)

    def session_pane(self, side: str) -> SessionPane:
        """``current`` or ``next``."""
        return self.query_one(f"#{side}", SessionPane)

    @property
    def is_typing(self) -> bool:
        """The form is open: letter keys type (or do nothing), they never act as commands."""
        return self.form.is_open

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return form_allows(action, self.form, finding=self.find_bar.is_open)

    def focus_pane(self, pane: str) -> None:
        if pane == "home":
            self.home.focus_files()
        else:
            self.session_pane(pane).focus_view()

    def read_again(self) -> None:
        """Read the home again (back from a view that may have written): the doctor's check follows the read."""
        self._reads.request()

    def back_from_doctor(self, place: tuple[str, int] | None) -> None:
        """Show the finding's line chosen in the doctor, and look again (a fix may have landed)."""
        self._reads.request()
        if place is not None:
            self.activate("home")
            self.home.pick(*place)

    # --- reads of the home ---------------------------------------------------------

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
        home = self.home
        home.show_state(state)
        self._show_sessions()
        self._request_dry_run()
        self._refind()
        self.blame.refresh(home.document)
        self.health.after_read()
        return True

    def _show_sessions(self) -> None:
        """Current and Next of the state shown; while the form is open, Next previews what it would do."""
        state = self.state
        if state is None:
            return
        dry = self.round_trip.dry_run_for(state, form_open=self.form.is_open)
        number = state.current.number
        current_meta = f"#{number} · began {self.clock(state.current.taken_at)}"
        current, upcoming = self.session_pane("current"), self.session_pane("next")
        if dry is not None and dry.comparison is not None and not isinstance(dry.outcome, Rejection):
            outcome = dry.outcome
            doing = outcome.label if isinstance(outcome, EntryPlan) else outcome.request.action
            present(
                current,
                upcoming,
                dry.comparison,
                current_meta=current_meta,
                next_meta=f"#{number + 1} · preview + {doing}",
                next_kind="dry-run",
                next_short=f"#{number + 1} · + {doing}",
            )
        else:
            present(
                current,
                upcoming,
                state.comparison,
                current_meta=current_meta,
                next_meta=f"#{number + 1} · if it began now",
                next_short=f"#{number + 1} · as of now",  # beside a long badge at 100 columns
            )

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
        banner = self.query_one(Banner)
        if event.gone:
            banner.say(MOVED_BANNER.format(home=self.home_label))
            self.notify("The home directory was moved or removed.", title="home", severity="error", markup=False)
        else:
            banner.clear()
            self.notify("The home directory is back.", title="home")
        self._reads.request()  # moved: the same state, saying that writes are refused; back: read again
        self.health.look_again()  # the health line says it too

    # --- the doctor's look and blame -------------------------------------------------

    @on(HealthLine.Checked)
    def _health_checked(self, event: HealthLine.Checked) -> None:
        """The doctor's verdict and the review queue: the health line, the flagged lines, a notice of new proposals."""
        report, pending = event.report, event.pending
        if event.more:
            key = self.shown_keys["review"]
            self.notify(
                f"{pending} proposal{'s' if pending != 1 else ''} to review — {key}", title="review", markup=False
            )
        worst = max((f.severity for f in report.problems), key=lambda s: s.rank, default=None)
        self.query_one(StatusLine).show_health(
            report.headline(3), worst=worst.value if worst else None, key=self.shown_keys["doctor"], pending=pending
        )
        names = {f.file for f in report.findings if f.file is not None}
        self.home.show_findings(
            {name: {line: sev.value for line, sev in report.lines_with_findings(name).items()} for name in names}
        )

    @on(HealthLine.Failed)
    def _health_failed(self, event: HealthLine.Failed) -> None:
        self.query_one(StatusLine).show_health(f"the doctor could not finish: {event.words}", worst="warning")

    @on(BlameGutter.Blamed)
    def _blamed(self, event: BlameGutter.Blamed) -> None:
        if self.blame.shown:  # not turned off since
            self.home.show_blame(event.labels)

    @on(BlameGutter.Failed)
    def _blame_failed(self, event: BlameGutter.Failed) -> None:
        """Said in the banner, and the gutter goes off. The next read that succeeds clears it."""
        self.home.show_blame(None)
        self.query_one(Banner).say(f"⚠ Could not show who wrote each line: {event.words}. b tries again.")

    # --- the sessions and the host in view ----------------------------------------

    @on(SessionsShown.Started)
    def _session_started(self, event: SessionsShown.Started) -> None:
        if self._apply(event.state):
            self.notify(
                f"Session #{event.state.current.number} started from what is on disk now.", title="next session"
            )
            if event.landed is not None:
                # after the next layout: at narrow widths the pane has only just been shown
                self.call_after_refresh(self.session_pane("current").reveal_line, event.landed)

    @on(SessionsShown.HostUsed)
    def _host_used(self, event: SessionsShown.HostUsed) -> None:
        self.session_pane("current").border_title = event.current_title
        self.session_pane("next").border_title = event.next_title
        self._apply(event.state)
        self.sessions.in_view(event.name, event.kind, remember=event.remember)

    @on(SessionsShown.Installed)
    def _host_installed(self, event: SessionsShown.Installed) -> None:
        """The header names the release of the home's host installed here, beside the host's name where the label
        has it (so that 80 columns show it); a release no golden proves is said once, in words."""
        host, label = event.host, self.home_label
        named = f"{host} {event.release}"
        self.sub_title = f"{named}{label[len(host) :]}" if label.startswith(f"{host} · ") else f"{named} · {label}"
        if event.sentence is not None:
            self.notify(event.sentence, title="host release", markup=False, timeout=12)

    @on(SessionsShown.Failed)
    def _sessions_read_failed(self, event: SessionsShown.Failed) -> None:
        self._read_failed(event.words)

    # --- file edits ------------------------------------------------------------------

    @on(FileEdits.Applied)
    def _edit_applied(self, event: FileEdits.Applied) -> None:
        self._apply(event.state)

    @on(FileEdits.Back)
    def _edit_back(self) -> None:
        self._reads.request()

    # --- the form ----------------------------------------------------------------

    def _request_dry_run(self) -> None:
        if self.state is not None and self.form.is_open:
            self.round_trip.request_dry_run(self.state, self.form.args)

    @on(ActionForm.Changed)
    def _form_changed(self) -> None:
        self.round_trip.changed()
        self._request_dry_run()

    @on(ActionForm.Submitted)
    def _form_submitted(self, message: ActionForm.Submitted) -> None:
        refused = self.watching.refusal(self.home_label)
        if refused is not None:  # the core would refuse it: say so in its words, without a worker
            self.form.show_status("error", refused)
            return
        self.round_trip.submit(message.args)

    @on(FormRoundTrip.DryRunDone)
    def _dry_run_done(self, event: FormRoundTrip.DryRunDone) -> None:
        form, state, dry = self.form, self.state, event.dry
        if not form.is_open or dry.args != form.args or state is None or dry.seq != state.seq:
            return  # stale: a newer one is due, or the form closed
        status = self.round_trip.took(dry, form.status[0])
        if form.awaiting is None and status is not None:
            form.show_status(*status)
        self._show_sessions()

    @on(FormRoundTrip.Said)
    def _form_said(self, event: FormRoundTrip.Said) -> None:
        self.form.show_status(event.kind, event.words)

    @on(FormRoundTrip.Written)
    def _written(self, event: FormRoundTrip.Written) -> None:
        result, state, secret = event.result, event.state, event.secret
        if result.is_error:
            near = result.near if isinstance(result, ToolResult) else None  # the core's words, as the CLI says them
            self.form.show_status("error", result.output + (f"; {near}" if near else ""))
            self._apply(state)
            return
        self._close_form(present=False)  # the new state is presented once, below: not the old one first
        said, unkept = for_people(result.output, result.unrecorded), result.unrecorded is not None
        notify = self.notify
        self.set_timer(
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
            self.set_timer(
                AFTER_RESULT,
                lambda: notify(f"⚠ {secret}", title="secret", severity="warning", markup=False, timeout=10),
            )
        if not self._apply(state):
            self._show_sessions()

    def _open_form(self, action: str) -> None:
        home = self.home
        if self.edits.refused(home.selected_file):  # the host's own file: no form opens
            return
        selection = prefill(home.selected_line if action != "add" else None)
        text = selection.text if selection is not None else ""
        if selection is not None:
            self.target = TARGET_OF[selection.filename]
        self._before_form(selection)
        self.form.open(action, text, text if action == "replace" else "")
        self.call_after_refresh(self._keep_sessions_clear)

    def _open_entry_form(self, action: str) -> None:
        home = self.home
        selected = home.selected_line
        if selected is None:  # on the host's own file (CLAUDE.md): why it is never written here
            self.notify(self.edits.refusal(home.selected_file, NO_ENTRY), title="entry", markup=False)
            return
        self._before_form(None)
        self.form.open_entry(action, *selected)
        self.call_after_refresh(self._keep_sessions_clear)

    def _before_form(self, selection: Selection | None) -> None:
        self._close_find(refocus=False)
        self.round_trip.opened(selection)
        # its target is a § store or not (its host's dialect, or what its content shows), which its fields say
        self.form.whole_entries = self.round_trip.whole_entries(self.form.target, self.state)
        if self.narrow:
            self.activate("next")  # the dry run is what a person typing needs to see
        self.call_after_refresh(self.refresh_bindings)

    @on(ActionForm.Resized)
    def _keep_sessions_clear(self) -> None:
        """The form lies over the panes' bottom rows; Next, where its dry run shows, and Current, opened at the same
        place, end above it."""
        for side in SESSION_PLACES:
            self.session_pane(side).keep_clear_of(self.form.outer_size.height if self.form.is_open else 0)

    def _close_form(self, *, present: bool = True) -> None:
        self.form.close()
        self._keep_sessions_clear()
        self.round_trip.closed()
        self.action_show_pane("next") if self.narrow else self.home.focus_entries()  # narrow: Next, where it shows
        if present:
            self._show_sessions()
        self.set_timer(AFTER_RESULT, self.refresh_bindings)

    # --- the target ----------------------------------------------------------------

    def watch_target(self, target: str) -> None:
        """The form writes to it; its pane is marked, and it is said under the Home column."""
        self.form.target = target
        home = self.home
        home.mark_target(MEMORY_TARGETS[target])
        home.border_subtitle = f"target: {target} → {MEMORY_TARGETS[target]}"

    @on(HomePane.EntryFileViewed)
    def _entry_file_viewed(self, event: HomePane.EntryFileViewed) -> None:
        """The target follows the entry file a person looks at."""
        if not self.form.is_open:
            self.target = TARGET_OF[event.name]

    def _cycle_target(self, *, focus: bool) -> None:
        """The host's next entry file becomes the target (its pane focused, with ``focus``); one entry file: said."""
        target = next_target(self.notebook.files.order, self.target)
        if isinstance(target, OneTarget):
            self.notify(target.words, title="target", markup=False)
            return
        self.target = target
        if focus:
            self.home.focus_entries(MEMORY_TARGETS[target])

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
        self._cycle_target(focus=True)

    def action_toggle_warnings(self) -> None:
        """w: every file's warnings in full, or folded back to one row each; at narrow widths Home comes to the front
        first.
        """
        self.activate("home")
        self.home.toggle_warnings(self.shown_keys["toggle-warnings"])

    def action_toggle_target_in_form(self) -> None:
        self._cycle_target(focus=False)

    def action_pick_file(self, position: int) -> None:
        """1–9: the Nth file the host loads, in its order, in its pane (the Home tab at narrow widths)."""
        home = self.home
        name = home.file_at(position)
        if name is None:
            self.notify(
                f"the list has {home.file_count} files: there is no file {position}", title="files", markup=False
            )
            return
        self.activate("home")
        home.pick(name)

    def action_close_form(self) -> None:
        if self.find_bar.is_open:
            self._close_find()
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
        home = self.home
        if not self.blame.toggle(home.document):
            home.show_blame(None)

    def action_edit_file(self) -> None:
        self.edits.edit_here(self.home.selected_file)

    def action_open_editor(self) -> None:
        self.edits.edit_outside(self.home.selected_file)

    def action_use_host(self, name: str) -> None:
        self.sessions.choose_host(name)

    def action_hosts_left_out(self) -> None:
        self.sessions.say_hosts_left_out()

    def action_use_session_kind(self, kind: str) -> None:
        self.sessions.use_session_kind(kind)

    # --- find: the bar's messages come up here; the controller counts, the screen shows --------

    def action_find(self) -> None:
        """/: open the find bar (again: back into it), searching what it still holds."""
        self.find_bar.open("find")
        self._search()

    def action_go_to_line(self) -> None:
        """ctrl+g: open the bar asking for a line of the selected place."""
        place = self.find.selected_place
        self.find_bar.open("line", note=f"{place_label(place)}: 1–{self._lines_in(place):,}")
        self._paint_matches()

    def _lines_in(self, place: str) -> int:
        if place in SESSION_PLACES:
            return self.session_pane(place).line_count
        return self.home.lines_in(place)

    def _search(self) -> None:
        """Count the matches of what is typed (in a worker); nothing to count: the matches go now."""
        if not self.find.search(self.state, self.find_bar.typed):
            self._paint_matches()

    def _refind(self) -> None:
        """A new state of the home was read: count again while find is open."""
        bar = self.find_bar
        if bar.is_open and bar.mode == "find":
            self._search()

    @on(FindBar.Changed)
    def _find_changed(self, event: FindBar.Changed) -> None:
        event.stop()
        self._search()

    @on(HomeFind.Counted)
    def _found(self, event: HomeFind.Counted) -> None:
        steps, bar = self.find.steps, self.find_bar
        shown = steps.hit
        if not bar.is_open or not steps.accept(event.outcome, bar.typed):
            return  # stale: the bar closed, or a newer query is on its way
        self._go_to(shown)

    @on(HomeFind.Failed)
    def _find_failed(self, event: HomeFind.Failed) -> None:
        self.find_bar.show_count(f"find failed: {event.words}", missing=True)

    @on(FindBar.Stepped)
    def _find_stepped(self, event: FindBar.Stepped) -> None:
        """The next (1) or previous (-1) match among those counted."""
        event.stop()
        shown = self.find.steps.hit
        if self.find.steps.step(self.find_bar.typed, event.step) is not None:
            self._go_to(shown)

    @on(FindBar.LineChosen)
    def _line_chosen(self, event: FindBar.LineChosen) -> None:
        """The line chosen (from 1) in the selected place, clamped to it and said when it is past the end."""
        event.stop()
        line, place = event.line, self.find.selected_place
        last = self._lines_in(place)
        self.find_bar.close()
        if last:
            self._show_line(place, min(max(1, line), last) - 1, focus=True)
        if line > last:
            self.notify(past_the_end(line, last), markup=False)

    @on(FindBar.Closed)
    def _find_closed(self, event: FindBar.Closed) -> None:
        event.stop()
        self._close_find()

    def _go_to(self, shown: Hit | None) -> None:
        """Show the match found (``shown`` was the one before): its file picked in the Home column, or its session pane,
        scrolled to its line.
        """
        hit = self.find.steps.hit
        if hit is not None:
            self.find.selected_place = hit.place
            if shown is None or (shown.place, shown.line) != (hit.place, hit.line):
                self._show_line(hit.place, hit.line, focus=False)  # a longer query on the same line: nothing moves
        self._paint_matches()

    def _show_line(self, place: str, line: int, *, focus: bool) -> None:
        if place in SESSION_PLACES:
            self.activate(place)
            pane = self.session_pane(place)
            self.call_after_refresh(pane.reveal_line, line)  # narrow: the pane has only just been shown
            if focus:
                pane.focus_view()
        else:
            self.activate("home")
            self.home.pick(place, line + 1, focus=focus)

    def _paint_matches(self) -> None:
        steps, bar = self.find.steps, self.find_bar
        hit, query = steps.hit, steps.query()
        finding = bar.is_open and bar.mode == "find"
        spans = query.spans if finding and query is not None else None
        current = (hit.line, hit.start, hit.end) if hit is not None and spans is not None else None
        place = hit.place if hit is not None else None
        self.home.show_matches(spans, place, current)
        for side in SESSION_PLACES:
            self.session_pane(side).show_matches(spans, current if place == side else None)
        if finding:
            words = steps.words(bar.typed)
            bar.show_count(words, missing=words == "no matches")

    def _close_find(self, *, refocus: bool = True) -> None:
        """Hide the bar and its highlights; back in the selected file (not when a form opens instead)."""
        bar = self.find_bar
        if not bar.is_open:
            return
        bar.close()
        self._paint_matches()
        if refocus:
            place = self.find.selected_place
            if place in SESSION_PLACES:
                self.session_pane(place).focus_view()
            else:
                self.home.pick(place)

    @on(events.DescendantFocus)
    def _focus_moved(self, event: events.DescendantFocus) -> None:
        """The view a person moves into is the selected file go to line acts on."""
        widget: Widget = event.widget
        place = self.home.file_of(widget)
        if place is None:
            place = next((side for side in SESSION_PLACES if self.session_pane(side).holds(widget)), None)
        if place is not None:
            self.find.selected_place = place
