"""The floors the app is held against, run with our interpreter (same Textual, same watchfiles).

    python app_floor.py static          # a bare Textual app that shows one Static
    python app_floor.py enter           # a bare Textual app that repaints one Static on Enter
    python app_floor.py watch HOME      # raw watchfiles: print when HOME changes
    python app_floor.py plain HOME      # the notebook's main screen written plainly with stock widgets

``static`` is the least any Textual app pays to start and paint. ``watch``
uses the settings the app's watcher uses, awatch(debounce=50, step=10) on the
home directory, and prints ``changed <monotonic seconds>`` for each
notification (CLOCK_MONOTONIC is one clock for every process on Linux, so the
harness can subtract its own timestamps from it).

``plain`` is the floor of measures 5, 6 and 7: the same screen as the
notebook's, written the plain way with stock Textual widgets and nothing
else (a Header, a health line, an OptionList of the files, the three file
panes, Current and Next, an Input, a Footer). Every change (a write seen by
watchfiles, or an add typed in the Input and entered) re-reads every file and
repaints every pane: no caching, no diff. The text panes are Logs, Textual's
stock widget for long text (it renders only the rows on screen), so a 2 MiB
MEMORY.md costs the floor what a stock widget costs, not a Static wrapping all
of it. Its pane titles and words are the ones the harness reads on the
notebook's screen, so one test of "painted" serves both.
"""

from __future__ import annotations

import sys
import time

FLOOR_TEXT = "Bare Textual floor: one Static"


def static() -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Floor(App[None]):
        def compose(self) -> ComposeResult:
            yield Static(FLOOR_TEXT)

    Floor().run()


ENTER_READY = "Floor: type, then enter"
ENTERED = "entered: "


def enter() -> None:
    """The floor of measure 7: an Input; Enter puts its text in a Static (one widget repainted)."""
    from textual.app import App, ComposeResult
    from textual.widgets import Input, Static

    class Floor(App[None]):
        def compose(self) -> ComposeResult:
            yield Static(ENTER_READY, id="shown")
            yield Input(id="typed")

        def on_input_submitted(self, event: Input.Submitted) -> None:
            self.query_one("#shown", Static).update(ENTERED + event.value)
            event.input.value = ""

    Floor().run()


def watch(home: str) -> None:
    import asyncio

    from watchfiles import awatch

    async def main() -> None:
        print("ready", flush=True)
        async for _changes in awatch(home, debounce=50, step=10, recursive=False):
            print(f"changed {time.monotonic()}", flush=True)

    asyncio.run(main())


BOOTSTRAP = ("AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "TOOLS.md", "HEARTBEAT.md", "MEMORY.md")
PANES = ("SOUL.md", "USER.md", "MEMORY.md")
CAP = 2 * 1024 * 1024


def plain(home_arg: str) -> None:
    """The floor of measures 5-7: the main screen, plainly (see the module's docstring)."""
    from pathlib import Path

    from textual import work
    from textual.app import App, ComposeResult
    from textual.containers import Horizontal, Vertical
    from textual.widgets import Footer, Header, Input, Log, OptionList, Static

    home = Path(home_arg)

    def read() -> dict[str, str]:
        texts = {}
        for name in BOOTSTRAP:
            try:
                texts[name] = (home / name).read_text(encoding="utf-8", errors="replace")
            except FileNotFoundError:
                pass
        return texts

    def soul(texts: dict[str, str]) -> list[str]:
        return "\n\n".join(f"## {name}\n\n{text}" for name, text in texts.items()).splitlines()

    class Plain(App[None]):
        TITLE = "Persona Notebook"
        CSS = """
        #panes { height: 1fr; }
        #panes > Vertical { border: round $secondary; width: 1fr; }
        .file { border-top: solid $secondary; height: 1fr; }
        .file Log, .soul { height: 1fr; }
        OptionList { height: auto; max-height: 9; border: none; padding: 0; }
        """
        BINDINGS = [("ctrl+q", "quit", "Quit")]

        def compose(self) -> ComposeResult:
            yield Header()
            yield Static("the doctor has not looked yet", id="health")
            with Horizontal(id="panes"):
                with Vertical(id="home"):
                    yield OptionList(id="files")
                    for index in range(len(PANES)):
                        with Vertical(classes="file", id=f"pane-{index}"):
                            yield Static("", id=f"summary-{index}")
                            yield Log(id=f"text-{index}", auto_scroll=False)
                with Vertical(id="current"):
                    yield Static("", id="current-head")
                    yield Log(classes="soul", id="current-soul", auto_scroll=False)
                with Vertical(id="next"):
                    yield Static("", id="next-head")
                    yield Log(classes="soul", id="next-soul", auto_scroll=False)
            yield Input(placeholder="an entry for MEMORY.md; enter adds it", id="add")
            yield Footer()

        def on_mount(self) -> None:
            self.query_one("#home").border_title = "Home"
            self.query_one("#current").border_title = "Current session"
            self.query_one("#next").border_title = "Next session"
            for index, name in enumerate(PANES):
                self.query_one(f"#pane-{index}").border_title = name
            texts = read()
            self.current = soul(texts)
            self.query_one("#current-head", Static).update("#1 · began now    frozen")
            self.query_one("#current-soul", Log).write_lines(self.current)
            self.show(texts)
            self.query_one(Input).focus()
            self.watch_home()

        def show(self, texts: dict[str, str]) -> None:
            """Repaint every pane from ``texts``, whole."""
            files = self.query_one(OptionList)
            files.clear_options()
            files.add_options(
                f"● {name:<13}{len(texts[name].encode()):>8} B" if name in texts else f"○ {name:<13}absent"
                for name in BOOTSTRAP
            )
            for index, name in enumerate(PANES):
                size = len(texts.get(name, "").encode())
                self.query_one(f"#summary-{index}", Static).update(
                    f"{size:,} bytes · {size / CAP:.2%} of the 2 MiB cap"
                )
                log = self.query_one(f"#text-{index}", Log)
                log.clear()
                log.write_lines(texts.get(name, "").splitlines())
            lines = soul(texts)
            state = "in sync" if lines == self.current else "changed"
            self.query_one("#next-head", Static).update(f"#2 · if it began now    {state}")
            log = self.query_one("#next-soul", Log)
            log.clear()
            log.write_lines(lines, scroll_end=False)
            if state == "changed":  # the change is at the end (an add or an append): scrolled to once laid out
                self.call_after_refresh(log.scroll_end, animate=False)

        @work(exclusive=True)
        async def watch_home(self) -> None:
            from watchfiles import awatch

            async for _changes in awatch(home, debounce=50, step=10, recursive=False):
                self.show(read())

        def on_input_submitted(self, event: Input.Submitted) -> None:
            with open(home / "MEMORY.md", "a", encoding="utf-8") as out:
                out.write(f"- {event.value}\n")
            event.input.value = ""
            self.show(read())

    Plain().run()


if __name__ == "__main__":
    if sys.argv[1] == "static":
        static()
    elif sys.argv[1] == "enter":
        enter()
    elif sys.argv[1] == "plain":
        plain(sys.argv[2])
    else:
        watch(sys.argv[2])
