"""``persona-notebook``: the app, and the same core for scripts and agents.

A thin shell: every rule lives in :mod:`notebook_app.core`. Each verb group is
a module of its own that registers its parser in :data:`VERBS`; this module
only dispatches. Exit codes: 0 success, 1 the core refused (the reason on
stderr), 2 a usage error, 141 the reader of stdout went away (``history | head``):
the command ends quietly, as a tool killed by SIGPIPE does (128 + 13).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from notebook_app.cli import app, doctor, edit, entry, git, history, mcp, memory, portable, review, soul, tidy
from notebook_app.cli.common import CommandLine, build_verb_parser, say_git_notes, without_detection

VERBS: tuple[CommandLine, ...] = (
    memory.COMMAND,
    entry.COMMAND,
    edit.COMMAND,
    history.COMMAND,
    soul.COMMAND,
    doctor.COMMAND,
    tidy.COMMAND,
    review.COMMAND,
    git.COMMAND,
    portable.COMMAND,
    mcp.COMMAND,
    app.SERVE,
)
"""Every verb group, in the order ``--help`` lists them."""


CLOSED_PIPE = 141
"""The exit status when stdout's reader closed the pipe: what a shell reports for SIGPIPE."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; a closed stdout ends it quietly (Python's "Note on SIGPIPE")."""
    try:
        try:
            status = _dispatch(argv)
        finally:
            sys.stdout.flush()  # inside the try (--help's exit too): a closed pipe shows here, not at exit
    except BrokenPipeError:
        # Python flushes stdout again at exit: point it at devnull so that flush
        # cannot raise a second time and print "Exception ignored".
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return CLOSED_PIPE
    return status


def _dispatch(argv: Sequence[str] | None) -> int:
    argv = without_detection(list(sys.argv[1:] if argv is None else argv))
    verbs = {name: command for command in VERBS for name in command.names}
    if argv and argv[0] in verbs:
        parser = build_verb_parser(VERBS)
        args = parser.parse_args(argv)
        without_detection([], args)
        status = verbs[args.command].run(args)
        say_git_notes()
        return status
    return app.run(argv, VERBS)
