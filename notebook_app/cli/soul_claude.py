"""``persona-notebook soul --host claude-code[@VERSION] --home PROJECT_ROOT [--cwd DIR]``.

What Claude Code will load at the start of its next session in that project:
its own ``<system-reminder>`` block (the instruction files and the auto memory,
in its order), from the loader its goldens prove (core.hosts.claude_code.load).
``--home`` is the project root, ``--cwd`` the directory Claude Code runs in
(default: the project root); the user's own files come from ``$HOME/.claude``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.cli.common import opened_home, print_json, say_content_secrets, usage_error

if TYPE_CHECKING:
    from notebook_app.core.hosts.claude_code.load import ClaudeLoad
    from notebook_app.core.hosts.injected import InjectedPart

CLAUDE_CODE = "claude-code"


def claude_code_run(args: argparse.Namespace, version: str | None) -> int:
    from notebook_app.core.hosts.claude_code.load import claude_code_load, claude_code_version

    proven, said = claude_code_version(version)
    if proven is None:
        return usage_error(str(said))
    if args.context_length is not None or args.openclaw_config is not None or args.session_kind is not None:
        return usage_error(
            "--context-length, --openclaw-config and --session-kind are not options of --host claude-code"
        )
    root = Path(args.home).expanduser() if args.home else None
    if root is None or not root.is_dir():
        return usage_error(f"{args.home}: not a folder (--home is the Claude Code project root)")
    opening = opened_home(args)  # pinned; a look: the --host is not remembered
    if isinstance(opening, str):
        return usage_error(opening)
    cwd = Path(args.cwd).expanduser() if args.cwd is not None else root
    if not cwd.is_dir():
        return usage_error(f"{args.cwd}: not a folder (--cwd is the directory Claude Code runs in)")
    load = claude_code_load(root, cwd=cwd)
    for note in (f"{said}, as its goldens prove it", *load.notes):
        print(f"persona-notebook: {note}", file=sys.stderr)
    skipped = [part for part in load.parts if part.injected is None]
    for part in skipped:
        print(f"persona-notebook: {part.name}: {part.note}", file=sys.stderr)
    say_content_secrets(load.reminder or "", "the soul")
    if args.json:
        print_json(claude_code_json(load, skipped))
    elif load.reminder:
        print(load.reminder)
    else:
        print(f"(nothing: Claude Code loads no instruction file and no MEMORY.md for {cwd})", file=sys.stderr)
    return 0


def claude_code_json(load: ClaudeLoad, skipped: list[InjectedPart]) -> dict[str, object]:
    """Today's keys (soul, found, skipped, host) and issue 21's, each file in Claude Code's order."""
    from notebook_app.core.hosts.injected import load_json

    return {
        "soul": load.reminder or "",
        "found": [part.name for part in load.loaded],
        "skipped": [{"name": part.name, "status": "skipped", "message": part.note} for part in skipped],
        "host": CLAUDE_CODE,
        **load_json(load, extra={"root": load.root, "cwd": load.cwd, "memory_dir": load.memory_dir}),
    }
