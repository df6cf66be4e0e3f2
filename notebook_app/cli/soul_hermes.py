"""``persona-notebook soul --host hermes[@VERSION] --home HERMES_HOME [--cwd DIR] [--context-length N]``.

What Hermes will put in its next session's system prompt from ``$HERMES_HOME``: SOUL.md, the one project
context file of ``--cwd`` (none without it, said in words), and the ``§`` entries of ``memories/``, from the
loader its goldens prove (core.hosts.hermes.load). The text is those parts as Hermes joins them.
"""

from __future__ import annotations

import argparse
import sys

from notebook_app.cli.common import opened_home, print_json, say_content_secrets, usage_error

HERMES = "hermes"


def hermes_run(args: argparse.Namespace, version: str | None) -> int:
    from notebook_app.core.hosts.hermes.load import hermes_load, hermes_version
    from notebook_app.core.hosts.injected import load_json

    proven, said = hermes_version(version)
    if proven is None:
        return usage_error(said)
    if args.openclaw_config is not None or args.session_kind is not None:
        return usage_error("--openclaw-config and --session-kind are not options of --host hermes")
    opening = opened_home(args)  # a home's memories/ opens the home
    if isinstance(opening, str):
        return usage_error(opening)
    home = opening.root
    load = hermes_load(home, cwd=args.cwd, context_length=args.context_length)
    for note in (f"{said}, as its goldens prove it", *load.notes):
        print(f"persona-notebook: {note}", file=sys.stderr)
    skipped = [part for part in load.parts if not part.loads]
    for part in skipped:
        print(f"persona-notebook: {part.name}: {part.note}", file=sys.stderr)
    say_content_secrets(load.text or "", "the soul")
    if args.json:
        print_json(
            {
                "soul": load.text,
                "found": [part.name for part in load.parts if part.loads],
                "skipped": [{"name": p.name, "status": p.status.value, "message": p.note} for p in skipped],
                "host": HERMES,
                **load_json(load),
            }
        )
    elif load.text:
        print(load.text)
    else:
        print(f"(nothing: Hermes {load.version} loads no SOUL.md and no memory from {home})", file=sys.stderr)
    return 0
