"""``host.unproven``: the host's installed release has no proven rules (issue 36).

A host ships weekly (Claude Code) to monthly; a release the goldens have not reached yet is shown as its
nearest proven release loads it (:mod:`...hosts.standing`), and the doctor says so, in the same words as
``soul``. An ``info`` finding, never a warning: the doctor's exit status and ``doctor --all`` in cron stay
quiet on a host's weekly release. A version named with ``--host NAME@V`` is the person's own choice and is
said by the load's notes, not here.
"""

from __future__ import annotations

from notebook_app.core.doctor.model import Finding, finding
from notebook_app.core.hosts.standing import Standing

RULE = "host.unproven"


def release_findings(standing: Standing | None) -> list[Finding]:
    """The finding when the installed release stands in for by a proven one; none otherwise."""
    if standing is None or standing.said_here is None:
        return []
    return [finding(RULE, None, None, standing.said_here)]
