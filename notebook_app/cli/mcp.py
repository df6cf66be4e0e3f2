"""``persona-notebook mcp HOME``: the core served to an agent host over stdio."""

from __future__ import annotations

import argparse

from .common import CommandLine


def add_parser(commands: argparse._SubParsersAction) -> None:
    mcp = commands.add_parser(
        "mcp",
        help="serve the memory tool and the soul over MCP (stdio)",
        description="Run a Model Context Protocol server on stdin/stdout for an agent host. "
        "It offers the memory tool and the composed soul, and records each agent session.",
    )
    mcp.add_argument("home", metavar="HOME", help="the persona home (required; '.' for the current directory)")


def run(args: argparse.Namespace) -> int:
    from ..mcp import serve  # the SDK loads only when a server really starts

    return serve(args.home)


COMMAND = CommandLine(
    names=("mcp",),
    usage="  persona-notebook mcp HOME            serve the memory tool and the soul to an agent over MCP (stdio)\n",
    add_parser=add_parser,
    run=run,
)
