"""OpenClaw: its proven releases as data, what each injects from a workspace, its own config's caps, and
that load as the notebook's :class:`...home.soul.Composition` (for the doctor, the panes and a dry run).

``releases`` resolves a version to the release whose goldens prove its rules; ``bootstrap`` reads a
workspace and builds its entries as that release does; ``config`` reads ``openclaw.json``; ``soul``
composes; ``pane`` says what a file's pane tells of it (BOOTSTRAP.md's first run, a daily note, the cap).
Names load on first use.
"""

from __future__ import annotations

from ...lazy import lazy_face

lazy_face(
    __name__,
    {
        "KINDS": "bootstrap",
        "OpenClawLoad": "bootstrap",
        "openclaw_load": "releases",
        "OpenClawPane": "pane",
        "openclaw_pane": "pane",
        "resolve_release": "releases",
        "ranges_in_words": "releases",
        "read_openclaw_numbers": "config",
        "apply_openclaw_config": "config",
        "apply_openclaw_release": "config",
        "default_config_path": "config",
        "compose_openclaw": "soul",
        "snapshot_as_openclaw": "soul",
        "recompose_openclaw": "soul",
    },
)

__all__ = [
    "KINDS",
    "OpenClawLoad",
    "OpenClawPane",
    "openclaw_pane",
    "apply_openclaw_config",
    "apply_openclaw_release",
    "compose_openclaw",
    "default_config_path",
    "openclaw_load",
    "ranges_in_words",
    "read_openclaw_numbers",
    "recompose_openclaw",
    "resolve_release",
    "snapshot_as_openclaw",
]
