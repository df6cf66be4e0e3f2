"""``persona-notebook tidy``: what tidy would do to a home's memory, as a dry run; nothing is written (a package:
the apply joins it later).

This stop proposes only: applying hunks (``--apply ID…``) comes later. Exit
status 0 with or without hunks, 2 on a usage error (no such home, no such
host, a ``--target`` outside 1–100). ``--json`` prints the proposal as one
object (:func:`..core.tidy.to_json`, its ``schema`` a version).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ...core.text import with_markers
from ..common import CommandLine, home_option, opened_home, print_json, usage_error
from ..hosts import HOST_HELP, resolved_host

if TYPE_CHECKING:
    from ...core.tidy import Proposal


def add_parser(commands: argparse._SubParsersAction) -> None:
    tidy = commands.add_parser(
        "tidy",
        help="propose tidying memory: duplicates, rewordings, superseded facts, over-cap files (a dry run)",
        description="Propose tidying the home's entry files (MEMORY.md, USER.md) as hunks, each with an id, its "
        "kind, its reason and the entries it touches. A dry run: nothing is written; applying hunks comes in a "
        "later release. Exact copies and empty lines would be removed; everything else would move to the "
        "host's archive file, which it does not load.",
    )
    home_option(tidy, host_help=HOST_HELP)
    tidy.add_argument(
        "--target",
        metavar="PCT",
        default="90",
        help="the share of the host's per-file cap an over-cap file is brought to, 1–100 (default 90)",
    )
    tidy.set_defaults(session_kind=None)


def target_of(given: str) -> float | str:
    """``--target`` as a share, or the usage error in words."""
    try:
        percent = float(given)
    except ValueError:
        return f"--target must be a percentage from 1 to 100, got {given!r}"
    if not 1 <= percent <= 100:
        return f"--target must be a percentage from 1 to 100, got {given}"
    return percent / 100


def run(args: argparse.Namespace) -> int:
    target = target_of(args.target)
    if isinstance(target, str):
        return usage_error(target)
    opening = opened_home(args)
    if isinstance(opening, str):
        return usage_error(opening)
    host = resolved_host(args)
    if isinstance(host, str):
        return usage_error(host)
    from ...core.tidy import tidy, to_json  # tidy's rules load when it runs

    proposal = tidy(opening.entry_home, opening.files, host, target)
    if args.json:
        print_json(to_json(proposal))
    else:
        _print_text(proposal, str(opening.entry_home), opening.title)
    return 0


def _print_text(proposal: Proposal, home: str, title: str) -> None:
    print(f"tidy (dry run, nothing written): {home} as {title}")
    for skipped in proposal.untidied:
        print(f"  not tidied: {skipped.file}: {skipped.reason}")
    for hunk in proposal.hunks:
        print(f"\n{hunk.id}  {hunk.kind.value}  {hunk.file}")
        print(with_markers(f"  {hunk.reason}"))
        for entry in hunk.entries:
            print(
                with_markers(
                    f"    line {entry.line}: {entry.text}" if entry.text else f"    line {entry.line}: (empty)"
                )
            )
    if proposal.strays:
        print("\nnot entries (reported, never proposed):")
        for stray in proposal.strays:
            span = f"line {stray.first}" if stray.first == stray.last else f"lines {stray.first}–{stray.last}"
            print(with_markers(f"  {stray.file} {span}: {stray.sample}"))
    count = len(proposal.hunks)
    moved = sum(len(h.entries) for h in proposal.hunks if not h.kind.removes)
    removed = sum(len(h.entries) for h in proposal.hunks if h.kind.removes)
    print(
        f"\n{count} hunk{'s' if count != 1 else ''}: {moved} entr{'y' if moved == 1 else 'ies'} would move to "
        f"{proposal.archive}, {removed} line{'s' if removed != 1 else ''} would be removed. Nothing was written; "
        "applying comes later"
        if count
        else "\nnothing to tidy"
    )


COMMAND = CommandLine(
    names=("tidy",),
    usage="  persona-notebook tidy [--host NAME] [--target PCT] [--json]  propose tidying memory (a dry run)\n",
    add_parser=add_parser,
    run=run,
)
