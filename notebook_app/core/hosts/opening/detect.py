"""Which hosts' layouts a folder fits, each with its reason in words (issue 22, item 1).

Each registered host says whether a folder has its layout (:meth:`.Host.fits`,
its own rule in its package's ``home`` module), in the order of its
:attr:`.Host.layout_rank`: Hermes (``memories/`` beside ``config.yaml`` or
SOUL.md), OpenClaw (a workspace its config names, or one beside
``openclaw.json``), Claude Code (CLAUDE.md and its auto-memory folder).

Reads, never writes; a folder that cannot be looked into fits nothing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from notebook_app.core.hostbase.host import Fit, Options
from notebook_app.core.hostbase.registry import hosts


def launch_options(openclaw_config: str | os.PathLike[str] | None) -> Options:
    """The launch options a host's rule may read, by name, those given only."""
    return {} if openclaw_config is None else {"openclaw_config": os.fspath(openclaw_config)}


def layout_fits(folder: Path, env: Mapping[str, str], openclaw_config: str | os.PathLike[str] | None) -> list[Fit]:
    """Every host whose layout ``folder`` fits, in their :attr:`.Host.layout_rank` order."""
    options = launch_options(openclaw_config)
    found = (one.fits(folder, env, options) for one in sorted(hosts(), key=lambda one: one.layout_rank))
    return [fit for fit in found if fit is not None]
