"""``persona-notebook``: the app, and the same core for scripts and agents.

A thin shell: every rule lives in :mod:`notebook_app.core`. Exit codes are 0
for success, 1 when the memory tool answers with an error, 2 for usage errors.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from . import __version__
from .core import ACTIONS, TARGETS, compose, memory_tool

SUBCOMMANDS = ("memory", "soul", "mcp")

_EPILOG = """\
commands:
  persona-notebook [HOME]              open the notebook on HOME (the demo persona if omitted)
  persona-notebook memory add TEXT     add an entry to MEMORY.md (--target user: USER.md)
  persona-notebook memory replace TEXT --with NEW
  persona-notebook memory remove TEXT
  persona-notebook soul                print the soul the next session will load
  persona-notebook mcp [HOME]          serve the memory tool and the soul to an agent over MCP (stdio)

Run 'persona-notebook COMMAND --help' for a command's options.
"""


def _home_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--home", default=".", metavar="DIR", help="the persona home (default: the current directory)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def build_tool_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="persona-notebook",
        description="Work on an agent's persona home with the same memory tool the agent uses.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    memory = commands.add_parser(
        "memory",
        help="add, replace or remove a memory entry",
        description="Apply one memory-tool action. It lands on disk now and loads next session.",
    )
    actions = memory.add_subparsers(dest="action", required=True, metavar="ACTION")
    helps = {
        "add": "append '- TEXT' to the target file",
        "replace": "swap the first occurrence of TEXT for --with",
        "remove": "delete the first occurrence of TEXT",
    }
    for action in ACTIONS:
        sub = actions.add_parser(action, help=helps[action], description=helps[action][0].upper() + helps[action][1:] + ".")
        sub.add_argument("text", metavar="TEXT", help="the entry" if action == "add" else "the existing text to find")
        if action == "replace":
            sub.add_argument("--with", dest="replacement", required=True, metavar="NEW", help="the replacement ('' removes)")
        sub.add_argument(
            "--target",
            choices=TARGETS,
            default="self",
            help="self: MEMORY.md, the agent's own notes (default); user: USER.md",
        )
        _home_option(sub)

    soul = commands.add_parser(
        "soul",
        help="print the composed soul",
        description="Print the soul a session starting now would load (compose_soul of the home).",
    )
    _home_option(soul)

    mcp = commands.add_parser(
        "mcp",
        help="serve the memory tool and the soul over MCP (stdio)",
        description="Run a Model Context Protocol server on stdin/stdout for an agent host. "
        "It offers the memory tool and the composed soul, and records each agent session.",
    )
    mcp.add_argument("home", nargs="?", default=".", metavar="HOME", help="the persona home (default: the current directory)")
    return parser


def build_app_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="persona-notebook",
        description="A terminal notebook for an AI agent's persona home: see what the running session "
        "loaded, what is on disk now, and what the next session will load.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("home", nargs="?", metavar="HOME", help="the persona home to open (default: the demo persona)")
    parser.add_argument("--theme", metavar="NAME", help="colour theme (shipped: dark, light, high-contrast; or one of yours)")
    parser.add_argument("--reset-demo", action="store_true", help="restore the demo persona to its shipped state")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def run_memory(args: argparse.Namespace) -> int:
    payload = {"action": args.action, "target": args.target, "text": args.text}
    if args.action == "replace":
        payload["with"] = args.replacement
    result = memory_tool(args.home).call(payload)
    if args.json:
        print(json.dumps({"output": result.output, "is_error": result.is_error}, ensure_ascii=False))
    else:
        print(result.output, file=sys.stderr if result.is_error else sys.stdout)
    return 1 if result.is_error else 0


def run_soul(args: argparse.Namespace) -> int:
    composition = compose(args.home)
    if args.json:
        print(json.dumps({"soul": composition.soul, "found": composition.found}, ensure_ascii=False))
    elif composition.soul:
        print(composition.soul)
    else:
        print(f"(empty soul: no bootstrap files in {args.home})", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        args = build_tool_parser().parse_args(argv)
        if args.command == "mcp":
            from .mcp import serve

            return serve(args.home)
        return run_memory(args) if args.command == "memory" else run_soul(args)
    args = build_app_parser().parse_args(argv)
    from .app import launch

    return launch(home=args.home, theme=args.theme, reset_demo=args.reset_demo)
