"""``persona-notebook soul``: the soul a session starting now would load.

With ``--host NAME[@VERSION]``, what that host's loader proven by its goldens injects, as its object
(:meth:`.Host.soul`) says it: Hermes from ``$HERMES_HOME`` (``--cwd`` its project context file's
folder, ``--context-length`` its cap), Claude Code from a project root (``--cwd`` where it runs),
an OpenClaw release in a ``--session-kind`` session; any other host, its profile's composition.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from notebook_app.cli.common import CommandLine, home_option, opened_home, print_json, say_content_secrets, usage_error
from notebook_app.cli.hosts import HOST_HELP, home_and_host, host_options, host_spec, with_standing
from notebook_app.core.home.soul import compose
from notebook_app.core.hostbase.host import Host, SoulView
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hostbase.registry import hosts

LOAD_OPTIONS = (
    ("cwd", "--cwd"),
    ("context_length", "--context-length"),
    ("openclaw_config", "--openclaw-config"),
    ("session_kind", "--session-kind"),
)
"""The options of ``soul`` a host's load may take (:attr:`.Host.soul_options`), as the namespace and a person name
them."""


def add_parser(commands: argparse._SubParsersAction) -> None:
    soul = commands.add_parser(
        "soul",
        help="print the composed soul",
        description="Print the soul a session starting now would load (compose_soul of the home). "
        "A bootstrap file that is there but cannot be loaded is named on stderr; the soul is printed without it.",
    )
    home_option(soul, host_help=HOST_HELP)
    host_options(soul)
    soul.add_argument(
        "--cwd",
        metavar="DIR",
        help="Hermes: the working directory its project context file is read from; "
        "Claude Code: the directory it runs in (default: the project root, --home)",
    )
    soul.add_argument(
        "--context-length", type=int, metavar="N", help="Hermes only: the model's context length, which sets its cap"
    )


def run(args: argparse.Namespace) -> int:
    if args.host is None:  # the home may be a host's by its layout, or by the host remembered for it
        opening = opened_home(args)
        if isinstance(opening, str):
            return usage_error(opening)
    spec = host_spec(args)
    version = (spec or "").partition("@")[2] or None
    if spec is not None and registered(spec).soul_options:  # one proven release, a home and options of its own
        return _proven_run(args, registered(spec), version)
    found = home_and_host(args)
    if isinstance(found, str):
        return usage_error(found)
    home, host = found
    if args.cwd is not None or args.context_length is not None:
        return usage_error(_own_options())
    if host is not None and registered(host.name).session_kinds:  # its releases' rules, not the profile's numbers
        view = registered(host.name).soul(
            home, version, given=args.home, session_kind=args.session_kind, openclaw_config=args.openclaw_config
        )
        return _printed(args, view) if isinstance(view, SoulView) else usage_error(str(view))
    composition = compose(home, host=host)
    if host is not None:
        for note in host.notes:
            print(f"persona-notebook: {note}", file=sys.stderr)
    for skipped in composition.skipped:  # the soul is still printed: it is what a session gets
        print(f"persona-notebook: {skipped.message}", file=sys.stderr)
    say_content_secrets(composition.soul, "the soul")
    if args.json:
        data: dict[str, object] = {
            "soul": composition.soul,
            "found": composition.found,
            "skipped": [skipped.to_json() for skipped in composition.skipped],
        }
        if host is not None:  # the contract's output stays exactly as it was
            data["host"] = composition.host
        print_json(with_standing(args, data))
    elif composition.soul:
        print(composition.soul)
    elif composition.skipped:
        print(f"(empty soul: no bootstrap file in {args.home} loads)", file=sys.stderr)
    else:
        print(f"(empty soul: no bootstrap files in {args.home})", file=sys.stderr)
    return 0


def _own_options() -> str:
    """``--cwd is an option of --host hermes and claude-code, --context-length of --host hermes only``."""
    (cwd, _), (length, _) = LOAD_OPTIONS[:2]
    takes = {key: " and ".join(one.id for one in hosts() if key in one.soul_options) for key in (cwd, length)}
    return f"--cwd is an option of --host {takes[cwd]}, --context-length of --host {takes[length]} only"


def _proven_run(args: argparse.Namespace, one: Host, version: str | None) -> int:
    """``soul --host NAME`` of a host with one proven release (Hermes, Claude Code): its version, its options,
    its home (Hermes's own when no --home is given; a Claude Code project root), then its load."""
    proven, said = one.proven_version(version) or (None, f"{one.title} has no proven releases")
    if proven is None:
        return usage_error(str(said))
    refused = [flag for key, flag in LOAD_OPTIONS if key not in one.soul_options]
    if any(getattr(args, key) is not None for key, _ in LOAD_OPTIONS if key not in one.soul_options):
        listed = ", ".join(refused[:-1]) + f" and {refused[-1]}" if len(refused) > 1 else refused[0]
        return usage_error(f"{listed} are not options of --host {one.id}")
    root = Path(args.home).expanduser() if args.home else None
    if not one.own_home and (root is None or not root.is_dir()):
        return usage_error(f"{args.home}: not a folder (--home is {one.home_words})")
    opening = opened_home(args)  # pinned; a look: the --host is not remembered (a Hermes home's memories/ opens it)
    if isinstance(opening, str):
        return usage_error(opening)
    home = opening.root if one.own_home or root is None else root
    view = one.soul(home, version, given=args.home, cwd=args.cwd, context_length=args.context_length)
    return _printed(args, view) if isinstance(view, SoulView) else usage_error(str(view))


def _printed(args: argparse.Namespace, view: SoulView) -> int:
    for note in view.notes:
        print(f"persona-notebook: {note}", file=sys.stderr)
    say_content_secrets(view.text, "the soul")
    if args.json:
        print_json(with_standing(args, view.json))
    elif view.text:
        print(view.text)
    else:
        print(view.empty, file=sys.stderr)
    return 0


COMMAND = CommandLine(
    names=("soul",),
    usage="  persona-notebook soul [--host NAME[@VERSION]] [--cwd DIR]  print the soul the next session will load "
    "(as that host loads it)\n",
    add_parser=add_parser,
    run=run,
)
