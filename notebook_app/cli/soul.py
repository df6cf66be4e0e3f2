"""``persona-notebook soul``: the soul a session starting now would load."""

from __future__ import annotations

import argparse
import sys

from ..core import compose
from .common import CommandLine, existing_home, home_option, print_json, usage_error


def add_parser(commands: argparse._SubParsersAction) -> None:
    soul = commands.add_parser(
        "soul",
        help="print the composed soul",
        description="Print the soul a session starting now would load (compose_soul of the home). "
        "A bootstrap file that is there but cannot be loaded is named on stderr; the soul is printed without it.",
    )
    home_option(soul)


def run(args: argparse.Namespace) -> int:
    home = existing_home(args.home)
    if isinstance(home, str):
        return usage_error(home)
    composition = compose(home)
    for skipped in composition.skipped:  # the soul is still printed: it is what a session gets
        print(f"persona-notebook: {skipped.message}", file=sys.stderr)
    if args.json:
        print_json(
            {
                "soul": composition.soul,
                "found": composition.found,
                "skipped": [skipped.to_json() for skipped in composition.skipped],
            }
        )
    elif composition.soul:
        print(composition.soul)
    elif composition.skipped:
        print(f"(empty soul: no bootstrap file in {args.home} loads)", file=sys.stderr)
    else:
        print(f"(empty soul: no bootstrap files in {args.home})", file=sys.stderr)
    return 0


COMMAND = CommandLine(
    names=("soul",),
    usage="  persona-notebook soul                print the soul the next session will load\n",
    add_parser=add_parser,
    run=run,
)
