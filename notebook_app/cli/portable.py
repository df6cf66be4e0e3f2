"""``persona-notebook export`` and ``import``: move a persona between hosts, the plan printed first.

A shell over :mod:`notebook_app.portable`. Without ``--apply`` nothing is written: the plan is printed (text, or
``--json``). ``--apply`` writes exactly that plan. An export to Claude Code writes two places, the project's
CLAUDE.md and the auto-memory folder in the user's Claude Code config; its ``--apply`` needs both confirmed:
``--yes``, or a ``y`` to the question asked on a terminal. Exit 0 when planned (or written), 1 when the plan is
refused (a secret, without ``--allow-secrets``; a file changed since the plan; an unconfirmed Claude Code move),
2 on a usage error (an unknown host or version, a source not that host's layout or not readable, a DEST that is a
file or not empty): always in words, nothing written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.cli.common import CommandLine, home_option, opened_home, print_json, usage_error
from notebook_app.core.hostbase.export import Place
from notebook_app.core.hostbase.registry import host as registered

if TYPE_CHECKING:
    from notebook_app.portable.model import Plan

HOSTS_WORDS = "toolnexus, openclaw[@VERSION], hermes, claude-code"


def add_parser(commands: argparse._SubParsersAction) -> None:
    export = commands.add_parser(
        "export",
        help="plan moving the home's persona to another host's home at DEST; --apply writes it",
        description="Plan writing the home's persona as HOST's home at DEST: every file and entry and where it "
        "lands, what HOST cuts at its caps, the entries past them moved to files it does not load, the copies it "
        "merges. DEST must be absent or an empty folder, or --merge adds to the home there and replaces no file. "
        "A secret the doctor finds refuses the export unless --allow-secrets. Nothing is written without --apply.",
    )
    home_option(export)
    export.add_argument("--to", required=True, metavar="HOST[@V]", help=f"the target host: {HOSTS_WORDS}")
    export.add_argument("dest", metavar="DEST", help="the target home (for claude-code: the project folder)")
    _shared(export)
    export.add_argument("--allow-secrets", action="store_true", help="move secrets the doctor finds, too")
    export.add_argument("--yes", action="store_true", help="confirm both places a Claude Code export writes")
    export.add_argument(
        "--soul-import",
        action="store_true",
        help="claude-code: write the project's CLAUDE.md with an @ import of the memory folder's SOUL.md, so Claude "
        "Code loads it (the plan says when it would not)",
    )
    imp = commands.add_parser(
        "import",
        help="plan reading a persona from another host's home SRC into the toolnexus home HOME; --apply writes it",
        description="Plan reading the persona in HOST's home at SRC into a toolnexus home at HOME (absent with "
        "--create, or an empty folder; --merge adds to a home and replaces no file). Nothing is written without "
        "--apply.",
    )
    imp.add_argument("--from", dest="source_host", required=True, metavar="HOST", help=f"the source: {HOSTS_WORDS}")
    imp.add_argument("src", metavar="SRC", help="the source home (for claude-code: the project folder)")
    imp.add_argument("home", metavar="HOME", help="the toolnexus home to write")
    imp.add_argument("--create", action="store_true", help="make HOME when it is not there")
    imp.add_argument("--json", action="store_true", help="print JSON instead of text")
    _shared(imp)
    imp.add_argument("--allow-secrets", action="store_true", help="move secrets the doctor finds, too")


def _shared(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--merge", action="store_true", help="add to the home there, as its own tool would")
    parser.add_argument("--apply", action="store_true", help="write the plan (default: print it, write nothing)")


def run(args: argparse.Namespace) -> int:
    from notebook_app.portable.model import Problem  # lazy: the export and import verbs
    from notebook_app.portable.planning import make_plan  # lazy: the export and import verbs
    from notebook_app.portable.reading import read_persona  # lazy: the export and import verbs
    from notebook_app.portable.writing import apply_plan  # lazy: the export and import verbs

    if args.command == "export":
        opening = opened_home(args)
        if isinstance(opening, str):
            return usage_error(opening)
        persona = read_persona(opening.root, opening.spec)
        target, dest = args.to, Path(args.dest)
    else:
        persona = read_persona(args.src, args.source_host)
        target, dest = registered(None).id, Path(args.home)
        if not dest.exists() and not dest.is_symlink() and not args.create:
            return usage_error(f"no such home: {args.home} (pass --create to make it)")
    if isinstance(persona, Problem):
        return usage_error(persona.message)
    soul_import = getattr(args, "soul_import", False)
    plan = make_plan(persona, target, dest, merge=args.merge, allow_secrets=args.allow_secrets, soul_import=soul_import)
    if isinstance(plan, Problem):
        return usage_error(plan.message)
    if not args.apply:
        return _said(plan, args.json, written=None, problem=plan.refusal)
    if (refusal := plan.refusal) is not None:
        return _said(plan, args.json, written=None, problem=refusal)
    shown = False
    if Place.MEMORY in plan.places and not getattr(args, "yes", False):
        if not sys.stdin.isatty() or args.json:
            return usage_error(
                "an export to Claude Code writes two places, the project and the auto-memory folder "
                f"{plan.places[Place.MEMORY]}; confirm both with --yes"
            )
        shown = True
        if not _confirmed(plan):
            return _said(plan, args.json, written=None, problem="not confirmed; nothing written", shown=shown)
    applied = apply_plan(plan)
    if isinstance(applied, Problem):
        return _said(plan, args.json, written=None, problem=applied.message, shown=shown)
    return _said(plan, args.json, written=applied.written, problem=None, shown=shown)


def _confirmed(plan: Plan) -> bool:
    """Both places of a Claude Code export confirmed by a ``y`` typed on a terminal, after the plan is shown."""
    from notebook_app.portable.words import plan_text  # lazy: the export and import verbs

    print(plan_text(plan))
    places = " and ".join(str(folder) for folder in plan.places.values())
    try:
        return input(f"write {places}? [y/N] ").strip().lower() in ("y", "yes")
    except EOFError:
        return False


def _said(
    plan: Plan, as_json: bool, *, written: tuple[Path, ...] | None, problem: str | None, shown: bool = False
) -> int:
    """Print the plan and what came of it; 1 when refused, else 0."""
    from notebook_app.portable.words import plan_json, plan_text  # lazy: the export and import verbs

    if as_json:
        print_json(
            {
                "plan": plan_json(plan),
                "applied": written is not None,
                "written": [str(path) for path in written or ()],
                "error": problem,
            }
        )
    else:
        if not shown:
            print(plan_text(plan))
        if written is not None:
            print(f"wrote {len(written)} file{'s' if len(written) != 1 else ''}")
        elif problem is None:
            print("nothing written: --apply writes this plan")
        if problem is not None:
            print(f"persona-notebook: {problem}", file=sys.stderr)
    return 1 if problem is not None else 0


COMMAND = CommandLine(
    names=("export", "import"),
    usage="  persona-notebook export --to HOST[@V] DEST [--merge] [--apply]   move the persona to another host\n"
    "  persona-notebook import --from HOST SRC HOME [--create] [--apply]   read one from another host\n",
    add_parser=add_parser,
    run=run,
)
