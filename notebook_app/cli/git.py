"""``persona-notebook git on|off|status``: keep the home in git, one commit per recorded write (docs/git.md).

``on`` and ``off`` change the home's ``git`` setting (a recorded write). A home
inside another repository is committed into only with ``--repo`` naming it.
``.gitignore`` lines for the notebook's own files are added only with a yes:
``--yes``, or the question answered on a terminal; without one, the output
names the lines left out and stderr says why nothing was asked.
"""

from __future__ import annotations

import argparse
import sys

from notebook_app.cli.common import CommandLine, home_option, opened_home, print_json, report, usage_error
from notebook_app.core.record.log.actor import CLI


def add_parser(commands: argparse._SubParsersAction) -> None:
    git = commands.add_parser(
        "git",
        help="commit every recorded write of the home to git (on), stop (off), or show it (status)",
        description="With git on, each recorded write also commits the files it changed, authored by who "
        "wrote it (cli, notebook, an agent's client) as <actor> <persona-notebook@localhost>. A commit never "
        "rewrites history and never pushes; a failed commit never fails the write.",
    )
    git.add_argument("state", choices=("on", "off", "status"), help="on, off, or status to show it")
    git.add_argument(
        "--repo",
        metavar="PATH",
        help="the repository to commit in when the home is inside another one (its top folder): "
        "without it, on refuses there",
    )
    git.add_argument(
        "--yes", action="store_true", help="add the .gitignore lines for the notebook's own files without asking"
    )
    home_option(git)


def run(args: argparse.Namespace) -> int:
    from notebook_app.core.record.git.mode import git_off, git_on, git_status  # lazy: the git verb

    opening = opened_home(args)
    if isinstance(opening, str):
        return usage_error(opening)
    home = opening.root
    if args.state == "status":
        status = git_status(home)
        if args.json:
            print_json(status.to_json())
        else:
            print(status.words())
        return 0
    if args.state == "off":
        result = git_off(home, by=CLI)
        return report(result.output, result.is_error, as_json=args.json)

    def ask(lines: tuple[str, ...]) -> bool:
        """Asked by the core once the home's repository is settled, and only when lines are missing."""
        question = f"add {', '.join(lines)} to {home}/.gitignore, so git leaves the notebook's own files out? [y/N] "
        return input(question).strip().lower() in ("y", "yes")

    left: list[tuple[str, ...]] = []

    def not_asked(lines: tuple[str, ...]) -> bool:
        """No one to ask (no terminal, or --json): the lines stay out, and stderr says why and how to add them."""
        left.append(lines)
        return False

    asking = sys.stdin.isatty() and not args.json
    result = git_on(home, by=CLI, repo=args.repo, add_ignore=True if args.yes else ask if asking else not_asked)
    code = report(result.output, result.is_error, as_json=args.json)
    if left and not result.is_error:
        why = "--json asks nothing" if args.json else "stdin is not a terminal, so nothing was asked"
        print(f"persona-notebook: the .gitignore lines were not added ({why}); --yes adds them", file=sys.stderr)
    return code


COMMAND = CommandLine(
    names=("git",),
    usage="  persona-notebook git on|off|status [--repo PATH] [--yes]  one git commit per recorded write\n",
    add_parser=add_parser,
    run=run,
)
