"""Export: the persona of the home in view as another host's home, the plan shown before anything is written.

The palette's *Export to: HOST* opens it. It asks where (a folder that is not
there or is empty; ``m`` merges into a home that is there, replacing no file),
then shows the plan ``persona-notebook export`` prints, made by the same code
(``notebook_app.portable``) in a worker: every file and where it lands, the
entries that do not simply load, what the target cuts at its caps, what it
merges and what moves to files it does not load. ``y`` says what will be
written where (for Claude Code both places), and ``y`` again writes exactly
the plan; a file that changed since is never written over. A secret the
doctor finds refuses the export, named by rule, file and line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Header, Input, Static

from notebook_app.app.keys import EXPORT_KEYS, bindings
from notebook_app.app.screens.keyed import KeyedScreen
from notebook_app.app.widgets.common.key_footer import KeyFooter
from notebook_app.app.workers import LatestWins, run_once
from notebook_app.portable.model import Problem
from notebook_app.portable.words import plan_text

if TYPE_CHECKING:
    from notebook_app.portable.model import Applied, Plan, Problem

SHOWN_LINES = 1_000
"""The most lines of a plan shown; the CLI's ``export`` prints them all."""


class ExportScreen(KeyedScreen[None]):
    """Where to, the plan, then ``y`` ``y`` to write it."""

    CSS_PATH = Path(__file__).with_name("export.tcss")
    KEYS = EXPORT_KEYS
    BINDINGS = bindings(KEYS)

    def __init__(
        self,
        target: str,
        plan_for: Callable[[str, bool], Plan | Problem],
        write: Callable[[Plan], Applied | Problem],
        *,
        destination: str,
        command: str,
        shown: Callable[[str], str] = str,
    ) -> None:
        super().__init__()
        self.target = target
        """The target host's title, for the words."""
        self.plan_for = plan_for
        """The plan of exporting to a destination (merging or not), or why there is none."""
        self.write = write
        self.destination = destination
        self.command = command
        """The CLI command that makes the same plan, said so a person can run it there (``--json``, every line)."""
        self.shown = shown
        """Paths in words as the person reads them (the user's home as ``~``)."""
        self.plan: Plan | None = None
        self._shown_for: tuple[str, bool] | None = None
        """The destination and merge the plan shown was made for."""
        self.merge = False
        self.confirming = False
        self._plans = LatestWins(self, "export-plan", self._plan_job, done=self._planned, failed=self._failed)

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        yield Static("", id="export-summary", markup=False)
        yield Input(self.destination, placeholder="a folder that is not there, or empty", id="export-dest")
        with VerticalScroll(id="export-plan"):
            yield Static("", id="export-plan-text", markup=False)
        yield KeyFooter(compact=True)

    @on(events.Mount)
    def _mounted(self) -> None:
        self.sub_title = f"export to {self.target}"
        self.query_one("#export-dest").border_title = "Destination"
        self.query_one("#export-plan").border_title = "Plan · nothing is written before y, y"
        self._say(f"Export to {self.target}: where? enter makes the plan; nothing is written before y, y.")
        self.query_one(Input).focus()

    def _say(self, words: str) -> None:
        self.query_one("#export-summary", Static).update(words)

    @on(Input.Submitted, "#export-dest")
    def _destination_given(self) -> None:
        self._make_plan()

    @on(Input.Changed, "#export-dest")
    def _destination_changed(self, event: Input.Changed) -> None:
        """A plan is for the destination it was made for: another one typed, the plan shown can no longer be
        written."""
        if self.plan is not None and (event.value.strip(), self.merge) != self._shown_for:
            self.plan = None
            self.confirming = False
            self._say("The destination changed: enter makes its plan; nothing is written before y, y.")

    @property
    def _asked(self) -> tuple[str, bool]:
        """What the plan shown must be for: the destination typed and whether it merges."""
        return self.query_one(Input).value.strip(), self.merge

    def _plan_job(self, destination: str, merge: bool) -> tuple[tuple[str, bool], Plan | Problem]:
        return (destination, merge), self.plan_for(destination, merge)

    def _make_plan(self) -> None:
        destination = self.query_one(Input).value.strip()
        self.plan = None
        self.confirming = False
        if not destination:
            self._say("Say where: a folder that is not there, or an empty one.")
            return
        self._say(f"Planning the export to {destination}…")
        self._plans.request(destination, self.merge)

    def _failed(self, words: str) -> None:
        self._say(f"⚠ The plan could not be made: {words}")

    def _planned(self, made: tuple[tuple[str, bool], Plan | Problem]) -> None:

        asked, result = made
        if asked != self._asked:  # made for a destination or merge since changed: the next plan is on its way
            return
        self._shown_for = asked
        text = self.query_one("#export-plan-text", Static)
        if isinstance(result, Problem):
            self.plan = None
            merge = "m plans it with no merge" if self.merge else "m plans a merge into what is there"
            words = self.shown(result.message).replace("--merge", "a merge (m)")  # the CLI's flag is a key here
            text.update(f"No plan: {words}\n\nd edits the destination; {merge}; esc goes back.")
            self._say(f"⚠ {words}")
            self.query_one("#export-plan").focus()  # so that d and m are keys, not letters typed
            return
        self.plan = result
        lines = self.shown(plan_text(result)).split("\n")
        if len(lines) > SHOWN_LINES:
            left = len(lines) - SHOWN_LINES
            lines = [*lines[:SHOWN_LINES], f"… {left:,} lines more: `{self.command}` prints them all"]
        text.update("\n".join(lines))
        if (refusal := result.refusal) is not None:
            refusal = self.shown(refusal).replace("--allow-secrets", f"`{self.command} --allow-secrets`")
            self._say(f"⚠ Refused: {refusal}")
        else:
            written = len(result.files)
            self._say(f"{written} file{'s' if written != 1 else ''} to write. y shows where; y again writes them.")
        self.query_one("#export-plan").focus()

    def action_merge(self) -> None:
        self.merge = not self.merge
        self.notify(
            "Merge: files are added beside what is there, none replaced"
            if self.merge
            else "No merge: the destination must be absent or empty",
            title="export",
            markup=False,
        )
        self._make_plan()

    def action_destination(self) -> None:
        self.confirming = False
        self.query_one(Input).focus()

    def action_apply(self) -> None:
        plan = self.plan
        if plan is None:
            self.notify("No plan yet: give the destination and press enter.", title="export", markup=False)
            return
        if plan.refusal is not None:
            self.notify(self.shown(plan.refusal), title="export refused", severity="error", markup=False)
            return
        if not self.confirming:
            self.confirming = True
            places = self.shown(" and ".join(str(folder) for folder in plan.places.values()))
            self._say(f"y again writes {len(plan.files)} files to {places}; esc cancels.")
            return
        self.confirming = False
        run_once(self, "export-write", lambda: self.write(plan), done=self._written, failed=self._write_failed)

    def _write_failed(self, words: str) -> None:
        self.notify(f"The export could not be written: {words}", title="export", severity="error", markup=False)
        self._make_plan()  # what is there now

    def _written(self, result: Applied | Problem) -> None:

        if isinstance(result, Problem):
            self.notify(self.shown(result.message), title="export", severity="error", markup=False)
            self._make_plan()  # what is there now
            return
        folders = self.shown(" and ".join(str(folder) for folder in self.plan.places.values())) if self.plan else ""
        self.notify(
            f"Exported to {self.target}: {len(result.written)} files written in {folders}",
            title="export",
            markup=False,
        )
        self.dismiss(None)

    def action_back(self) -> None:
        if self.confirming:
            self.confirming = False
            self._say("Not written. y shows where the plan writes; y again writes it.")
            return
        self.dismiss(None)
