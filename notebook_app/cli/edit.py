"""``persona-notebook edit NAME``: a bootstrap file in ``$VISUAL``/``$EDITOR``, saved back with the conflict guard.

The editor works on a copy in the user's state directory (never in the home,
where a half-saved file would load), the base beside it; on return the core
writes it through the guarded hand edit. Exit 0 when written (merged or not)
or nothing to write, 1 when the core refused or the edit conflicts (the
person's text is kept and its path printed), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.cli.common import (
    CommandLine,
    home_option,
    opened_home,
    print_json,
    remember_aimed_host,
    say_git_hint,
    usage_error,
)
from notebook_app.core.home.names import BOOTSTRAP_ORDER
from notebook_app.core.record.log.actor import CLI

if TYPE_CHECKING:
    from notebook_app.core.memory.edits.editor_copy import CopyEditResult, EditorRunner


def process_runner(command: list[str]) -> EditorRunner:
    """Run ``command`` with the copy's path added, wait for it, and return its exit status."""

    def run(copy: Path) -> int:
        try:
            return subprocess.run([*command, str(copy)], check=False).returncode
        except OSError as error:
            print(
                f"persona-notebook: could not start the editor {command[0]!r}: {error.strerror or error}",
                file=sys.stderr,
            )
            return 127

    return run


def add_parser(commands: argparse._SubParsersAction) -> None:
    edit = commands.add_parser(
        "edit",
        help="edit a bootstrap file in $VISUAL/$EDITOR, guarded against other writers",
        description="Open a copy of NAME in $VISUAL (or $EDITOR) and write it back when the editor exits. "
        "If an agent wrote the file meanwhile, the two are merged line by line; if they conflict, the file "
        "keeps the agent's version, your edit is kept in a file whose path is printed, and the exit status is 1.",
    )
    edit.add_argument(
        "name", metavar="NAME", help=", ".join(BOOTSTRAP_ORDER) + "; or, in a Claude Code project, a topic file"
    )
    home_option(edit)


def run(
    args: argparse.Namespace, *, run_editor: EditorRunner | None = None, environ: Mapping[str, str] | None = None
) -> int:
    opening = opened_home(args, writes=True, file=args.name)
    if isinstance(opening, str):
        return usage_error(opening)
    # Loaded when an edit runs, not with the app.
    from notebook_app.core.memory.edits.copies import edits_dir  # lazy: the edit verb
    from notebook_app.core.memory.edits.editor_copy import edit_with_editor, editor_command  # lazy: the edit verb
    from notebook_app.core.memory.edits.hand_edit import hand_edit_refusal  # lazy: the edit verb

    files = opening.files
    if args.name not in BOOTSTRAP_ORDER and not files.edits_whole(args.name):
        return usage_error(f"invalid choice: {args.name!r}: {hand_edit_refusal(files, args.name, opening=True)}")
    home = opening.entry_home  # a Claude Code project's memory folder: nothing of ours goes into its tree

    if run_editor is None:
        command = editor_command(os.environ if environ is None else environ)
        if command is None:
            return usage_error("no editor: set $VISUAL or $EDITOR (e.g. EDITOR=nano)")
        run_editor = process_runner(command)
    result = edit_with_editor(home, files.relative(args.name), run_editor, edits_dir=edits_dir(), by=CLI, files=files)
    if result.edit is not None and not result.is_error:  # saved back: the workspace was written
        remember_aimed_host(args)
        say_git_hint(opening)
    return _report(result, as_json=args.json)


def _report(result: CopyEditResult, *, as_json: bool) -> int:
    if as_json:
        conflicts = result.edit.conflicts if result.edit is not None else ()
        print_json(
            {
                "output": result.output,
                "is_error": result.is_error,
                "outcome": result.outcome.value,
                "kept": None if result.kept is None else str(result.kept),
                "conflicts": [
                    {
                        "line": c.line,
                        "base_line": c.base_line,
                        "base": list(c.base),
                        "ours": list(c.ours),
                        "theirs": list(c.theirs),
                    }
                    for c in conflicts
                ],
            }
        )
    else:
        print(result.output, file=sys.stderr if result.is_error else sys.stdout)
        unrecorded = result.edit.unrecorded if result.edit is not None else None
        if unrecorded:
            print(f"persona-notebook: not recorded: {unrecorded}", file=sys.stderr)
    return 1 if result.is_error else 0


COMMAND = CommandLine(
    names=("edit",),
    usage="  persona-notebook edit NAME [--home DIR]   edit a bootstrap file in $VISUAL/$EDITOR, guarded\n",
    add_parser=add_parser,
    run=run,
)
