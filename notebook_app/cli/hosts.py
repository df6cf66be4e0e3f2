"""``--host NAME``, ``--openclaw-config PATH`` and ``--session-kind K``, shared by ``doctor`` and ``soul``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .common import existing_home

if TYPE_CHECKING:
    from ..core.hosts import HostProfile


def host_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        metavar="NAME",
        help="as this host loads it: toolnexus (default), openclaw[@VERSION], hermes, claude-code",
    )
    parser.add_argument(
        "--openclaw-config",
        metavar="PATH",
        help="OpenClaw's config to read its caps from (default: ~/.openclaw/openclaw.json)",
    )
    parser.add_argument(
        "--session-kind",
        choices=("main", "group", "channel", "subagent", "cron"),
        help="OpenClaw only: the kind of session, which filters the files it injects (default main)",
    )


def home_and_host(args: argparse.Namespace) -> tuple[Path, HostProfile | None] | str:
    """The home and the profile to compose with (None: the contract), or the usage error to print."""
    home = existing_home(args.home)
    if isinstance(home, str):
        return home
    host = resolved_host(args)
    return host if isinstance(host, str) else (home, host)


def resolved_host(args: argparse.Namespace) -> HostProfile | None | str:
    """The profile to compose with (None: the contract), or the usage error to print."""
    spec = args.host or ("openclaw" if args.openclaw_config else None)
    if args.session_kind is not None and (spec or "").partition("@")[0] != "openclaw":
        return "--session-kind is an option of --host openclaw only"
    if spec is None:
        return None
    from ..core.hosts import resolve_host  # the host profiles load when one is asked for

    choice = resolve_host(spec, openclaw_config=args.openclaw_config, session_kind=args.session_kind)
    for problem in choice.problems:
        print(f"persona-notebook: host profile {problem}", file=sys.stderr)
    if choice.profile is None:
        return choice.error or "no such host"
    return None if choice.profile.is_contract else choice.profile
