"""The home doctor: every finding by file, its words, and the fix a person can apply.

The findings come from the core's doctor (the same rules as ``persona-notebook
doctor``), read in a worker. ``enter`` goes to the finding's line in the
notebook; ``y`` applies the fix shown, whose dry run (the line now, the line
after) is under the list, through the core's guarded splice as the notebook.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual import events, on
from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from notebook_app.app.keys import DOCTOR_KEYS, bindings
from notebook_app.app.screens.keyed import KeyedScreen
from notebook_app.app.widgets.common.key_footer import KeyFooter
from notebook_app.app.workers import LatestWins, run_once
from notebook_app.core.doctor.check import DoctorReport
from notebook_app.core.doctor.fixes import FixPreview, RedactPreview
from notebook_app.core.doctor.model import Finding
from notebook_app.core.doctor.repair import RepairPreview
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.record.log.actor import NOTEBOOK
from notebook_app.core.text.hidden import with_markers

ICONS = {"error": ("✖", "$text-error"), "warning": ("!", "$text-warning"), "info": ("·", "$foreground-muted")}


def finding_prompt(finding: Finding) -> Content:
    icon, style = ICONS[finding.severity.value]
    where = (
        f"line {finding.line}"
        if finding.line is not None
        else "history"
        if finding.record
        else "file"
        if finding.file
        else "home"
    )
    fix = ("  ✚ fix", "$text-accent") if finding.fix is not None else ""
    # two spaces at least, so a long label ("line 12345") never reads as the message's first word
    return Content.assemble((f"{icon} ", style), (f"{where:<9}  ", "$foreground-muted"), finding.message, fix)


def _words(finding: Finding, fix: str | None) -> str:
    parts = [f"{finding.rule} · {finding.severity.value} · {finding.group or 'the home'}", finding.message]
    return "\n".join([*parts, fix] if fix else parts)


def _fix_words(label: str, preview: object) -> str:
    """A fix's dry run in words: the line now and after, what a redaction removes, or why it cannot be done."""
    if isinstance(preview, FixPreview):  # hidden characters drawn as the panes draw them: what the fix removes shows
        after = "(the line is deleted)" if preview.after is None else with_markers(preview.after)
        return (
            f"fix ({label}), y applies it:\n  line {preview.line} now:  "
            f" {with_markers(preview.before)}\n  after:         {after}"
        )
    if isinstance(preview, RedactPreview | RepairPreview):
        return f"fix ({label}), y applies it:\n  {preview.words}"
    assert isinstance(preview, Rejection)
    return f"fix ({label}): {preview.message}"


class DoctorScreen(KeyedScreen[tuple[str, int] | None]):
    """Findings grouped by file; dismissed with (file, line) to jump there, or None."""

    CSS_PATH = Path(__file__).with_name("doctor.tcss")
    KEYS = DOCTOR_KEYS
    BINDINGS = bindings(KEYS)

    def __init__(self, home: Path, check: Callable[[], DoctorReport]) -> None:
        super().__init__()
        self.home = home
        self.check = check
        self.report: DoctorReport | None = None
        self._findings: dict[str, Finding] = {}
        self._previews = LatestWins(
            self, "doctor-preview", self._preview, done=self._previewed, failed=self._preview_failed
        )

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        yield Static("The doctor is looking…", id="doctor-summary", markup=False)
        yield OptionList(id="doctor-findings")
        yield Static("", id="doctor-detail", markup=False)
        yield KeyFooter(compact=True)

    @on(events.Mount)
    def _mounted(self) -> None:
        self.sub_title = "home doctor"
        self.query_one("#doctor-findings").border_title = "Findings"
        self.query_one("#doctor-detail").border_title = "Finding"
        self._run()

    def _run(self) -> None:
        run_once(self, "doctor", self.check, done=self._checked, failed=self._failed)

    def _failed(self, words: str) -> None:
        self.query_one("#doctor-summary", Static).update(f"⚠ The doctor could not finish: {words}")

    def _checked(self, report: DoctorReport) -> None:
        self.report = report
        listing = self.query_one(OptionList)
        highlighted = listing.highlighted
        listing.clear_options()
        self._findings = {}
        files = sorted({f.group or "(home)" for f in report.findings})
        for name in files:
            found = [f for f in report.findings if (f.group or "(home)") == name]
            listing.add_option(Option(Content.styled(f"{name} · {len(found)}", "bold $text-primary"), disabled=True))
            for index, finding in enumerate(found):
                key = f"{name}:{index}"
                self._findings[key] = finding
                listing.add_option(Option(finding_prompt(finding), id=key))
        problems = len(report.problems)
        summary = (
            f"{len(report.findings)} finding{'s' if len(report.findings) != 1 else ''}, {problems} of them "
            f"warnings or errors · {report.budget.tokens_label()} · as {report.composition.host} loads it"
        )
        self.query_one("#doctor-summary", Static).update(summary if report.findings else f"No finding. {summary}")
        if listing.option_count:
            listing.highlighted = min(highlighted or 1, listing.option_count - 1)
            listing.focus()
        self._show_detail()

    @property
    def selected(self) -> Finding | None:
        listing = self.query_one(OptionList)
        if listing.highlighted is None:
            return None
        option = listing.get_option_at_index(listing.highlighted)
        return self._findings.get(option.id or "")

    @on(OptionList.OptionHighlighted)
    def _show_detail(self) -> None:
        finding = self.selected
        detail = self.query_one("#doctor-detail", Static)
        if finding is None:
            detail.update("")
            return
        detail.update(_words(finding, "fix: its dry run…" if finding.fix is not None else None))
        if finding.fix is not None:
            self._previews.request(finding)

    def _preview(self, finding: Finding) -> tuple[Finding, object]:
        assert finding.fix is not None
        return finding, finding.fix.preview(self.home)

    def _previewed(self, result: tuple[Finding, object]) -> None:
        finding, preview = result
        if finding is self.selected and finding.fix is not None:
            self.query_one("#doctor-detail", Static).update(_words(finding, _fix_words(finding.fix.label, preview)))

    def _preview_failed(self, words: str) -> None:
        """A fix whose dry run failed says so where its dry run would be; the doctor's own verdict stands."""
        finding = self.selected
        if finding is not None and finding.fix is not None:
            self.query_one("#doctor-detail", Static).update(
                _words(finding, f"fix ({finding.fix.label}): its dry run failed: {words}")
            )

    @on(OptionList.OptionSelected)
    def _selected(self) -> None:
        self.action_jump()

    def action_jump(self) -> None:
        finding = self.selected
        if finding is not None and finding.file is not None:
            self.dismiss((finding.file, finding.line or 1))

    def action_apply_fix(self) -> None:
        finding = self.selected
        if finding is None or finding.fix is None:
            self.notify("This finding has no fix to apply; enter shows its line.", title="doctor", markup=False)
            return
        fix = finding.fix
        run_once(self, "doctor-fix", lambda: fix.apply(self.home, by=NOTEBOOK), done=self._fixed, failed=self._failed)

    def _fixed(self, result) -> None:
        self.notify(result.output, title="doctor", severity="error" if result.is_error else "information", markup=False)
        self._run()

    def action_back(self) -> None:
        self.dismiss(None)
