"""The notebook's one working screen: the home, Current and Next session, the form.

It wires widgets to the :class:`~notebook_app.app.model.Notebook`: every read,
write, dry run and session start runs in a worker thread and comes back as a
message; widgets get plain attributes and method calls, never the app.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Footer, Header, Static
from textual.worker import Worker

from ...core import MEMORY_TARGETS, Edit, EntryPlan, SpliceResult, ToolResult
from ..failures import worker_failure
from .keyed import KeyedScreen
from ..keymap import shown_key
from ..keys import NOTEBOOK_KEYS, bindings
from ..documents import Mark
from ..dry_run import DryRun, dry_run
from ..model import HomeState, Notebook
from ..watcher import HomeWatcher
from ..widgets.common import line_view, pane_tabs
from ..widgets.common.pane_tabs import PaneTabs, Tab
from ..widgets.form import action_form
from ..widgets.form.action_form import ActionForm
from ..widgets.home import home_pane
from ..widgets.home.entry_view import EntryView
from ..widgets.home.home_pane import HomePane
from ..widgets.session import session_pane
from ..widgets.session.session_pane import SessionPane, change_badge

NARROW_BELOW = 100
"""Columns below which the three panes do not fit side by side: one shows at a time, with tabs."""

PANE_TABS = (Tab("home", "Home", "f2"), Tab("current", "Current", "f3"), Tab("next", "Next", "f4"))

FORM_ONLY = {"close_form", "submit", "toggle_target_in_form"}
NOT_WHILE_FORM_OPEN = {"add", "replace", "remove", "edit_entry", "delete_entry", "toggle_target", "next_session", "agent_sessions"}


class MainScreen(KeyedScreen):
    """What the running session loaded, what is on disk, what loads next."""

    CSS_PATH = [line_view.TCSS, pane_tabs.TCSS, home_pane.TCSS, session_pane.TCSS, action_form.TCSS, Path(__file__).with_name("main.tcss")]
    KEYS = NOTEBOOK_KEYS
    BINDINGS = bindings(KEYS)

    target: reactive[str] = reactive("self", init=False)

    @dataclass
    class StateRead(Message, bubble=False):
        state: HomeState
        started: bool = False

    @dataclass
    class Written(Message, bubble=False):
        result: ToolResult | SpliceResult
        state: HomeState

    @dataclass
    class DryRunDone(Message, bubble=False):
        dry: DryRun

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
        self.keymap = dict(keymap or {})
        self.notebook = notebook
        self.watch_home = watch
        self.home_label = home_label
        self.clock = clock
        self.state: HomeState | None = None
        self.dry: DryRun | None = None
        self.home_missing = False
        self._prefill: tuple[str, str, int] | None = None
        self._watcher: HomeWatcher | None = None
        self._watch_requested = False
        self._typed_since_status = False
        """Whether the form changed since the tool last answered; until then its answer stays."""
        self._refreshing = self._refresh_again = False
        self._dry_running = self._dry_again = False
        self._landed: int | None = None
        """The first line Next added when ``n`` was pressed: Current scrolls there once it is the new snapshot."""

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        yield Static("", id="home-banner", markup=False)
        yield PaneTabs(PANE_TABS, id="pane-tabs")
        with Horizontal(id="panes"):
            yield HomePane(id="home", classes="-active")
            yield SessionPane("Current session", id="current")
            yield SessionPane("Next session", id="next")
        yield ActionForm(id="form")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.sub_title = self.home_label
        shown = {key.id: shown_key(key, self.keymap) for key in NOTEBOOK_KEYS}
        self.form.show_keys(apply=shown["submit"], close=shown["close-form"], target=shown["toggle-target-form"])
        self.watch_target(self.target)
        self.query_one(EntryView).focus()
        first = self.notebook.take_first_state()
        if first is None:
            self._refresh()
        else:
            self._apply(first)  # read while Textual loaded: the first frame already shows the home
            self._watch()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < NARROW_BELOW, "-narrow")

    @property
    def narrow(self) -> bool:
        return self.has_class("-narrow")

    def _activate(self, pane: str) -> None:
        """At narrow widths, show ``pane`` (home, current or next) and hide the other two."""
        for candidate in ("home", "current", "next"):
            self.query_one(f"#{candidate}").set_class(candidate == pane, "-active")
        self.query_one(PaneTabs).activate(pane)

    def on_unmount(self) -> None:
        if self._watcher is not None:
            self._watcher.stop()

    @property
    def form(self) -> ActionForm:
        return self.query_one(ActionForm)

    @property
    def is_typing(self) -> bool:
        """The form is open: letter keys type (or do nothing), they never act as commands."""
        return self.form.is_open

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in FORM_ONLY:
            return self.form.is_open
        if action in NOT_WHILE_FORM_OPEN:
            return not self.form.is_open
        return True

    # --- workers: all file work happens here, off the event loop -------------
    # Each names its description: Textual would otherwise repr() the arguments,
    # a 2 MiB home state, on the event loop every time a worker starts.
    # Refreshes and dry runs are coalesced: while one runs, requests only mark
    # that one more is due, so a burst of writes or keys never queues threads.

    def _refresh(self) -> None:
        if self._refreshing:
            self._refresh_again = True
            return
        self._refreshing = True
        self._load(advance=False)

    def _request_dry_run(self) -> None:
        if self.state is None or not self.form.is_open:
            return
        if self._dry_running:
            self._dry_again = True
            return
        self._dry_running = True
        self._dry_run(self.state, self.form.args)

    @work(thread=True, group="home", description="read the home", exit_on_error=False)
    def _load(self, advance: bool) -> None:
        state = self.notebook.advance() if advance else self.notebook.refresh()
        self.post_message(self.StateRead(state, started=advance))

    @work(thread=True, group="write", description="memory tool call", exit_on_error=False)
    def _write(self, args: dict[str, str]) -> None:
        result, state = self.notebook.write(args)
        self.post_message(self.Written(result, state))

    @work(thread=True, group="dry-run", description="dry run", exit_on_error=False)
    def _dry_run(self, state: HomeState, args: dict[str, str]) -> None:
        self.post_message(self.DryRunDone(dry_run(state, args)))

    # --- results -------------------------------------------------------------

    @on(StateRead)
    def _state_read(self, message: StateRead) -> None:
        if not message.started:
            self._refreshing = False
            if self._refresh_again:
                self._refresh_again = False
                self._refresh()
        if self._apply(message.state) and message.started:
            self.notify(f"Session #{message.state.current.number} started from what is on disk now.", title="next session")
            if self._landed is not None:
                # after the next layout: at narrow widths the pane has only just been shown
                self.call_after_refresh(self.query_one("#current", SessionPane).reveal_line, self._landed)
        if message.started:
            self._landed = None
        self._watch()

    def _watch(self) -> None:
        """Start the watcher once the state just read is painted: its start-up delays no frame."""
        if self.watch_home and not self._watch_requested:
            self._watch_requested = True
            self.call_after_refresh(self._start_watcher)

    def _start_watcher(self) -> None:
        if self.is_mounted and self._watcher is None:
            self._watcher = HomeWatcher(self.notebook.home, self, self.notebook.known_digest)
            self.run_worker(self._watcher.run(), group="watch", exit_on_error=False)

    @on(Written)
    def _written(self, message: Written) -> None:
        result = message.result
        if result.is_error:
            self.form.show_status("error", result.output)
        else:
            self.form.show_status("ok", result.output)
            self._close_form()
            self.notify(result.output, title="memory", markup=False, timeout=4)
        self._apply(message.state)

    @on(DryRunDone)
    def _dry_run_done(self, message: DryRunDone) -> None:
        self._dry_running = False
        if self._dry_again:
            self._dry_again = False
            self._request_dry_run()
        dry = message.dry
        if not self.form.is_open or dry.args != self.form.args or self.state is None or dry.seq != self.state.seq:
            return
        self.dry = dry
        if self.form.awaiting is None and (self.form.status[0] not in ("error", "ok") or self._typed_since_status):
            self._show_dry_run_status(dry)
        self._show_sessions()

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
        return True

    def _show_sessions(self) -> None:
        state = self.state
        if state is None:
            return
        current = state.current
        dry = self.dry if self.form.is_open and self.dry is not None and self.dry.seq == state.seq else None
        showing_dry = dry is not None and dry.next_doc is not None
        diff = dry.diff if showing_dry and dry.diff is not None else state.diff
        current_doc = dry.current_doc if showing_dry and dry.current_doc is not None else state.current_doc
        next_doc = dry.next_doc if showing_dry and dry.next_doc is not None else state.next_doc
        self.query_one("#current", SessionPane).show(f"#{current.number} · began {self.clock(current.taken_at)}", "frozen", "frozen", current_doc)
        if showing_dry:
            outcome = dry.outcome
            doing = outcome.label if isinstance(outcome, EntryPlan) else outcome.request.action
            meta, kind = f"#{current.number + 1} · preview + {doing}", "dry-run"
        else:
            meta, kind = f"#{current.number + 1} · if it began now", "sync" if diff.in_sync else "pending"
        self.query_one("#next", SessionPane).show(meta, change_badge(current_doc, next_doc), kind, next_doc)

    def _show_dry_run_status(self, dry: DryRun) -> None:
        outcome = dry.outcome
        if isinstance(outcome, EntryPlan):
            self._show_entry_status(outcome)
            return
        if not isinstance(outcome, Edit):
            typed = str(dry.args.get("text", "")).strip()
            self.form.show_status("flag" if typed else "hint", outcome.message if typed else "type the text; enter applies it")
            return
        request = outcome.request
        where = f"line {dry.edit_line + 1} of {request.filename}" if dry.edit_line is not None else request.filename
        if request.action == "replace" and not request.replacement:
            self.form.show_status("flag", f"dry run: deletes “{request.text}” (with is empty), {where}; enter asks to confirm")
            return
        verb = {"add": "appends at", "replace": "replaces the first match, on", "remove": "removes the first match, on"}[request.action]
        loads = outcome.outcome or "loads next session"
        message = f"dry run: {verb} {where}; {loads}"
        prefill = self._prefill
        if (
            prefill is not None
            and request.action != "add"
            and prefill[0] == request.filename
            and prefill[1] == request.text
            and dry.edit_line is not None
            and dry.edit_line != prefill[2]
        ):
            self.form.show_status(
                "flag", f"the first match is on line {dry.edit_line + 1}, not the selected line {prefill[2] + 1}: the tool changes the first one"
            )
            return
        self.form.show_status("flag" if loads.startswith("will not load") else "hint", message)

    def _show_entry_status(self, plan: EntryPlan) -> None:
        if plan.label.startswith("delete"):
            self.form.show_status("flag", f"dry run: deletes line {plan.line} of {plan.name}, its line ending too; enter deletes it, esc keeps it")
        elif not plan.changes:
            self.form.show_status("hint", f"line {plan.line} of {plan.name} already reads so; type its new text")
        else:
            self.form.show_status("hint", f"dry run: edits line {plan.line} of {plan.name} in place; enter applies it")

    # --- the watcher -----------------------------------------------------------

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        """Any failed worker becomes a visible state where its result would have shown."""
        failure = worker_failure(event)
        if failure is None:
            return
        words = failure.words
        if failure.group == "watch":
            self.notify(f"Stopped watching the home for other writers: {words}", title="watcher", severity="error", markup=False)
        elif failure.group == "home":
            self._refreshing = False
            shown = "Showing the last state read." if self.state is not None else "Nothing can be shown until it can be read."
            self._show_banner(f"⚠ Could not read the home: {words}. {shown}")
        elif failure.group == "write":
            self.form.show_status("error", f"the write could not finish: {words}")
        elif failure.group == "dry-run":
            self._dry_running = False
            self.form.show_status("flag", f"the dry run failed: {words}; enter still applies through the tool")
        else:
            self.notify(words, title=f"{failure.group} failed", severity="error", markup=False)

    def _show_banner(self, text: str) -> None:
        banner = self.query_one("#home-banner", Static)
        banner.update(text)
        banner.add_class("-shown")

    @on(HomeWatcher.Changed)
    def _home_changed(self) -> None:
        self._refresh()

    @on(HomeWatcher.HomeMissing)
    def _home_missing(self) -> None:
        self.home_missing = True
        self._show_banner(f"⚠ The home directory is gone: {self.home_label}. Showing the last state read; writes wait until it is back.")
        self.notify("The home directory was removed.", title="home", severity="error", markup=False)
        self._refresh()

    @on(HomeWatcher.HomeBack)
    def _home_back(self) -> None:
        self.home_missing = False
        self.query_one("#home-banner", Static).remove_class("-shown")
        self.notify("The home directory is back.", title="home")
        self._refresh()

    # --- the form ----------------------------------------------------------------

    @on(ActionForm.Changed)
    def _form_changed(self) -> None:
        self._typed_since_status = True
        self._request_dry_run()

    @on(ActionForm.Submitted)
    def _form_submitted(self, message: ActionForm.Submitted) -> None:
        if self.home_missing:
            self.form.show_status("error", f"the home directory is gone ({self.home_label}); nothing was written")
            return
        self._typed_since_status = False
        self._write(message.args)

    def _open_form(self, action: str) -> None:
        self._prefill = None
        text = ""
        selected = self.query_one(HomePane).selected_entry if action != "add" else None
        if selected is not None:
            filename, text = selected
            self.target = next(t for t, f in MEMORY_TARGETS.items() if f == filename)
            cursor = self.query_one(EntryView).cursor
            self._prefill = (filename, text, cursor if cursor is not None else -1)
        self.dry = None
        if self.narrow:
            self._activate("next")  # the dry run is what a person typing needs to see
        self.form.open(action, text, text if action == "replace" else "")
        self._typed_since_status = False
        self.refresh_bindings()

    def _close_form(self) -> None:
        self.form.close()
        self.dry = None
        self._prefill = None
        self.query_one(EntryView).focus()
        self._show_sessions()
        self.refresh_bindings()

    def watch_target(self, target: str) -> None:
        self.form.target = target
        self.query_one(HomePane).border_subtitle = f"target: {target} → {MEMORY_TARGETS[target]}"

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

    def _open_entry_form(self, action: str) -> None:
        selected = self.query_one(HomePane).selected_line
        if selected is None:
            self.notify("Select an entry first: choose MEMORY.md or USER.md and move to a line with the arrows.", title="entry", markup=False)
            return
        name, line, text = selected
        self.dry = None
        self._prefill = None
        if self.narrow:
            self._activate("next")
        self.form.open_entry(action, name, line, text)
        self._typed_since_status = False
        self.refresh_bindings()

    def action_toggle_target(self) -> None:
        self.target = "user" if self.target == "self" else "self"

    def action_toggle_target_in_form(self) -> None:
        self.action_toggle_target()

    def action_close_form(self) -> None:
        if self.form.request_close():
            self._close_form()

    def action_show_pane(self, pane: str) -> None:
        """f2 / f3 / f4: focus a pane; at narrow widths, bring it to the front. Typing keeps its focus."""
        self._activate(pane)
        if self.form.is_open:
            return
        if pane == "home":
            self.query_one(HomePane).focus_files()
        else:
            self.query_one(f"#{pane}", SessionPane).focus_view()

    @on(PaneTabs.Chosen)
    def _tab_chosen(self, event: PaneTabs.Chosen) -> None:
        self.action_show_pane(event.tab)

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
            marks = self.state.next_doc.marks
            self._landed = min((line for line, mark in marks.items() if mark is Mark.ADDED), default=None)
        if self.narrow:
            self._activate("current")
        self._load(advance=True)

    def action_agent_sessions(self) -> None:
        from .agent_sessions import AgentSessionsScreen  # loaded on first use, not at start-up

        self.app.push_screen(AgentSessionsScreen(self.notebook.home, watch=self.watch_home, home_label=self.home_label, clock=self.clock))
