"""Tidy: the core's consolidation proposal as one patch a person reads, accepts in parts, then applies.

The proposal comes from the core (the same rules as ``persona-notebook tidy``),
read in a worker and read again whenever the home changes. Nothing is accepted
until the person says so (``space``, ``A``); ``y`` shows every entry the
accepted hunks move or remove, and ``y`` again applies them through the core as
one recorded write. A hunk accepted before an agent changed its bytes is gone
stale: it stays in the list, marked, and is never applied.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.content import Content
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from notebook_app.app.keys import TIDY_KEYS, bindings
from notebook_app.app.screens.keyed import KeyedScreen
from notebook_app.app.screens.tidy.words import confirm_words, hunk_detail, hunk_line, proposal_summary, stray_line
from notebook_app.app.watchers.home_and_log import LiveHome
from notebook_app.app.widgets.common.key_footer import KeyFooter
from notebook_app.app.widgets.session.session_pane import SessionPane
from notebook_app.app.workers import LatestWins, run_once

if TYPE_CHECKING:
    from notebook_app.app.view_model.comparison import Comparison
    from notebook_app.core.tidy.model import Hunk, Proposal

NARROW = 100
"""Below this many columns the preview is under the hunks, not beside them."""

STALE = "stale:"
"""The id prefix of a row whose hunk went stale: shown, never accepted or applied."""


class Left(Vertical):
    """The hunks and the selected one, or the dry run ``y`` confirms alone: a confirmation longer than the view
    scrolls here, by the keys a scrolling pane takes (arrows, page up/down, home/end), while it has the focus,
    which it has only while it confirms; so every entry a ``y`` applies can be read before it."""

    BINDINGS = ScrollableContainer.BINDINGS


class TidyScreen(KeyedScreen[tuple[str, int] | None]):
    """Hunks grouped by file; dismissed with (file, line) to jump there, or None."""

    CSS_PATH = Path(__file__).with_name("tidy.tcss")
    KEYS = TIDY_KEYS
    BINDINGS = bindings(KEYS)

    def __init__(
        self,
        home: Path,
        propose: Callable[[], Proposal],
        apply: Callable[[tuple[str, ...]], Any],
        preview: Callable[[Proposal, frozenset[str]], Comparison | str],
        *,
        watch: bool = False,
    ) -> None:
        super().__init__()
        self.home = home
        self.propose = propose
        self.apply = apply
        """Applies the hunks of these ids; returns the core's result (``output``, ``is_error``)."""
        self.watch_home = watch
        self.proposal: Proposal | None = None
        self.accepted: set[str] = set()
        self.stale: dict[str, Hunk] = {}
        """Accepted hunks the last proposal no longer has (their bytes changed): shown, never applied."""
        self._confirming = False
        self.preview = preview
        """The next session now against the one after the accepted hunks, or why not, in words."""
        self._reads = LatestWins(self, "tidy", self.propose, done=self._proposed, failed=self._failed)
        self._previews = LatestWins(
            self, "tidy-preview", self._preview, done=self._previewed, failed=self._preview_failed
        )

    @property
    def confirming(self) -> bool:
        """Whether the dry run ``y`` confirms is shown: it then has the view to itself (the hunks, and below 100
        columns the preview, hidden), so every entry a ``y`` applies is on screen before it (80×24 showed two)."""
        return self._confirming

    @confirming.setter
    def confirming(self, value: bool) -> None:
        was, self._confirming = self._confirming, value
        self.query("#tidy-body").set_class(value, "-confirming")
        for detail in self.query("#tidy-detail"):
            detail.border_title = "Confirm: y applies, esc cancels" if value else "Hunk"
        for left in self.query("#tidy-left"):
            left.can_focus = value  # while it confirms, its keys scroll a confirmation longer than the view
            left.scroll_home(animate=False)
            if value:
                left.focus()
        if was and not value:
            self.query("#tidy-hunks").focus()

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        yield Static("Tidy is reading the entry files…", id="tidy-summary", markup=False)
        with Horizontal(id="tidy-body"):
            with Left(id="tidy-left"):
                yield OptionList(id="tidy-hunks")
                yield Static("", id="tidy-detail", markup=False)
            yield SessionPane("Next session · if applied", id="tidy-next")
        yield KeyFooter(compact=True)
        yield LiveHome(self.home, watch=self.watch_home, group="tidy-watch")

    @on(events.Mount)
    def _mounted(self) -> None:
        self.sub_title = "tidy"
        self.query_one("#tidy-hunks").border_title = "Hunks"
        self.query_one("#tidy-detail").border_title = "Hunk"
        self._reads.request()

    @on(events.Resize)
    def _resized(self, event: events.Resize) -> None:
        """Below 100 columns the preview goes under the hunks: side by side, neither would be readable."""
        self.query_one("#tidy-body").set_class(event.size.width < NARROW, "-narrow")
        self.call_after_refresh(self.query_one("#tidy-next", SessionPane).reveal_first_change)

    @on(LiveHome.Changed)
    def _home_changed(self, event: LiveHome.Changed) -> None:
        if event.files:
            self._reads.request()

    def _failed(self, words: str) -> None:
        self.query_one("#tidy-summary", Static).update(f"⚠ Tidy could not read the home: {words}")

    def _proposed(self, proposal: Proposal) -> None:
        live = {hunk.id for hunk in proposal.hunks}
        if self.proposal is not None:
            for hunk in self.proposal.hunks:
                if hunk.id in self.accepted and hunk.id not in live:
                    self.stale[hunk.id] = hunk
        self.accepted &= live
        self.proposal = proposal
        self.confirming = False
        self._list()

    def _list(self) -> None:
        proposal = self.proposal
        if proposal is None:
            return
        listing = self.query_one(OptionList)
        highlighted = listing.highlighted
        listing.clear_options()
        for name in proposal.looked_at:
            hunks = [hunk for hunk in proposal.hunks if hunk.file == name]
            strays = [stray for stray in proposal.strays if stray.file == name]
            if not hunks and not strays:
                continue
            listing.add_option(Option(Content.styled(f"{name} · {len(hunks)}", "bold $text-primary"), disabled=True))
            for hunk in hunks:
                mark = ("[✓] ", "$text-success") if hunk.id in self.accepted else ("[ ] ", "$foreground-muted")
                listing.add_option(Option(Content.assemble(mark, hunk_line(hunk)), id=hunk.id))
            for stray in strays:  # reported, never proposed
                listing.add_option(
                    Option(Content.styled(f"    {stray_line(stray)}", "$foreground-muted"), disabled=True)
                )
        if self.stale:
            listing.add_option(Option(Content.styled("stale · never applied", "bold $text-warning"), disabled=True))
            for hunk in self.stale.values():
                row = Content.assemble(("[✗] ", "$text-warning"), hunk_line(hunk))
                listing.add_option(Option(row, id=f"{STALE}{hunk.id}"))
        for skipped in proposal.untidied:
            said = f"{skipped.file}: not tidied: {skipped.reason}"
            listing.add_option(Option(Content.styled(said, "$text-warning"), disabled=True))
        self._summarise()
        self._previews.request(proposal, frozenset(self.accepted))
        if listing.option_count:
            listing.highlighted = _first_enabled(listing, highlighted or 0)
            listing.focus()
        self._show_detail()

    def _preview(self, proposal: Proposal, accepted: frozenset[str]) -> Comparison | str:
        return self.preview(proposal, accepted)

    def _previewed(self, comparison: Comparison | str) -> None:
        pane = self.query_one("#tidy-next", SessionPane)
        if isinstance(comparison, str):
            pane.show_nothing(comparison)
            return
        removed = sum(len(file.removed) for file in comparison.diff.files)
        badge = f"−{removed} line{'s' if removed != 1 else ''}" if removed else "as now"
        meta = "lines marked − leave it" if removed else "accept hunks to see what leaves"
        pane.show(meta, badge, "dry-run" if removed else "sync", comparison.current_doc)

    def _preview_failed(self, words: str) -> None:
        self.query_one("#tidy-next", SessionPane).show_nothing(f"The preview could not be made: {words}")

    def _summarise(self) -> None:
        assert self.proposal is not None
        self.query_one("#tidy-summary", Static).update(proposal_summary(self.proposal, self.accepted, len(self.stale)))

    @property
    def selected(self) -> Hunk | None:
        listing = self.query_one(OptionList)
        if listing.highlighted is None or self.proposal is None:
            return None
        option_id = listing.get_option_at_index(listing.highlighted).id or ""
        if option_id.startswith(STALE):
            return self.stale.get(option_id[len(STALE) :])
        return self.proposal.by_id(option_id)

    @on(OptionList.OptionHighlighted)
    def _show_detail(self) -> None:
        self.confirming = False
        hunk = self.selected
        detail = self.query_one("#tidy-detail", Static)
        if hunk is None or self.proposal is None:
            detail.update("")
            return
        words = hunk_detail(hunk, self.proposal.archive)
        if hunk.id in self.stale:
            words = "STALE: its bytes changed since it was proposed (an agent wrote); it is never applied.\n" + words
        detail.update(words)

    def _mark(self, ids: set[str], accept: bool) -> None:
        self.accepted = self.accepted | ids if accept else self.accepted - ids
        self.confirming = False
        self._list()

    def action_toggle(self) -> None:  # type: ignore[override]  # Textual's toggle flips a named attribute; ours a hunk
        hunk = self.selected
        if hunk is None or hunk.id in self.stale:
            return
        self._mark({hunk.id}, hunk.id not in self.accepted)

    def action_accept_all(self) -> None:
        if self.proposal is not None:
            self._mark({hunk.id for hunk in self.proposal.hunks}, True)

    @on(OptionList.OptionSelected)
    def _selected(self) -> None:
        self.action_jump()

    def action_jump(self) -> None:
        hunk = self.selected
        if hunk is not None:
            self.dismiss((hunk.file, hunk.entries[0].line))

    def action_apply(self) -> None:
        proposal = self.proposal
        chosen = [hunk for hunk in proposal.hunks if hunk.id in self.accepted] if proposal else []
        if not chosen or proposal is None:
            self.notify("No hunk is accepted: space accepts the selected one, A all.", title="tidy", markup=False)
            return
        if not self.confirming:
            self.confirming = True
            self.query_one("#tidy-detail", Static).update(confirm_words(chosen, proposal.archive))
            return
        self.confirming = False
        ids = tuple(hunk.id for hunk in chosen)
        run_once(self, "tidy-apply", lambda: self.apply(ids), done=self._applied, failed=self._failed)

    def _applied(self, result: Any) -> None:
        self.notify(result.output, title="tidy", severity="error" if result.is_error else "information", markup=False)
        if not result.is_error:
            self.accepted.clear()
        self._reads.request()

    def action_back(self) -> None:
        if self.confirming:
            self.confirming = False
            self._show_detail()
            return
        self.dismiss(None)


def _first_enabled(listing: OptionList, start: int) -> int:
    """The first row at or after ``start`` that can be highlighted (headers cannot), else the last such before it."""
    count = listing.option_count
    order = [*range(min(start, count - 1), count), *range(min(start, count - 1) - 1, -1, -1)]
    return next((index for index in order if not listing.get_option_at_index(index).disabled), 0)
