"""``persona-notebook tidy``: what tidy would do to a home's memory (a dry run), or ``--apply ID…`` to do it.

Without ``--apply`` nothing is written: exit status 0 with or without
hunks. ``--apply ID…`` (ids as the dry run lists them, or unique prefixes)
recomputes the proposal under the home's lock and applies those hunks as
one recorded write (:func:`..core.tidy.apply_tidy`): 0 when applied, 1 when
any id is refused (stale or unknown, each named; nothing written). 2 on a
usage error (no such home, no such host, a ``--target`` outside 1–100).
``--json`` prints the proposal (:func:`..core.tidy.to_json`, its ``schema``
a version) or the apply's result (:func:`result_json`).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from notebook_app.cli.common import CommandLine, home_option, opened_home, print_json, remember_aimed_host, usage_error
from notebook_app.cli.hosts import HOST_HELP, resolved_host
from notebook_app.core.record.log.actor import CLI
from notebook_app.core.text.hidden import with_markers

if TYPE_CHECKING:
    from notebook_app.core.hosts.opening.result import Opening
    from notebook_app.core.hosts.profile import HostProfile
    from notebook_app.core.tidy.apply import TidyResult
    from notebook_app.core.tidy.model import Proposal


def add_parser(commands: argparse._SubParsersAction) -> None:
    tidy = commands.add_parser(
        "tidy",
        help="propose tidying memory: duplicates, rewordings, superseded facts, over-cap files (a dry run); "
        "--apply ID… applies hunks",
        description="Propose tidying the home's entry files (MEMORY.md, USER.md) as hunks, each with an id, its "
        "kind, its reason and the entries it touches. A dry run unless --apply names hunks: then the proposal is "
        "computed again under the home's lock and only those hunks are applied, as one recorded write that "
        "'persona-notebook undo ID' undoes; an id that is no longer in it (its bytes changed since) is refused "
        "by name and nothing is written. Exact copies and empty lines are removed; everything else moves to the "
        "host's archive file, which it does not load.",
    )
    home_option(tidy, host_help=HOST_HELP)
    tidy.add_argument(
        "--target",
        metavar="PCT",
        default="90",
        help="the share of the host's per-file cap an over-cap file is brought to, 1–100 (default 90)",
    )
    tidy.add_argument(
        "--apply",
        nargs="+",
        metavar="ID",
        help="apply these hunks (ids as the dry run lists them, or unique prefixes); any id not live: nothing written",
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
    opening = opened_home(args, writes=bool(args.apply))  # a dry run only reads
    if isinstance(opening, str):
        return usage_error(opening)
    host = resolved_host(args)
    if isinstance(host, str):
        return usage_error(host)
    if args.apply:
        return _apply(args, opening, host, target)
    from notebook_app.core.tidy.model import to_json  # lazy: the tidy verb (4 ms)
    from notebook_app.core.tidy.propose import tidy  # lazy: the tidy verb

    proposal = tidy(opening.entry_home, opening.files, host, target)
    if args.json:
        print_json(to_json(proposal))
    else:
        _print_text(proposal, str(opening.entry_home), opening.title)
    return 0


def _print_text(proposal: Proposal, home: str, title: str) -> None:
    from notebook_app.core.text.secrets import shown_text  # lazy: detect-secrets

    print(f"tidy (dry run, nothing written): {home} as {title}")
    for skipped in proposal.untidied:
        print(f"  not tidied: {skipped.file}: {skipped.reason}")
    for hunk in proposal.hunks:
        print(f"\n{hunk.id}  {hunk.kind.value}  {hunk.file}")
        print(with_markers(f"  {shown_text(hunk.reason)}"))
        for entry in hunk.entries:
            print(with_markers(f"    line {entry.line}: {shown_text(entry.text) if entry.text else '(empty)'}"))
    if proposal.strays:
        print("\nnot entries (reported, never proposed):")
        for stray in proposal.strays:
            span = f"line {stray.first}" if stray.first == stray.last else f"lines {stray.first}–{stray.last}"
            print(with_markers(f"  {stray.file} {span}: {shown_text(stray.sample)}"))
    count = len(proposal.hunks)
    moved = sum(len(h.entries) for h in proposal.hunks if not h.kind.removes)
    removed = sum(len(h.entries) for h in proposal.hunks if h.kind.removes)
    print(
        f"\n{count} hunk{'s' if count != 1 else ''}: {moved} entr{'y' if moved == 1 else 'ies'} would move to "
        f"{proposal.archive}, {removed} line{'s' if removed != 1 else ''} would be removed. Nothing was written; "
        "apply them with persona-notebook tidy --apply ID…"
        if count
        else "\nnothing to tidy"
    )


def _apply(args: argparse.Namespace, opening: Opening, host: HostProfile | None, target: float) -> int:
    from notebook_app.core.tidy.apply import apply_tidy  # lazy: the tidy verb

    result = apply_tidy(opening.entry_home, args.apply, files=opening.files, profile=host, target=target, by=CLI)
    if args.json:
        print_json(result_json(result))
    elif result.refused:
        count = len(result.refused)
        print(
            f"persona-notebook: tidy refused {count} hunk id{'s' if count != 1 else ''}; nothing was written:",
            file=sys.stderr,
        )
        for refused in result.refused:
            print(f"  {refused.id or '(empty)'}: {refused.reason}", file=sys.stderr)
    elif result.is_error:
        print(f"persona-notebook: {result.output}", file=sys.stderr)
    else:
        _print_applied(result)
    if not result.is_error:
        remember_aimed_host(args)
    if result.unrecorded:
        print(f"persona-notebook: not recorded: {result.unrecorded}", file=sys.stderr)
    return 1 if result.is_error else 0


def result_json(result: TidyResult) -> dict[str, object]:
    """The apply's result as one JSON object: what was applied, refused, moved where and removed, how to undo."""
    return {
        "applied": list(result.applied),
        "refused": [{"id": r.id, "reason": r.reason} for r in result.refused],
        "is_error": result.is_error,
        "output": result.output,
        "record": result.record,
        "undo": f"persona-notebook undo {result.record}" if result.record else None,
        "archive": result.archive,
        "files": list(result.files),
        "moved": [{"file": e.file, "line": e.line, "text": e.text} for e in result.moved],
        "removed": [{"file": e.file, "line": e.line, "text": e.text} for e in result.removed],
        **({"unrecorded": result.unrecorded} if result.unrecorded else {}),
    }


def _print_applied(result: TidyResult) -> None:
    from notebook_app.core.text.secrets import shown_text  # lazy: detect-secrets

    print(with_markers(result.output))
    if result.moved:
        print(f"moved to {result.archive}:")
        for entry in result.moved:
            print(with_markers(f"  {entry.file} line {entry.line}: {shown_text(entry.text)}"))
    if result.removed:
        print("removed (exact copies, empty lines):")
        for entry in result.removed:
            print(with_markers(f"  {entry.file} line {entry.line}: {shown_text(entry.text) or '(empty)'}"))


COMMAND = CommandLine(
    names=("tidy",),
    usage="  persona-notebook tidy [--host NAME] [--target PCT] [--json]  propose tidying memory (a dry run)\n"
    "  persona-notebook tidy --apply ID…      apply those hunks as one write; persona-notebook undo ID undoes it\n",
    add_parser=add_parser,
    run=run,
)
