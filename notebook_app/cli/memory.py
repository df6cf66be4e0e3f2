"""``persona-notebook memory add|replace|remove``: the agent's own tool, from a shell."""

from __future__ import annotations

import argparse

from notebook_app.cli.common import (
    CommandLine,
    home_option,
    opened_home,
    remember_aimed_host,
    report,
    say_git_hint,
    say_secrets,
    usage_error,
)
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.record.log.actor import CLI

_HELPS = {
    "add": "append '- TEXT' to the target file (on a Hermes home: TEXT as a new '§' entry)",
    "replace": "swap the first occurrence of TEXT for --with (on a Hermes home: the whole '§' entry that holds TEXT "
    "becomes NEW)",
    "remove": "delete the first occurrence of TEXT (on a Hermes home: the whole '§' entry that holds TEXT)",
}


def add_parser(commands: argparse._SubParsersAction) -> None:
    from notebook_app.core.memory.plan import ACTIONS, TARGETS  # lazy: the memory verb

    memory = commands.add_parser(
        "memory",
        help="add, replace or remove a memory entry",
        description="Apply one memory-tool action. It lands on disk now and loads next session.",
    )
    actions = memory.add_subparsers(dest="action", required=True, metavar="ACTION")
    for action in ACTIONS:
        text = _HELPS[action]
        sub = actions.add_parser(action, help=text, description=text[0].upper() + text[1:] + ".")
        sub.add_argument("text", metavar="TEXT", help="the entry" if action == "add" else "the existing text to find")
        if action == "replace":
            sub.add_argument(
                "--with", dest="replacement", required=True, metavar="NEW", help="the replacement ('' removes)"
            )
        sub.add_argument(
            "--target",
            choices=TARGETS,
            default="self",
            help="self: MEMORY.md, the agent's own notes (default); user: USER.md",
        )
        home_option(sub)
        if action == "add":
            sub.add_argument("--create", action="store_true", help="make the home directory if it does not exist")


def run(args: argparse.Namespace) -> int:
    target = "USER.md" if args.target == "user" else "MEMORY.md"
    opening = opened_home(args, create=getattr(args, "create", False), writes=True, file=target)
    if isinstance(opening, str):
        return usage_error(opening)
    if not registered(opening.host).has_user_file and args.target == "user":
        return usage_error(
            f"{opening.title} has no USER.md: its memory is MEMORY.md in its memory folder (--target self)"
        )
    home = opening.entry_home
    if not home.is_dir():  # Claude Code's memory folder is its to make, never ours
        return usage_error(f"{opening.title}'s memory folder {home} does not exist; nothing was written")
    payload = {"action": args.action, "target": args.target, "text": args.text}
    if args.action == "replace":
        payload["with"] = args.replacement
    from notebook_app.core.memory.tool import memory_tool  # lazy: the memory verb

    result = memory_tool(home, by=CLI, files=opening.files).call(payload)
    if not result.is_error:
        remember_aimed_host(args)
        say_git_hint(opening)
    code = report(result.output, result.is_error, as_json=args.json, unrecorded=result.unrecorded, near=result.near)
    if not result.is_error:
        say_secrets(args.replacement if args.action == "replace" else args.text if args.action == "add" else None)
    return code


COMMAND = CommandLine(
    names=("memory",),
    usage=(
        "  persona-notebook memory add TEXT     add an entry to MEMORY.md (--target user: USER.md)\n"
        "  persona-notebook memory replace TEXT --with NEW\n"
        "  persona-notebook memory remove TEXT\n"
    ),
    add_parser=add_parser,
    run=run,
)
