"""``--session-kind K`` and the host ``doctor`` and ``soul`` compose with: ``--host``, else the home's own.

``--host``, ``--openclaw-config`` and the rest come with ``--home`` (:func:`.common.home_option`).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.cli.common import opened_home
from notebook_app.core.hostbase.registry import host as registered

if TYPE_CHECKING:
    from notebook_app.core.hosts.profile import HostProfile
    from notebook_app.core.hosts.standing import Standing

HOST_HELP = "as this host loads it: toolnexus (default), openclaw[@VERSION], hermes, claude-code"


def host_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--session-kind",
        choices=("main", "group", "channel", "subagent", "cron"),
        help="OpenClaw only: the kind of session, which filters the files it injects (default main)",
    )


def home_and_host(args: argparse.Namespace) -> tuple[Path, HostProfile | None] | str:
    """The home and the profile to compose with (None: the contract), or the usage error to print."""
    opening = opened_home(args)
    if isinstance(opening, str):
        return opening
    host = resolved_host(args)
    return host if isinstance(host, str) else (opening.root, host)


def host_spec(args: argparse.Namespace) -> str | None:
    """The host to compose as: ``--host``, else the one the home opened as (None: the contract); with no version
    named, a proven host's installed release (or the proven release standing in for it, :func:`host_standing`)."""
    spec = _named_spec(args)
    found = host_standing(args)
    if spec is None or found is None or "@" in spec or found.load_version is None:
        return spec
    return f"{spec}@{found.load_version}"


def _named_spec(args: argparse.Namespace) -> str | None:
    if args.host is not None:
        return str(args.host)
    opening = getattr(args, "opening", None)
    if opening is None or opening.chosen.value == "fallback":
        return None
    return str(opening.spec)


def host_standing(args: argparse.Namespace) -> Standing | None:
    """Where the host composed as stands (:mod:`...core.hosts.standing`), found once and kept as ``args.standing``;
    None for the contract, a host with no proven releases, or a version named that is refused (its own words
    say why). Its sentence about the installed release is said on stderr, once."""
    if hasattr(args, "standing"):
        return args.standing
    from notebook_app.core.hosts.standing import standing  # lazy: detection, for the verbs that show a host

    spec = _named_spec(args)
    found = standing(registered(spec), spec.partition("@")[2] or None, os.environ) if spec is not None else None
    args.standing = found if found is not None and not isinstance(found, str) else None
    if args.standing is not None and args.standing.said_here is not None:
        print(f"persona-notebook: {args.standing.said_here}", file=sys.stderr)
    return args.standing


def with_standing(args: argparse.Namespace, data: dict[str, object]) -> dict[str, object]:
    """``data`` (a verb's ``--json``) with ``installed``, ``rules`` and ``proven`` of a proven host."""
    found = host_standing(args)
    return {**data, **found.to_json()} if found is not None else data


def resolved_host(args: argparse.Namespace) -> HostProfile | None | str:
    """The profile to compose with (None: the contract), or the usage error to print."""
    spec = host_spec(args)
    if args.session_kind is not None and (spec is None or not registered(spec).session_kinds):
        return "--session-kind is an option of --host openclaw only"
    if spec is None:
        return None
    from notebook_app.core.hosts.choice import resolve_host  # lazy: a host's loader

    choice = resolve_host(spec, openclaw_config=args.openclaw_config, session_kind=args.session_kind)
    for problem in choice.problems:
        print(f"persona-notebook: host profile {problem}", file=sys.stderr)
    if choice.profile is None:
        return choice.error or "no such host"
    return None if choice.profile.is_contract else choice.profile
