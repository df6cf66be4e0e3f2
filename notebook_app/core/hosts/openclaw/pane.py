"""What a file's pane says of it on an OpenClaw load: when OpenClaw injects it, who reads it, and its own cap.

The notebook's 2 MiB cap is the contract's, not OpenClaw's: OpenClaw cuts each file at its release's
``file_cap`` (USER.md at ``user_cap`` from 2026.8) counted in UTF-16 code units, as JavaScript counts a
string (``openclaw-releases.toml``, proven by its goldens); a person's ``bootstrapMaxChars`` replaces it.

BOOTSTRAP.md, in OpenClaw's own source and docs:

- OpenClaw seeds it only into a brand-new workspace and its agent deletes it when the first-run ritual is
  done (docs ``start/bootstrapping.md``: "Removes BOOTSTRAP.md when finished so it only runs once";
  ``src/agents/workspace.ts`` ``ensureAgentWorkspace``, which also runs ``git init`` there);
- 2026.6.6 keeps "setup completed" in the workspace, ``.openclaw/workspace-state.json``
  ``setupCompletedAt``, and drops BOOTSTRAP.md once it is set (case oc-bootstrap-completed);
- 2026.8.2 and later keep it in OpenClaw's state database outside the workspace
  (``src/agents/workspace-state-store.ts``, the ``workspace_setup_state`` table), and the workspace's file
  is only a legacy input for ``openclaw doctor`` ("Runtime state never parses these files",
  ``src/agents/workspace-legacy-state.ts``): the notebook cannot know it, and says so;
- the releases before 2026.6 inject it whenever it is there.

Pure: words from a release's rules and a load already made.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass

from notebook_app.core.home.file_load import FileLoad
from notebook_app.core.home.layout import OPENCLAW_NOTES

BOOTSTRAP = "BOOTSTRAP.md"
DAILY_NOTE = (
    "not injected: OpenClaw's agent reads its daily notes itself, the recent ones at a session's start and the "
    "rest with memory_search and memory_get"
)
"""A daily note's pane (docs ``concepts/memory.md``: indexed for memory_search and memory_get, not injected)."""


@dataclass(frozen=True)
class OpenClawPane:
    """What the pane of one file says on an OpenClaw load, beyond its bytes."""

    note: str | None = None
    """When OpenClaw injects it and who reads it, in words; None: nothing beyond the list's mark."""
    units: int | None = None
    """Its length as OpenClaw counts it (UTF-16 code units); None when OpenClaw does not inject it."""
    cap: int | None = None
    """OpenClaw's per-file cap for it, in the same units; None when it is not injected or has none."""


FIRST_RUN = "OpenClaw injects this on a new workspace's first run; the agent deletes it when setup is done"


def bootstrap_note(rel: Mapping[str, object]) -> str:
    """BOOTSTRAP.md's life under release ``rel``: when OpenClaw injects it, and how it knows setup is done."""
    version = rel.get("version")
    done = rel.get("bootstrap_done")
    if done == "workspace-state":
        then = f"OpenClaw {version} also stops once .openclaw/workspace-state.json records setup as done"
    elif done == "state-database":
        then = f"OpenClaw {version} records that in its own database, outside the workspace: the notebook cannot see it"
    else:
        then = f"OpenClaw {version} injects it whenever it is there"
    return f"{FIRST_RUN}. {then}"


def openclaw_pane(name: str, rel: Mapping[str, object] | None, load: FileLoad | None) -> OpenClawPane:
    """What ``name``'s pane says under release ``rel`` (None: no OpenClaw release known), given its ``load``."""
    if rel is None:
        return OpenClawPane()
    if fnmatch.fnmatchcase(name, OPENCLAW_NOTES) and name.count("/") == 1:
        return OpenClawPane(note=DAILY_NOTE)
    note = bootstrap_note(rel) if name == BOOTSTRAP else None
    if load is None or load.unit != "utf16":
        return OpenClawPane(note=note)
    cap = rel.get("user_cap") if name == "USER.md" and rel.get("user_cap") else rel.get("file_cap")
    return OpenClawPane(note=note, units=load.raw, cap=cap if isinstance(cap, int) else None)
