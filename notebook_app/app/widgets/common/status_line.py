"""One row under the header for the home's health (and, later, what waits for review).

It is always there, so the layout does not jump when a problem appears, and
it fits 80 columns: the doctor's headline, cut with an ellipsis, and the key
that opens the doctor.
"""

from __future__ import annotations

from pathlib import Path

from textual.content import Content
from textual.widgets import Static

TCSS = Path(__file__).with_suffix(".tcss")


class StatusLine(Static):
    def __init__(self, **kwargs) -> None:
        super().__init__(Content.styled("⚕ the doctor has not looked yet", "$foreground-muted"), markup=False, **kwargs)

    def show_health(self, headline: str, *, worst: str | None, key: str = "!", pending: int = 0) -> None:
        """The doctor's words (``worst``: the worst severity found, None: nothing) and the proposals waiting."""
        if worst is None:
            health = Content.assemble(
                ("✓ ", "$text-success"),
                ("no problems found", "$foreground-muted"),
                (f"  {key} doctor", "$foreground-muted"),
            )
        else:
            style = "$text-error" if worst == "error" else "$text-warning"
            health = Content.assemble(("⚕ ", style), (headline, style), (f"  {key} doctor", "$foreground-muted"))
        if pending:
            health = Content.assemble((f"✉ {pending} to review", "$text-accent bold"), ("  ", ""), health)
        self.update(health)
