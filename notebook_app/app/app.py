"""The Textual app: themes, app-wide keys, the palette, which screen shows, and the views the notebook opens."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from functools import partial
from pathlib import Path

from textual import messages, on
from textual.app import App, SystemCommand
from textual.screen import Screen

from notebook_app.app import views
from notebook_app.app.keymap import load_keymap, user_keymap_path
from notebook_app.app.keys import APP_KEYS, Key, bindings
from notebook_app.app.screens.create_home import CreateHomeScreen
from notebook_app.app.screens.editor.kept import end_on_signals, keep_at_exit, tell_kept
from notebook_app.app.screens.help import HelpScreen
from notebook_app.app.screens.keyed import KeyedScreen
from notebook_app.app.screens.main.edits import EditorLauncher
from notebook_app.app.screens.main.screen import MainScreen
from notebook_app.app.themes import DEFAULT_THEME, load_themes, shipped_themes_dir, user_themes_dir
from notebook_app.app.view_model.notebook import Notebook
from notebook_app.app.widgets.textual_compat import set_theme_before_parse
from notebook_app.app.workers import run_once
from notebook_app.core.fs.home_pin import unpin_home
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hostbase.registry import hosts as registered_hosts
from notebook_app.core.record.log.actor import NOTEBOOK
from notebook_app.core.text.times import clock_time


def tilde(path: Path) -> str:
    """``path`` with the user's home shown as ``~``."""
    try:
        return f"~/{path.relative_to(Path.home())}"
    except ValueError:
        return str(path)


def project_label(spec: str, root: Path, memory: Path) -> str:
    """``Claude Code · ~/proj (memory in ~/.claude)``: the header names the project a person opened, and in
    short where its memory (and all the notebook writes) is; the opening notice says the memory folder whole."""
    kept = tilde(memory.parents[2]) if memory.name == "memory" else tilde(memory)  # ~/.claude: it fits 80 columns
    return f"{registered(spec).title} · {tilde(root)} (memory in {kept})"


VIEWS = {"agent_sessions", "history", "review", "doctor", "tidy", "injects"}
"""The views the notebook opens over its screen (its keys name them ``app.…``): never while its form is open."""


class NotebookApp(App[None]):
    """Persona Notebook on one home directory."""

    TITLE = "Persona Notebook"
    BINDINGS = bindings(APP_KEYS)
    CSS_PATH = [*MainScreen.CSS_PATH, Path(__file__).with_name("app.tcss")]
    """Textual loads no CSS_PATH for the default screen, which the main screen is (see get_default_screen)."""

    def __init__(
        self,
        home: Path,
        *,
        theme: str | None = None,
        watch: bool = True,
        home_label: str | None = None,
        clock: Callable[[datetime], str] = clock_time,
        theme_dirs: Iterable[Path] | None = None,
        notebook: Notebook | None = None,
        keymap_path: Path | None = None,
        run_editor: EditorLauncher | None = None,
    ) -> None:
        """``home_label`` and ``clock`` replace the path and times on screen (tests pin them).

        ``notebook``: one already reading ``home`` (see :meth:`Notebook.start_reading`).
        ``run_editor``: how ``o`` runs the outside editor; None: ``$VISUAL``/``$EDITOR`` with the app suspended.
        """
        super().__init__()
        self.home = home
        self._notebook = notebook
        self.run_editor = run_editor
        self.main_screen: MainScreen | None = None
        """The notebook's screen once made: the views below open over it, and it reads again when they close."""
        self.home_label = home_label or tilde(home)
        self.clock = clock
        self.watch_home = watch
        self.requested_theme = theme or DEFAULT_THEME
        folders = list(theme_dirs) if theme_dirs is not None else [shipped_themes_dir(), user_themes_dir()]
        themes, self.theme_problems = load_themes(*folders)
        for loaded in themes:
            self.register_theme(loaded)
        if self.requested_theme in self.available_themes:
            set_theme_before_parse(self, self.requested_theme)
        self.keys_in_use, self.keymap_problems = load_keymap(keymap_path or user_keymap_path())
        self.set_keymap(self.keys_in_use)
        self.exit_notes: list[str] = []
        """What ending the notebook kept (an editor's unsaved buffer), in words: said on stderr after the run."""
        self._kept_at_exit = False

    def on_mount(self) -> None:
        for problem in self.theme_problems:
            self.notify(str(problem), title="theme not loaded", severity="warning", markup=False, timeout=10)
        for said in self.keymap_problems:
            self.notify(said, title="keymap", severity="warning", markup=False, timeout=10)
        self.use_theme(self.requested_theme)
        end_on_signals(self)
        if not isinstance(self.screen, MainScreen):
            self.push_screen(CreateHomeScreen(self.home_label), self._answer_create)
        else:
            self._offer_git_ignore()
            self.call_after_refresh(self._tell_kept)  # after the first frame: it looks in the state directory

    def on_unmount(self) -> None:

        unpin_home(self.home)  # the notebook is done with its home: its pinned folders are let go

    @on(messages.ExitApp)
    def _keep_unsaved(self) -> None:
        """However the notebook ends (ctrl+q, a served tab closed, SIGTERM): an unsaved buffer is kept first, while
        every screen is still there (Textual's own handler runs after this one); see :mod:`.screens.editor.kept`."""
        if not self._kept_at_exit:  # once: a closed tab, then the server stopping, post two
            self._kept_at_exit = True
            self.exit_notes.extend(keep_at_exit(self, self.screen_stack, self.home_label))

    def _tell_kept(self) -> None:
        """Buffers kept when a notebook on this home last ended: said once, in one notification."""
        tell_kept(self, self._opened_from().notebook.home, shown=tilde)

    def get_default_screen(self) -> Screen:
        """The notebook itself when the home exists: composed with the app, painted in its first frame."""
        return self._main_screen() if self.home.is_dir() else super().get_default_screen()

    def use_theme(self, name: str) -> None:
        """Switch to theme ``name``; an unknown name is reported and the default kept."""
        if name in self.available_themes:
            self.theme = name
            return
        known = ", ".join(sorted(t for t in self.available_themes if not t.startswith("textual-")))
        self.notify(
            f"unknown theme {name!r}; using {DEFAULT_THEME}. Known: {known}",
            title="theme",
            severity="warning",
            markup=False,
        )
        if DEFAULT_THEME in self.available_themes:
            self.theme = DEFAULT_THEME

    def _main_screen(self) -> MainScreen:
        notebook, self._notebook = self._notebook or Notebook(self.home), None
        self.main_screen = MainScreen(
            notebook,
            watch=self.watch_home,
            home_label=self.home_label,
            clock=self.clock,
            keymap=self.keys_in_use,
            run_editor=self.run_editor,
        )
        return self.main_screen

    def _answer_create(self, create: bool | None) -> None:
        if not create:
            self.exit(return_code=1, message=f"Not opened: {self.home_label} does not exist.")
            return
        try:
            self.home.mkdir(parents=True)
        except OSError as error:
            self.exit(return_code=1, message=f"Could not create {self.home_label}: {error.strerror or error}")
            return
        self.push_screen(self._main_screen())

    def _offer_git_ignore(self) -> None:
        """Our own files and the home's git (issue 22, item 6): asked once, written only after a yes."""
        if self.main_screen is not None and self.main_screen.notebook.files.host is not None:
            from notebook_app.app.screens.git_ignore import offer_git_ignore  # lazy: git, at the first question

            offer_git_ignore(self, self.main_screen.notebook.home, self.main_screen.notebook.files.host)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``?`` and ``q`` are letters: while a form is open they type, they never act (``f1`` and ``ctrl+q`` do); no
        view opens over it.
        """
        typing = isinstance(self.screen, KeyedScreen) and self.screen.is_typing
        letter = (action == "help" and parameters != (True,)) or (action == "quit" and parameters == (True,))
        if typing and (letter or action in VIEWS):
            return False
        return True

    async def action_quit(self, letter: bool = False) -> None:
        """``q`` (``quit(True)``, a letter) or Textual's own ``ctrl+q`` (anywhere, in the editor too)."""
        self.exit()

    # --- the views the notebook opens (its keys and palette): built in views.py, each loaded on first use

    def action_agent_sessions(self) -> None:
        views.agent_sessions(self, self._opened_from())

    def action_history(self) -> None:
        views.history(self, self._opened_from())

    def action_review(self) -> None:
        views.review(self, self._opened_from())

    def action_doctor(self) -> None:
        views.doctor(self, self._opened_from())

    def action_tidy(self) -> None:
        views.tidy(self, self._opened_from())

    def action_injects(self) -> None:
        views.injects(self, self._opened_from())

    def action_export(self, target: str) -> None:
        views.export(self, self._opened_from(), target)

    def _opened_from(self) -> MainScreen:
        assert self.main_screen is not None, "the notebook's views open from its screen"
        return self.main_screen

    def action_set_review(self, on: bool) -> None:
        """The palette's review setting for the home: a recorded write, through the core, as the notebook."""
        from notebook_app.core.record.settings import set_review  # lazy: the write path

        def said(output: str, is_error: bool) -> None:
            self.notify(output, title="review setting", severity="error" if is_error else "information", markup=False)

        home = self._opened_from().notebook.home
        job = lambda: set_review(home, on, by=NOTEBOOK)  # noqa: E731
        run_once(
            self,
            "review-setting",
            job,
            done=lambda r: said(r.output, r.is_error),
            failed=lambda words: said(words, True),
        )

    def action_help(self, anywhere: bool = False) -> None:
        if not isinstance(self.screen, HelpScreen):
            viewing = self.screen.KEYS if isinstance(self.screen, KeyedScreen) else ()
            self.push_screen(HelpScreen(self.keys_in_use, viewing=viewing))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        screen_keys: tuple[Key, ...] = screen.KEYS if isinstance(screen, KeyedScreen) else ()
        for key in screen_keys:
            if key.command:
                yield SystemCommand(key.command, key.help, partial(screen.run_action, key.action))
        for key in APP_KEYS:
            if key.command:
                yield SystemCommand(key.command, key.help, partial(self.run_action, key.action))
        if isinstance(screen, MainScreen):
            from notebook_app.app.view_model import (  # lazy: a host's loader
                host_choices as hosts,  # the host profiles load when the palette first asks
            )

            previews = screen.notebook.previews  # a home opened as a host: its own and the hosts its layout fits
            for name, title, summary in hosts.host_choices(previews) + hosts.release_choices(previews):
                yield SystemCommand(f"Load as: {title}", summary, partial(screen.run_action, f"use_host({name!r})"))
            if (left_out := hosts.left_out_words(previews)) is not None:
                run = partial(screen.run_action, "hosts_left_out")
                yield SystemCommand("Hosts not offered for this home", left_out[0], run)
            spec = screen.sessions.host_spec
            if spec is not None and registered(spec).session_kinds:
                for kind, words in hosts.kind_choices(spec):
                    run = partial(screen.run_action, f"use_session_kind({kind!r})")
                    yield SystemCommand(f"OpenClaw session kind: {kind}", words, run)
            for on, word in ((True, "on"), (False, "off")):
                help_text = "In .notebook/settings.toml, for MCP servers this home starts from now (a recorded write)"
                yield SystemCommand(
                    f"Turn review {word} for this home", help_text, partial(self.run_action, f"set_review({on})")
                )
            from notebook_app.app.git_commands import git_commands  # lazy: git, when the palette first asks

            yield from git_commands(self, screen.notebook.home)
            for host in (one for one in registered_hosts() if one.moves):  # the hosts a persona moves between
                words = f"This home's persona as {host.a_home} elsewhere: the plan first, nothing written before y"
                export = partial(self.run_action, f"export({host.id!r})")
                yield SystemCommand(f"Export to: {host.title}", words, export)
