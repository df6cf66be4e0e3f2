"""``persona-notebook entry delete|edit``: one entry line, guarded by its text, from a shell."""

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
from notebook_app.core.home.reading import ENTRY_FILES
from notebook_app.core.record.log.actor import CLI

_HELPS = {
    "delete": "delete line LINE of FILE, its line ending included",
    "edit": "replace the text of line LINE of FILE with --to, keeping its line ending",
}


def _line_number(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"not a line number (1 or more): {value!r}")
    return number


def add_parser(commands: argparse._SubParsersAction) -> None:
    entry = commands.add_parser(
        "entry",
        help="delete or edit one entry line of MEMORY.md or USER.md",
        description="Delete or edit one line of MEMORY.md or USER.md, only if it still reads --expect: "
        "if another writer changed it first, nothing is changed and the reason goes to stderr (exit 1).",
    )
    actions = entry.add_subparsers(dest="action", required=True, metavar="ACTION")
    for action, text in _HELPS.items():
        sub = actions.add_parser(action, help=text, description=text[0].upper() + text[1:] + ".")
        sub.add_argument("file", metavar="FILE", choices=ENTRY_FILES, help=" or ".join(ENTRY_FILES))
        sub.add_argument("line", metavar="LINE", type=_line_number, help="the line number, from 1")
        sub.add_argument(
            "--expect", required=True, metavar="TEXT", help="the line's exact text now, without its line ending"
        )
        if action == "edit":
            sub.add_argument(
                "--to", dest="new_text", required=True, metavar="NEW", help="the line's new text (one line)"
            )
        home_option(sub)


def run(args: argparse.Namespace) -> int:
    opening = opened_home(args, writes=True, file=args.file)
    if isinstance(opening, str):
        return usage_error(opening)
    home, files = opening.entry_home, opening.files
    from notebook_app.core.memory.edits.guarded_splice import delete_entry, edit_entry  # lazy: the entry verb

    if args.action == "delete":
        result = delete_entry(home, args.file, args.line, args.expect, by=CLI, files=files)
    else:
        result = edit_entry(home, args.file, args.line, args.expect, args.new_text, by=CLI, files=files)
    if not result.is_error:
        remember_aimed_host(args)
        say_git_hint(opening)
    code = report(result.output, result.is_error, as_json=args.json, unrecorded=result.unrecorded)
    if not result.is_error and args.action == "edit":
        say_secrets(args.new_text)
    return code


COMMAND = CommandLine(
    names=("entry",),
    usage=(
        "  persona-notebook entry delete FILE LINE --expect TEXT\n"
        "                                       delete one entry line if it still reads TEXT\n"
        "  persona-notebook entry edit FILE LINE --expect TEXT --to NEW\n"
    ),
    add_parser=add_parser,
    run=run,
)
