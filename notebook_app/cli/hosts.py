"""``--host NAME`` and ``--openclaw-config PATH``, shared by ``doctor`` and ``soul``."""

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


def home_and_host(args: argparse.Namespace) -> tuple[Path, HostProfile | None] | str:
    """The home and the profile to compose with (None: the contract), or the usage error to print."""
    home = existing_home(args.home)
    if isinstance(home, str):
        return home
    host = resolved_host(args)
    return host if isinstance(host, str) else (home, host)


def resolved_host(args: argparse.Namespace) -> HostProfile | None | str:
    """The profile to compose with (None: the contract), or the usage error to print."""
    if args.host is None and args.openclaw_config is None:
        return None
    from ..core.hosts import resolve_host  # the host profiles load when one is asked for

    choice = resolve_host(
        args.host or ("openclaw" if args.openclaw_config else None), openclaw_config=args.openclaw_config
    )
    for problem in choice.problems:
        print(f"persona-notebook: host profile {problem}", file=sys.stderr)
    if choice.profile is None:
        return choice.error or "no such host"
    return None if choice.profile.is_contract else choice.profile
