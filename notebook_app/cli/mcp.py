"""``persona-notebook mcp HOME``: the core served to an agent host over stdio."""

from __future__ import annotations

import argparse

from notebook_app.cli.common import CommandLine


def add_parser(commands: argparse._SubParsersAction) -> None:
    mcp = commands.add_parser(
        "mcp",
        help="serve the memory tool and the soul over MCP (stdio)",
        description="Run a Model Context Protocol server on stdin/stdout for an agent host. "
        "It offers the memory tool and the composed soul, and records each agent session.",
    )
    mcp.add_argument("home", metavar="HOME", help="the persona home (required; '.' for the current directory)")
    mode = mcp.add_mutually_exclusive_group()
    mode.add_argument(
        "--guard",
        dest="guard",
        action="store_const",
        const=True,
        default=None,
        help="refuse an agent write that a security rule of the doctor "
        "flags (default: the home's .notebook/settings.toml)",
    )
    mode.add_argument(
        "--no-guard",
        dest="guard",
        action="store_const",
        const=False,
        help="never guard, whatever the home's settings say",
    )
    review = mcp.add_mutually_exclusive_group()
    review.add_argument(
        "--review",
        dest="review",
        action="store_const",
        const=True,
        default=None,
        help="queue a valid agent write for a human to approve instead "
        "of writing it (default: the home's .notebook/settings.toml)",
    )
    review.add_argument(
        "--no-review",
        dest="review",
        action="store_const",
        const=False,
        help="never review, whatever the home's settings say",
    )


def run(args: argparse.Namespace) -> int:
    from notebook_app.mcp.server import serve  # lazy: the MCP SDK

    return serve(args.home, guard=args.guard, review=args.review)


COMMAND = CommandLine(
    names=("mcp",),
    usage="  persona-notebook mcp HOME [--guard] [--review]  serve "
    "the memory tool and the soul to an agent over MCP (stdio)\n",
    add_parser=add_parser,
    run=run,
)
