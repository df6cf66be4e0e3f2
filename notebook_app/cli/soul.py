"""``persona-notebook soul``: the soul a session starting now would load."""

from __future__ import annotations

import argparse
import sys

from notebook_app.cli.common import CommandLine, home_option, opened_home, print_json, say_content_secrets, usage_error
from notebook_app.cli.hosts import HOST_HELP, home_and_host, host_options, host_spec
from notebook_app.cli.soul_claude import CLAUDE_CODE, claude_code_run
from notebook_app.cli.soul_hermes import HERMES, hermes_run
from notebook_app.core.home.soul import compose


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
    name, _, version = (host_spec(args) or "").partition("@")
    if name == CLAUDE_CODE:
        return claude_code_run(args, version or None)
    if name == HERMES:
        return hermes_run(args, version or None)
    found = home_and_host(args)
    if isinstance(found, str):
        return usage_error(found)
    home, host = found
    if args.cwd is not None or args.context_length is not None:
        return usage_error(
            "--cwd is an option of --host hermes and claude-code, --context-length of --host hermes only"
        )
    if host is not None and host.name == "openclaw":
        from notebook_app.cli.soul_openclaw import run_openclaw

        return run_openclaw(args, home)
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
        print_json(data)
    elif composition.soul:
        print(composition.soul)
    elif composition.skipped:
        print(f"(empty soul: no bootstrap file in {args.home} loads)", file=sys.stderr)
    else:
        print(f"(empty soul: no bootstrap files in {args.home})", file=sys.stderr)
    return 0


COMMAND = CommandLine(
    names=("soul",),
    usage="  persona-notebook soul [--host NAME[@VERSION]] [--cwd DIR]  print the soul the next session will load "
    "(as that host loads it)\n",
    add_parser=add_parser,
    run=run,
)
