"""``persona-notebook soul --host openclaw[@VERSION]``: what that OpenClaw
release injects, from the loader its goldens prove.

The entries come from :func:`..core.hosts.openclaw.releases.openclaw_load`
(``core/hosts/openclaw/openclaw-releases.toml``, each rule citing a golden made by the
release's own code). The text shows each entry as the notebook shows a file
(``## NAME``, a blank line, what OpenClaw injects for it), in OpenClaw's order.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from notebook_app.cli.common import print_json, say_content_secrets, usage_error
from notebook_app.cli.hosts import host_spec


def run_openclaw(args: argparse.Namespace, home: Path) -> int:
    from notebook_app.core.hosts.injected import load_json
    from notebook_app.core.hosts.openclaw.config import read_openclaw_numbers
    from notebook_app.core.hosts.openclaw.releases import openclaw_load

    _, _, version = (host_spec(args) or "openclaw").partition("@")
    config = read_openclaw_numbers(args.openclaw_config)
    load = openclaw_load(home, version or None, args.session_kind or "main", caps=config.numbers)
    if isinstance(load, str):
        return usage_error(load)
    for note in config.notes:
        print(f"persona-notebook: {'warning: ' if config.broken else ''}{note}", file=sys.stderr)
    for note in load.notes:
        print(f"persona-notebook: {note}", file=sys.stderr)
    for name, why in load.skipped:
        print(f"persona-notebook: {name}: {why}", file=sys.stderr)
    soul = "\n\n".join(f"## {part.name}\n\n{part.injected}" for part in load.parts)
    say_content_secrets(soul, "the soul")
    if args.json:
        print_json(
            {
                "soul": soul,
                "found": [part.name for part in load.parts if part.loads],
                "skipped": [
                    {"name": part.name, "status": part.status.value, "message": part.injected}
                    for part in load.parts
                    if not part.loads
                ]
                + [{"name": name, "status": "skipped", "message": why} for name, why in load.skipped],
                "host": "openclaw",
                **load_json(load, extra={"session_kind": load.kind}),
            }
        )
    elif soul:
        print(soul)
    else:
        print(f"(empty soul: OpenClaw {load.version} injects nothing from {args.home})", file=sys.stderr)
    return 0
