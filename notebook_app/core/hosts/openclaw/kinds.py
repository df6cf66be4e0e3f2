"""OpenClaw's session kinds, ``main`` first: each filters the files it injects (proven by its goldens).

Its own module, so the host object (:mod:`.host`) and the loader (:mod:`.bootstrap`) share them with no circle.
"""

from __future__ import annotations

KINDS = ("main", "group", "channel", "subagent", "cron")
