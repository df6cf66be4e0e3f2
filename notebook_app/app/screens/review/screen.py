"""Review: the agents' proposals, oldest first, each with its dry run against the file as it is now.

The queue and every dry run come from the core (``pending``, the review
preview), read in a worker and read again whenever the home or its log
changes, so a proposal that would now miss says ``not found: …`` before
anyone approves it. ``y`` approves, ``x`` rejects with an optional reason,
``e`` edits the text and approves the edit, ``Y`` / ``X`` do all shown once
``y`` confirms. Each decision goes through the core as the notebook; what was
decided here stays listed with its outcome (a failed approval too).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from textual import events, on
from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Header, Input, OptionList, Static
from textual.widgets.option_list import Option

from notebook_app.app.keys import REVIEW_KEYS, bindings
from notebook_app.app.screens.keyed import KeyedScreen
from notebook_app.app.screens.review.rows import LINE_STYLES, MARKS, NOTHING, Row, batch_words, call_words, row_prompt
from notebook_app.app.watchers.home_and_log import LiveHome
from notebook_app.app.widgets.common.key_footer import KeyFooter
from notebook_app.app.workers import LatestWins, run_once
from notebook_app.core.history.undo_restore import who
from notebook_app.core.home.layout import FLAT, FileMap
from notebook_app.core.record.log.actor import NOTEBOOK
from notebook_app.core.memory.review.decisions import (
    Decision,
    Outcome,
    Proposal,
    ProposalStatus,
    approve,
    approve_all,
    holds_secret,
    pending,
    reject,
    reject_all,
    secret_words,
)
from notebook_app.core.memory.review.batch import preview_batch, session_batches
from notebook_app.core.memory.review.preview import ProposalPreview, preview_proposal, preview_proposals

__all__ = ["ReviewScreen", "Row", "call_words", "row_prompt"]


class ReviewScreen(KeyedScreen[None]):
    CSS_PATH = Path(__file__).with_name("review.tcss")
    KEYS = REVIEW_KEYS
    BINDINGS = bindings(KEYS)

    def __init__(
        self, home: Path, clock: Callable[[datetime], str], *, watch: bool = False, files: FileMap = FLAT
    ) -> None:
        super().__init__()
        self.home = home
        self.files = files
        """Where the home's host keeps its files: a Hermes home's proposals are dry-run and written as ``§``
        entries in memories/, under Hermes's lock."""
        self.clock = clock
        self.watch_home = watch
        self.rows: list[Row] = []
        self.listed = False
        self.decided: set[str] = set()
        """Proposals listed or decided in this view: once decided (here or elsewhere) they stay listed with their
        outcome.
        """
        self.asking: str | None = None
        """While the input under the list is open: for a rejection's "reason", or an "edit"."""
        self.confirming: str | None = None
        """After Y or X, until y confirms: "approve" or "reject" all shown."""
        self.edit_preview: ProposalPreview | None = None
        self._reads = LatestWins(self, "review", self._read, done=self._listed, failed=self._failed)
        self._edits = LatestWins(
            self, "review-edit", self._preview_edit, done=self._edit_previewed, failed=self._failed
        )

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        yield Static("Reading the queue…", id="review-summary", markup=False)
        yield OptionList(id="review-queue")
        yield Input(id="review-input", select_on_focus=False)
        yield Static("", id="review-detail", markup=False)
        yield KeyFooter(compact=True)
        yield LiveHome(self.home, watch=self.watch_home, group="review-watch")

    @on(events.Mount)
    def _mounted(self) -> None:
        self.sub_title = "review"
        self.query_one("#review-queue").border_title = "Proposals, oldest first"
        self.query_one("#review-detail").border_title = "Proposal · its dry run against the file now"
        self._read_again()

    @property
    def is_typing(self) -> bool:
        return self.asking is not None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action != "back" and self.asking is not None:
            return False
        return True

    # --- reads -------------------------------------------------------------------

    def _read_again(self) -> None:
        self._reads.request(frozenset(self.decided))

    @on(LiveHome.Changed)
    def _home_changed(self) -> None:
        self._read_again()

    def _read(self, kept: frozenset[str]) -> list[Row]:
        """The pending proposals and those this view listed or decided (decided elsewhere too: they stay, with their
        outcome).
        """
        proposals = [
            p for p in pending(self.home, include_decided=True) if p.status == ProposalStatus.PENDING or p.id in kept
        ]
        waiting = [p for p in proposals if p.status == ProposalStatus.PENDING]
        previews = iter(preview_proposals(self.home, waiting, self.files))
        secrets = {p.id: tuple(holds_secret(p)) for p in waiting}
        batches = {
            p.id: batch
            for group in session_batches(waiting)
            if len(group) > 1
            for batch in (preview_batch(self.home, group, self.files),)
            for p in group
        }
        return [
            Row(p, next(previews), secrets[p.id], batches.get(p.id))
            if p.status == ProposalStatus.PENDING
            else Row(p, None)
            for p in proposals
        ]

    def _failed(self, words: str) -> None:
        self.query_one("#review-summary", Static).update(f"⚠ {words}")

    def _listed(self, rows: list[Row]) -> None:
        self.listed = True
        before = self.selected
        self.rows = rows
        self.decided.update(row.proposal.id for row in rows)
        listing = self.query_one(OptionList)
        listing.clear_options()
        listing.add_options(Option(row_prompt(row, self.clock), id=row.proposal.id) for row in rows)
        waiting = sum(1 for row in rows if row.proposal.status == ProposalStatus.PENDING)
        misses = sum(1 for row in rows if row.preview is not None and row.preview.misses)
        summary = f"{waiting} proposal{'s' if waiting != 1 else ''} to review" + (
            f" · {misses} would miss now" if misses else ""
        )
        self.query_one("#review-summary", Static).update(summary if rows else NOTHING)
        if rows:
            ids = [row.proposal.id for row in rows]
            index = ids.index(before.proposal.id) if before is not None and before.proposal.id in ids else 0
            listing.highlighted = min(index, len(rows) - 1)
            if self.asking is None:
                listing.focus()
        self._show()

    @property
    def selected(self) -> Row | None:
        listing = self.query_one(OptionList)
        index = listing.highlighted
        return self.rows[index] if index is not None and index < len(self.rows) else None

    # --- the detail ----------------------------------------------------------------

    @on(OptionList.OptionHighlighted)
    def _moved(self) -> None:
        if self.confirming is not None:
            self.confirming = None
        self._show()

    def _show(self) -> None:
        detail = self.query_one("#review-detail", Static)
        row = self.selected
        if self.confirming is not None:
            detail.update(Content.styled(self._confirm_words(), "bold $text-warning"))
            return
        if row is None:
            detail.update("")
            return
        preview = self.edit_preview if self.asking == "edit" and self.edit_preview is not None else row.preview
        detail.update(self._detail(row.proposal, preview))

    def _detail(self, proposal: Proposal, preview: ProposalPreview | None) -> Content:
        by = proposal.by
        head = f"{proposal.id} · {self.clock(proposal.time)} · by {who(by)}" + (
            f" · session {by.session}" if by.session else ""
        )
        parts: list[Content | str | tuple[str, str]] = [head, "\n", call_words(proposal, 400), "\n\n"]
        if proposal.status != ProposalStatus.PENDING:
            decided = f"{proposal.status}" + (f": {proposal.reason}" if proposal.reason else "")
            if proposal.edited:
                editor = who(proposal.decided_by) if proposal.decided_by is not None else "a person"
                decided += f" (edited by {editor}: {proposal.edit_words()})"
            parts.append((decided, MARKS.get(proposal.status, ("", "$foreground-muted"))[1]))
            return Content.assemble(*parts)
        secrets = next((row.secrets for row in self.rows if row.proposal.id == proposal.id), ())
        if secrets:
            parts += [(f"⚠ {secret_words(proposal, list(secrets))}", "bold $text-warning"), "\n"]
        if preview is None:
            parts.append(("looking at the file now…", "$foreground-muted"))
        elif preview.misses:
            parts.append(
                (
                    f"{preview.outcome.message}: approving now would fail, and nothing would be written",
                    "bold $text-error",
                )
            )
        else:
            edited = " (edited)" if self.asking == "edit" else ""
            parts += [(f"If approved now{edited}: {preview.outcome.outcome or 'applies'}", "$text-success")]
            for line in preview.lines.split("\n"):
                parts += ["\n", (line, LINE_STYLES.get(line[:1], ""))]
        batch = next((row.batch for row in self.rows if row.proposal.id == proposal.id), None)
        if batch is not None:
            parts += batch_words(batch)
        return Content.assemble(*parts)

    def _confirm_words(self) -> str:
        if self.confirming == "reject":
            shown = self._shown_pending()
            return f"Reject all {len(shown)} proposal{'s' if len(shown) != 1 else ''} shown?\ny confirms; esc cancels."
        applying, misses = self._shown_applying(), len(self._shown_pending()) - len(self._shown_applying())
        left = f"\n{misses} would miss now and stay{'s' if misses == 1 else ''} pending." if misses else ""
        return (
            f"Approve all {len(applying)} proposal{'s' if len(applying) != 1 else ''} shown that apply now, "
            "oldest first, "
            f"each against the file as the ones before leave it?{left}\ny confirms; esc cancels."
        )

    def _shown_pending(self) -> list[str]:
        return [row.proposal.id for row in self.rows if row.proposal.status == ProposalStatus.PENDING]

    def _shown_applying(self) -> list[str]:
        """The pending ones shown whose dry run applies: approve all never counts, or tries, one known to miss."""
        return [
            row.proposal.id
            for row in self.rows
            if row.proposal.status == ProposalStatus.PENDING and row.preview is not None and not row.preview.misses
        ]

    # --- the reason and the edit ---------------------------------------------------

    def _ask(self, what: str, value: str, title: str) -> None:
        self.asking = what
        field = self.query_one("#review-input", Input)
        field.value = value
        field.cursor_position = len(value)
        field.border_title = title
        field.add_class("-shown")
        field.focus()
        self.refresh_bindings()

    def _close_input(self) -> None:
        self.asking = None
        self.edit_preview = None
        field = self.query_one("#review-input", Input)
        field.remove_class("-shown")
        self.query_one(OptionList).focus()
        self.refresh_bindings()
        self._show()

    def _edited_field(self, proposal: Proposal) -> str:
        """The text a person edits: the new text of a replace, the text of an add or remove."""
        return "with" if proposal.field("action") == "replace" else "text"

    def _edited_args(self, proposal: Proposal) -> dict[str, object]:
        args = dict(proposal.args) if isinstance(proposal.args, dict) else {}
        args[self._edited_field(proposal)] = self.query_one("#review-input", Input).value
        return args

    @on(Input.Changed, "#review-input")
    def _typed(self) -> None:
        row = self.selected
        if self.asking == "edit" and row is not None:
            self._edits.request(row.proposal, self._edited_args(row.proposal))

    def _preview_edit(self, proposal: Proposal, args: dict[str, object]) -> ProposalPreview:
        return preview_proposal(self.home, proposal, args=args, files=self.files)

    def _edit_previewed(self, preview: ProposalPreview) -> None:
        row = self.selected
        if self.asking == "edit" and row is not None and preview.proposal.id == row.proposal.id:
            self.edit_preview = preview
            self._show()

    @on(Input.Submitted, "#review-input")
    def _submitted(self) -> None:
        row = self.selected
        asking = self.asking
        if row is None or asking is None:
            return
        proposal = row.proposal
        if asking == "reason":
            reason = self.query_one("#review-input", Input).value.strip() or None
            self._close_input()
            self._decide(lambda: [reject(self.home, proposal.id, reason=reason, by=NOTEBOOK)])
            return
        edited = self._edited_args(proposal)
        self._close_input()
        edited_args = None if edited == proposal.args else edited
        self._decide(lambda: [approve(self.home, proposal.id, by=NOTEBOOK, edited_args=edited_args, files=self.files)])

    # --- decisions -----------------------------------------------------------------

    def _decide(self, job: Callable[[], list[Decision]]) -> None:
        run_once(self, "review-decide", job, done=self._decided, failed=self._failed)

    def _decided(self, decisions: list[Decision]) -> None:
        self.decided.update(d.proposal for d in decisions)
        for decision in decisions:
            if decision.outcome == Outcome.APPROVED:
                words = f"approved {decision.proposal}: {decision.message}"
            elif decision.outcome == Outcome.FAILED:
                near = (
                    f"; {decision.near}" if decision.near else ""
                )  # the core's words, as the CLI and the form say them
                words = f"{decision.proposal} failed: {decision.message}{near}"
            else:
                words = decision.message
            severity = "information" if decision.done else "error"
            self.notify(words, title="review", severity=severity, markup=False)
        self._read_again()

    def _pending_selected(self) -> Proposal | None:
        row = self.selected
        if row is None or row.proposal.status != ProposalStatus.PENDING:
            self.notify("Nothing pending is selected.", title="review", markup=False)
            return None
        return row.proposal

    def action_approve(self) -> None:
        if self.confirming is not None:
            kind, self.confirming = self.confirming, None
            ids = frozenset(self._shown_applying() if kind == "approve" else self._shown_pending())
            if kind == "approve":
                self._decide(lambda: approve_all(self.home, by=NOTEBOOK, ids=ids, files=self.files))
            else:
                self._decide(lambda: reject_all(self.home, by=NOTEBOOK, ids=ids))
            self._show()
            return
        proposal = self._pending_selected()
        if proposal is not None:
            self._decide(lambda: [approve(self.home, proposal.id, by=NOTEBOOK, files=self.files)])

    def action_reject(self) -> None:
        if self._pending_selected() is not None:
            self._ask("reason", "", "Reason (optional) · enter rejects · esc cancels")

    def action_edit(self) -> None:
        proposal = self._pending_selected()
        if proposal is None:
            return
        value = proposal.field(self._edited_field(proposal))
        self._ask(
            "edit",
            value if isinstance(value, str) else "",
            f"{self._edited_field(proposal)} · enter approves the edit · esc cancels",
        )

    def _confirm(self, kind: str) -> None:
        if not self._shown_pending():
            self.notify("Nothing pending is shown.", title="review", markup=False)
            return
        if kind == "approve" and not self._shown_applying():
            self.notify("Every proposal shown would miss now: nothing to approve.", title="review", markup=False)
            return
        self.confirming = kind
        self._show()

    def action_approve_all(self) -> None:
        self._confirm("approve")

    def action_reject_all(self) -> None:
        self._confirm("reject")

    def action_back(self) -> None:
        if self.asking is not None:
            self._close_input()
        elif self.confirming is not None:
            self.confirming = None
            self._show()
        else:
            self.dismiss(None)
