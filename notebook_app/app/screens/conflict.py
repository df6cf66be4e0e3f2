"""The conflict view: a save that conflicts, both sides side by side, each conflict resolved by a key.

Left is the edit, right the file on disk now (the other writer's). The
core's merge (:class:`~notebook_app.core.merge.MergeResult`) gives the
chunks: merged text with the conflicts where they stand; this view only
marks them and asks, per conflict, ``1`` mine, ``2`` theirs or ``3`` both.
``ctrl+s`` writes ``merge.resolve(...)`` through the guarded hand edit again,
its base the file as the merge found it; if it changed once more, the new
conflicts are shown. Dismissed with (text written, the core's words), or
None when left without writing. Both sides are drawn once per merge in a
worker (:mod:`..view_model.conflict_sides`); a key only re-marks them, so on a 2 MiB
file it costs the conflicts, not the text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Header, Static

from notebook_app.app.keys import CONFLICT_KEYS, bindings
from notebook_app.app.screens.keyed import KeyedScreen
from notebook_app.app.view_model.conflict_sides import Choice, Side, draw_side, side_document
from notebook_app.app.view_model.documents import EMPTY
from notebook_app.app.view_model.notebook import HomeState, Notebook
from notebook_app.app.widgets.common import line_view
from notebook_app.app.widgets.common.key_footer import KeyFooter
from notebook_app.app.widgets.common.line_view import LineView
from notebook_app.app.workers import run_once
from notebook_app.core.memory.edits.hand_edit import HandEditResult
from notebook_app.core.text.merge import Conflict, MergeResult, both, mine, theirs

PICKS: dict[Choice, Callable[[Conflict], Sequence[str]]] = {"mine": mine, "theirs": theirs, "both": both}


class ConflictScreen(KeyedScreen[tuple[str, str] | None]):
    CSS_PATH = [line_view.TCSS, Path(__file__).with_name("conflict.tcss")]
    KEYS = CONFLICT_KEYS
    BINDINGS = bindings(KEYS)

    def __init__(
        self, notebook: Notebook, name: str, merge: MergeResult, *, theirs: str, applied: Callable[[HomeState], None]
    ) -> None:
        super().__init__()
        self.notebook = notebook
        self.file_name = name
        self.applied = applied
        self.saving = False
        self._take(merge, theirs)

    def _take(self, merge: MergeResult, theirs: str) -> None:
        self.merge = merge
        self.theirs = theirs
        """The file as the merge found it: the base of the save that resolves it."""
        self.choices: list[Choice | None] = [None] * len(merge.conflicts)
        self.current = 0
        self.sides: tuple[Side, Side] | None = None
        """Both sides drawn (in a worker: the whole text), then re-marked by every key."""
        self.note = ""
        """Said before the summary until the next key (the file changed again)."""

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        yield Static("", id="conflict-summary", markup=False)
        with Horizontal(id="conflict-sides"):
            yield LineView(numbers=True, signs=True, placeholder="laying out your edit…", id="conflict-mine")
            yield LineView(numbers=True, signs=True, placeholder="laying out the file on disk…", id="conflict-theirs")
        yield KeyFooter(compact=True)

    @on(events.Mount)
    def _mounted(self) -> None:
        self.sub_title = f"conflicts in {self.file_name}"
        for view, title in (
            (self.query_one("#conflict-mine", LineView), "Yours (your edit)"),
            (self.query_one("#conflict-theirs", LineView), f"{self.file_name} on disk now"),
        ):
            view.border_title = title
            view.can_focus = False  # the arrows move between conflicts, not the scroll
        self.call_after_refresh(
            self._draw
        )  # the first frame (summary, placeholders) before the worker shares the interpreter

    def _draw(self) -> None:
        """Draw both sides of the merge in a worker; keys pressed meanwhile are kept and shown when it is done."""
        merge = self.merge
        self._show()
        run_once(
            self,
            "conflict-draw",
            lambda: (merge, draw_side(merge, "mine"), draw_side(merge, "theirs")),
            done=self._drawn,
            failed=self._failed_to_draw,
        )

    def _drawn(self, outcome: tuple[MergeResult, Side, Side]) -> None:
        merge, mine_side, theirs_side = outcome
        if merge is self.merge:  # else a newer merge is being drawn
            self.sides = (mine_side, theirs_side)
            self._show()

    def _failed_to_draw(self, words: str) -> None:
        for view in self.query(LineView):
            view.set_placeholder(f"could not lay out this side: {words}")

    @property
    def left(self) -> int:
        return sum(choice is None for choice in self.choices)

    def _show(self) -> None:
        count = len(self.choices)
        places = "1 conflict" if count == 1 else f"{count} conflicts"
        left = f"{self.left} left to resolve" if self.left else "all resolved: ctrl+s saves"
        another = " · ↑↓ another" if count > 1 else ""
        summary = f"{self.file_name} changed since you opened it: {places}, {left}. 1 mine · 2 theirs · 3 both{another}"
        self.query_one("#conflict-summary", Static).update(f"{self.note}{summary}")
        if self.sides is None:
            for view in self.query(LineView):
                view.show(EMPTY)  # not drawn yet: the placeholders, never the sides of an older merge
            return
        for side in self.sides:
            view = self.query_one(f"#conflict-{side.name}", LineView)
            document = side_document(side, self.choices, self.current)
            view.show(document)
            if side.spans and document.lines:
                view.reveal_line(min(side.spans[self.current][0], len(document.lines) - 1))

    def action_choose(self, choice: Choice) -> None:
        if not self.choices:
            return
        self.choices[self.current] = choice
        self.note = ""
        following = [i for i in range(self.current + 1, len(self.choices)) if self.choices[i] is None]
        if following:
            self.current = following[0]
        self._show()

    def action_step(self, step: int) -> None:
        if self.choices:
            self.current = (self.current + step) % len(self.choices)
            self.note = ""
            self._show()

    def action_save(self) -> None:
        if self.saving:
            return
        if self.left:
            self.notify(
                f"Resolve every conflict first ({self.left} left): 1 mine, 2 theirs, 3 both.",
                title="conflicts",
                markup=False,
            )
            return
        picks = iter([choice for choice in self.choices if choice is not None])  # every one is chosen by now
        self.saving = True
        name, base, merge = self.file_name, self.theirs, self.merge

        def save() -> tuple[HandEditResult, HomeState]:
            return self.notebook.hand_edit(
                name, merge.resolve(lambda conflict: PICKS[next(picks)](conflict)), base
            )  # the whole text: in the worker

        run_once(self, "conflict-save", save, done=self._saved, failed=self._failed)

    def _saved(self, outcome: tuple[HandEditResult, HomeState]) -> None:
        result, state = outcome
        self.saving = False
        self.applied(state)
        if result.merge is not None and result.conflicts:
            self._take(result.merge, result.current or "")
            self.note = f"{self.file_name} changed again while you resolved; "
            self._draw()
            return
        if result.is_error or result.text is None:
            self.query_one("#conflict-summary", Static).update(f"Not saved: {result.output}")
            return
        self.dismiss((result.text, result.output))

    def _failed(self, words: str) -> None:
        self.saving = False
        self.query_one("#conflict-summary", Static).update(f"Not saved: the write could not finish: {words}")

    def action_back(self) -> None:
        if not self.saving:
            self.dismiss(None)
