"""Starting the next session, and loading the souls as another host would.

:class:`SessionsShown` is a controller the main screen holds: it starts the
next session (``n``) in a worker, remembering where Current should scroll to
what it added, and loads the souls as another host would (the palette's host
commands): only a host the home may be previewed as, a release of the host it
was opened as remembered for the folder. It touches no widget: each state a
worker reads is posted to the node it runs on (:class:`SessionsShown.Started`,
:class:`SessionsShown.HostUsed`), and so is a failed read; the screen presents
Current and Next.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from textual.message import Message
from textual.widget import Widget

from notebook_app.app.view_model.documents import Mark
from notebook_app.app.view_model.notebook import HomeState, Notebook
from notebook_app.app.workers import run_once
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hostbase.registry import hosts

if TYPE_CHECKING:
    from notebook_app.core.hosts.standing import Standing


class SessionsShown:
    """Which host Current and Next of ``notebook``'s home show, and the next session begun; results go to ``node``."""

    @dataclass
    class Started(Message):
        """The next session began: ``state`` read after it; ``landed``, the first line Next had added, if any."""

        state: HomeState
        landed: int | None

    @dataclass
    class HostUsed(Message):
        """``state`` as host ``name`` loads it (in a ``kind`` session), with the panes' titles for it; ``remember``:
        the choice is to be kept for the folder once in view."""

        state: HomeState
        name: str
        kind: str | None
        remember: bool
        current_title: str
        next_title: str

    @dataclass
    class Failed(Message):
        """A read of the home failed, in words."""

        words: str

    @dataclass
    class Installed(Message):
        """The home's host is installed here: ``host`` its title, ``release`` in the header's words (``2.1.338
        (shown as 2.1.337)``), ``sentence`` the stand-in said in words (None: its release is proven)."""

        host: str
        release: str
        sentence: str | None

    def __init__(self, node: Widget, notebook: Notebook) -> None:
        self._node = node
        self.notebook = notebook
        self.host_spec: str | None = None
        """The host Current and Next show, as the palette named it (``NAME[@VERSION]``); None: the contract."""
        self.session_kind: str | None = None
        """OpenClaw's session kind Current and Next show (main, group, channel, subagent, cron); None: not OpenClaw."""
        self.standing_words: str | None = None
        """What ``L`` says of the installed release when its rules stand in for it (None: nothing to say)."""

    def _failed(self, words: str) -> None:
        self._node.post_message(self.Failed(words))

    def start_next(self, state: HomeState | None) -> None:
        """n: the next session begins from what is on disk now; Current will scroll to the first line Next added."""
        landed = None
        if state is not None:
            marks = state.comparison.next_doc.marks
            landed = min((line for line, mark in marks.items() if mark is Mark.ADDED), default=None)
        run_once(
            self._node,
            "advance",
            self.notebook.advance,
            done=lambda read: self._node.post_message(self.Started(read, landed)),
            failed=self._failed,
        )

    def use_host(self, name: str, kind: str | None = None, *, remember: bool = False) -> None:
        """Show Current and Next as host ``name`` (``NAME[@VERSION]``) loads them (the palette's host commands);
        for OpenClaw in a ``kind`` session (None: the kind in view, main at first). With ``remember``, the choice
        is kept for the folder once it is in view (:meth:`in_view`)."""
        from notebook_app.core.hosts.choice import resolve_host  # lazy: a host's loader

        kinds = registered(name).session_kinds
        kind = (kind or self.session_kind or kinds[0]) if kinds else None
        choice = resolve_host(name, session_kind=kind)
        if choice.profile is None:
            self._node.notify(choice.error or f"no host {name!r}", title="host", severity="error", markup=False)
            return
        profile = choice.profile
        run_once(
            self._node,
            "home",
            lambda: self.notebook.use_host(profile),
            done=lambda state: self._host_used(state, name, kind, remember),
            failed=self._failed,
        )

    def use_installed(self, spec: str) -> None:
        """Current and Next as the host the home opened as loads them, at the release installed here when ``spec``
        names none (:mod:`...core.hosts.standing`: its files read in a worker, bounded; the proven release
        standing in for it when none is proven). Never remembered: the installed release may change any day.
        With detection off, or a version named, it is :meth:`use_host` as it was."""
        from notebook_app.core.hostbase.installed import detection_off  # lazy: detection, once per open

        name, _, named = spec.partition("@")
        if named or detection_off(os.environ):
            self.use_host(spec)
            return

        def job() -> Standing | str | None:
            from notebook_app.core.hosts.standing import standing  # lazy: detection, in the worker

            return standing(registered(name), None, os.environ)

        run_once(self._node, "standing", job, done=partial(self._stood, spec), failed=lambda _: self.use_host(spec))

    def _stood(self, spec: str, found: Standing | str | None) -> None:
        """The host in view as its installed release (or the one standing in for it); the header told of it."""
        from notebook_app.core.hosts.standing import Standing  # lazy: detection, once per open

        if not isinstance(found, Standing) or found.installed is None:
            self.use_host(spec)
            return
        version = found.load_version
        self.use_host(f"{spec}@{version}" if version else spec)
        release = found.installed.version if found.proven else f"{found.installed.version} (shown as {found.rules})"
        self.standing_words = found.said_here
        self.notebook.standing = found
        self._node.post_message(self.Installed(registered(found.host).title, release, found.said_here))

    def choose_host(self, name: str) -> None:
        """The palette's ``Load as: …``: a host this home may be previewed as; a release of the host it was opened
        as is remembered for the folder once in view, a preview of another host never (docs/hosts.md)."""
        previews = self.notebook.previews
        if not previews.offers(name):
            reason = previews.why_not(name.partition("@")[0]) or f"no host {name!r}"
            self._node.notify(reason, title="host not offered here", severity="warning", markup=False)
            return
        self.use_host(name, remember=previews.remembers(name))

    def _remember(self, spec: str) -> None:
        """Keep the chosen release for the folder, in a worker: a write to the user's state, never to the home."""

        def said(problem: str | None) -> None:
            if problem is None:
                self._node.notify(f"{spec} is remembered for this folder: the next open keeps it", title="host")
            else:
                self._node.notify(problem, title="host", severity="warning", markup=False)

        failed = lambda words: said(f"the host chosen is not remembered ({words})")  # noqa: E731
        run_once(self._node, "remember-host", partial(self.notebook.remember_host, spec), done=said, failed=failed)

    def say_hosts_left_out(self) -> None:
        """The palette's note on the hosts it does not offer here, each with its reason."""
        from notebook_app.app.view_model.host_choices import left_out_words  # lazy: a host's loader

        words = left_out_words(self.notebook.previews)
        if words is not None:
            self._node.notify(words[1], title="hosts not offered here", markup=False, timeout=15)

    def use_session_kind(self, kind: str) -> None:
        """The palette's OpenClaw session kinds: the OpenClaw in view, its version kept, loads a ``kind`` session."""
        self.use_host(self.host_spec or next(one.id for one in hosts() if one.session_kinds), kind)

    def _host_used(self, state: HomeState, name: str, kind: str | None, remember: bool) -> None:
        host = state.preview.composition
        title = host.profile.title if host.profile else host.host
        # "Current session · as Claude Code loads it" was cut at 100 columns, where a pane is 32 wide, and so is
        # "Current · OpenClaw 2026.4.27": the version and the session kind are in L's header instead
        plain = registered(host.host).fallback
        current = "Current session" if plain else f"Current · {title}"
        upcoming = "Next session" if plain else f"Next · {title}"
        self._node.post_message(self.HostUsed(state, name, kind, remember, current, upcoming))

    def in_view(self, name: str, kind: str | None, *, remember: bool) -> None:
        """The node shows Current and Next as ``name`` loads them (in a ``kind`` session); with ``remember``, the
        choice is kept for the folder."""
        self.host_spec = name
        self.session_kind = kind
        if remember:
            self._remember(name)
