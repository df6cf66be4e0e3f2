"""``host.remembered``: a host remembered for the folder that its own layout does not fit (issue 34).

An older release remembered the host of any ``--host``, a look (``soul --host hermes``) included: a plain
home could be left remembered as Hermes, and every later write without ``--host`` made a Hermes store beside
the real MEMORY.md. The finding names the host kept, since when, and what the layout says; its fix forgets
the choice, a write to the user's state folder only (never the home).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from notebook_app.core.doctor.model import Finding, finding
from notebook_app.core.doctor.repair import RepairPreview
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.home.remembered import forget_host, remembered_host
from notebook_app.core.hostbase.registry import host
from notebook_app.core.hosts.opening.detect import layout_fits
from notebook_app.core.memory.results import SpliceResult
from notebook_app.core.record.log.actor import Actor

RULE = "host.remembered"


@dataclass(frozen=True)
class ForgetHostFix:
    """Forget the host remembered for ``folder``, if it is still the one the doctor saw."""

    folder: Path
    """The folder the choice is kept for (a Claude Code project's root, not its memory folder)."""
    host: str
    state: Path | None = field(default=None, compare=False)
    """The per-user state folder (None: the user's own)."""

    @property
    def label(self) -> str:
        return f"forget {host(self.host).title} for this folder (the per-user state only; the home is not written)"

    def _check(self) -> Rejection | None:
        kept = remembered_host(self.folder, self.state)
        if kept is None or kept.host != self.host:
            return Rejection(f"{host(self.host).title} is no longer the host remembered for this folder; nothing to do")
        return None

    def preview(self, home: str | os.PathLike[str]) -> RepairPreview | Rejection:
        """What forgetting does: the next open without ``--host`` goes by the layout; writes nothing."""
        refused = self._check()
        if refused is not None:
            return refused
        return RepairPreview(
            "", f"{host(self.host).title} is forgotten for {self.folder}; the next open goes by its layout"
        )

    def apply(self, home: str | os.PathLike[str], *, by: Actor) -> SpliceResult:
        """Drop the choice from the user's state; the home's files are not touched."""
        refused = self._check()
        if refused is not None:
            return SpliceResult(refused.message, is_error=True)
        problem = forget_host(self.folder, state=self.state)
        if problem is not None:
            return SpliceResult(problem, is_error=True)
        return SpliceResult(f"{host(self.host).title} is forgotten for this folder: the next open goes by its layout")


def remembered_findings(folder: Path, *, state: Path | None = None) -> list[Finding]:
    """The finding when the host remembered for ``folder`` is not one its layout fits; none otherwise.

    A person's own profile is only ever remembered because it was named: it is not compared."""
    kept = remembered_host(folder, state)
    if kept is None or not host(kept.host).detected:
        return []
    fits = layout_fits(folder, os.environ, None)
    if kept.host in {fit.host for fit in fits} or (not fits and host(kept.host).fallback):
        return []
    layout = (
        " and ".join(f"{host(fit.host).title}'s ({fit.reason.partition(': ')[2]})" for fit in fits)
        if fits
        else f"{host(None).title}'s (no host's layout found)"
    )
    message = (
        f"{host(kept.host).title} is remembered for this folder{kept.since_words}, but its layout is {layout}: "
        f"every write without --host goes where {host(kept.host).title} keeps its files"
    )
    return [finding(RULE, None, None, message, ForgetHostFix(Path(os.path.realpath(folder)), kept.host, state))]
