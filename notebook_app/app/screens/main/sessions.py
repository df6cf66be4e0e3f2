"""The notebook's two session panes: Current and Next as a host loads them, and starting the next session.

:class:`SessionsShown` is a controller the main screen holds: it presents a
home state (or the form's dry run over it) in Current and Next, starts the
next session (``n``) in a worker and scrolls Current to what it added, and
loads the souls as another host would (the palette's host commands): only a
host the home may be previewed as, a release of the host it was opened as
remembered for the folder. Each state a worker reads goes to ``apply``; a
failed read to ``failed``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial

from textual.screen import Screen

from notebook_app.app.view_model.documents import Mark
from notebook_app.app.view_model.dry_run import DryRun
from notebook_app.app.view_model.notebook import HomeState, Notebook
from notebook_app.app.widgets.session.session_pane import SessionPane, present
from notebook_app.app.workers import run_once
from notebook_app.core.memory.edits.entry_plan import EntryPlan
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hostbase.registry import hosts


class SessionsShown:
    """Current and Next of ``notebook``'s home on ``screen``, times said by ``clock``."""

    def __init__(
        self,
        screen: Screen,
        notebook: Notebook,
        clock: Callable[[datetime], str],
        *,
        apply: Callable[[HomeState], bool],
        failed: Callable[[str], None],
    ) -> None:
        self._screen = screen
        self.notebook = notebook
        self.clock = clock
        self._apply = apply
        self._failed = failed
        self._landed: int | None = None
        """The first line Next added when ``n`` was pressed: Current scrolls there once it is the new snapshot."""
        self.host_spec: str | None = None
        """The host Current and Next show, as the palette named it (``NAME[@VERSION]``); None: the contract."""
        self.session_kind: str | None = None
        """OpenClaw's session kind Current and Next show (main, group, channel, subagent, cron); None: not OpenClaw."""

    def _panes(self) -> tuple[SessionPane, SessionPane]:
        return self._screen.query_one("#current", SessionPane), self._screen.query_one("#next", SessionPane)

    def present(self, state: HomeState, dry: DryRun | None) -> None:
        """``state``'s sessions; with ``dry``, Next previews what the form would do."""
        number = state.current.number
        current_meta = f"#{number} · began {self.clock(state.current.taken_at)}"
        current, upcoming = self._panes()
        if dry is not None and dry.comparison is not None:
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

    def start_next(self, state: HomeState | None) -> None:
        """n: the next session begins from what is on disk now; Current will scroll to the first line Next added."""
        if state is not None:
            marks = state.comparison.next_doc.marks
            self._landed = min((line for line, mark in marks.items() if mark is Mark.ADDED), default=None)
        run_once(self._screen, "advance", self.notebook.advance, done=self._started, failed=self._failed)

    def _started(self, state: HomeState) -> None:
        if self._apply(state):
            self._screen.notify(
                f"Session #{state.current.number} started from what is on disk now.", title="next session"
            )
            if self._landed is not None:
                # after the next layout: at narrow widths the pane has only just been shown
                self._screen.call_after_refresh(self._panes()[0].reveal_line, self._landed)
        self._landed = None

    def use_host(self, name: str, kind: str | None = None, *, then: Callable[[], None] | None = None) -> None:
        """Show Current and Next as host ``name`` (``NAME[@VERSION]``) loads them (the palette's host commands);
        for OpenClaw in a ``kind`` session (None: the kind in view, main at first). ``then`` runs once it is in
        view."""
        from notebook_app.core.hosts.choice import resolve_host

        kinds = registered(name).session_kinds
        kind = (kind or self.session_kind or kinds[0]) if kinds else None
        choice = resolve_host(name, session_kind=kind)
        if choice.profile is None:
            self._screen.notify(choice.error or f"no host {name!r}", title="host", severity="error", markup=False)
            return
        profile = choice.profile
        run_once(
            self._screen,
            "home",
            lambda: self.notebook.use_host(profile),
            done=lambda state: self._host_used(state, name, kind, then),
            failed=self._failed,
        )

    def choose_host(self, name: str) -> None:
        """The palette's ``Load as: …``: a host this home may be previewed as; a release of the host it was opened
        as is remembered for the folder once in view, a preview of another host never (docs/hosts.md)."""
        previews = self.notebook.previews
        if not previews.offers(name):
            reason = previews.why_not(name.partition("@")[0]) or f"no host {name!r}"
            self._screen.notify(reason, title="host not offered here", severity="warning", markup=False)
            return
        self.use_host(name, then=partial(self._remember, name) if previews.remembers(name) else None)

    def _remember(self, spec: str) -> None:
        """Keep the chosen release for the folder, in a worker: a write to the user's state, never to the home."""

        def said(problem: str | None) -> None:
            if problem is None:
                self._screen.notify(f"{spec} is remembered for this folder: the next open keeps it", title="host")
            else:
                self._screen.notify(problem, title="host", severity="warning", markup=False)

        failed = lambda words: said(f"the host chosen is not remembered ({words})")  # noqa: E731
        run_once(self._screen, "remember-host", partial(self.notebook.remember_host, spec), done=said, failed=failed)

    def say_hosts_left_out(self) -> None:
        """The palette's note on the hosts it does not offer here, each with its reason."""
        from notebook_app.app.view_model.host_choices import left_out_words

        words = left_out_words(self.notebook.previews)
        if words is not None:
            self._screen.notify(words[1], title="hosts not offered here", markup=False, timeout=15)

    def use_session_kind(self, kind: str) -> None:
        """The palette's OpenClaw session kinds: the OpenClaw in view, its version kept, loads a ``kind`` session."""
        self.use_host(self.host_spec or next(one.id for one in hosts() if one.session_kinds), kind)

    def _host_used(self, state: HomeState, name: str, kind: str | None, then: Callable[[], None] | None) -> None:
        self.host_spec = name
        self.session_kind = kind
        host = state.preview.composition
        title = host.profile.title if host.profile else host.host
        current, upcoming = self._panes()
        # "Current session · as Claude Code loads it" was cut at 100 columns, where a pane is 32 wide, and so is
        # "Current · OpenClaw 2026.4.27": the version and the session kind are in L's header instead
        plain = registered(host.host).fallback
        current.border_title = "Current session" if plain else f"Current · {title}"
        upcoming.border_title = "Next session" if plain else f"Next · {title}"
        self._apply(state)
        if then is not None:
            then()
