"""``persona-notebook soul --host openclaw[@VERSION]``: what that OpenClaw
release injects, from the loader its goldens prove.

The entries come from :func:`..core.hosts.openclaw_releases.openclaw_load`
(``core/hosts/openclaw-releases.toml``, each rule citing a golden made by the
release's own code). The text shows each entry as the notebook shows a file
(``## NAME``, a blank line, what OpenClaw injects for it), in OpenClaw's order.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import print_json, usage_error


def run_openclaw(args: argparse.Namespace, home: Path) -> int:
    from ..core.hosts import openclaw_load, read_openclaw_numbers

    _, _, version = (args.host or "openclaw").partition("@")
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
    soul = "\n\n".join(f"## {entry.name}\n\n{entry.injected}" for entry in load.entries)
    if args.json:
        print_json(
            {
                "soul": soul,
                "found": [e.name for e in load.entries if e.status in ("injected", "cut")],
                "skipped": [
                    {"name": e.name, "status": e.status, "message": e.injected}
                    for e in load.entries
                    if e.status in ("missing", "unreadable")
                ]
                + [{"name": name, "status": "skipped", "message": why} for name, why in load.skipped],
                "host": "openclaw",
                "host_version": load.version,
                "session_kind": load.kind,
                "unit": "utf16",
                "total": {"injected": load.injected_total, "cap": load.total_cap, "file_cap": load.file_cap},
                "files": [
                    {
                        "name": e.name,
                        "path": e.path,
                        "status": e.status,
                        "raw_len": e.raw_len,
                        "injected": e.injected,
                        "injected_len": e.injected_len,
                        "cut": e.cut,
                        "markers": list(e.markers),
                        "tokens": None,
                    }
                    for e in load.entries
                ],
                "notes": list(load.notes),
            }
        )
    elif soul:
        print(soul)
    else:
        print(f"(empty soul: OpenClaw {load.version} injects nothing from {args.home})", file=sys.stderr)
    return 0
