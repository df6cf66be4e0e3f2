"""``persona-notebook pending|approve|reject|review``: the human side of review mode, on a command line.

Listing only reads; ``review on|off`` changes the home's setting (a recorded
write). approve applies a proposal through the core as its agent, approved by
the CLI; a proposal that is no longer pending, or that no longer
applies, is refused (exit 1) with the reason on stderr.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from notebook_app.cli.common import CommandLine, home_option, opened_home, print_json, report, say_secrets, usage_error
from notebook_app.core.record.log.actor import CLI
from notebook_app.core.text.times import local_time

if TYPE_CHECKING:
    from pathlib import Path

    from notebook_app.core.memory.review.decisions import Decision, Proposal


def add_parser(commands: argparse._SubParsersAction) -> None:
    listing = commands.add_parser(
        "pending",
        help="list the agents' proposals waiting for review (oldest first)",
        description="List the proposals agents queued in review mode, oldest first. Listing never writes.",
    )
    listing.add_argument("--all", action="store_true", help="also the decided ones (approved, rejected, failed)")
    home_option(listing)
    approving = commands.add_parser(
        "approve",
        help="apply a pending proposal now, against the file as it is",
        description="Apply a pending proposal through the core, as its agent, approved by you. "
        "ID is any unique prefix of a proposal's id.",
    )
    approving.add_argument("id", nargs="?", metavar="ID", help="the proposal (any unique prefix)")
    approving.add_argument("--all", action="store_true", help="approve every pending proposal, oldest first")
    home_option(approving)
    rejecting = commands.add_parser(
        "reject",
        help="reject a pending proposal; the file is not touched",
        description="Reject a pending proposal; it stays in the history as rejected. ID is any unique prefix.",
    )
    rejecting.add_argument("id", nargs="?", metavar="ID", help="the proposal (any unique prefix)")
    rejecting.add_argument("--all", action="store_true", help="reject every pending proposal")
    rejecting.add_argument("--reason", metavar="TEXT", help="why, kept with the rejection")
    home_option(rejecting)
    setting = commands.add_parser(
        "review",
        help="turn the home's review setting on or off (servers started from then on), or show it",
        description="Set review in HOME/.notebook/settings.toml: with it on, MCP servers this home starts queue "
        "agents' writes for review; --review / --no-review on the server still win. The change is recorded in the "
        "history.",
    )
    setting.add_argument("state", choices=("on", "off", "status"), help="on, off, or status to show it")
    home_option(setting)


def run(args: argparse.Namespace) -> int:
    # Loaded by a review verb only.
    from notebook_app.core.memory.review.decisions import (  # lazy: the review verb
        ReviewError,
        approve,
        approve_all,
        pending,
        reject,
        reject_all,
    )

    opening = opened_home(args)
    if isinstance(opening, str):
        return usage_error(opening)
    home = opening.root
    if args.command == "review":
        return review_setting(home, args.state, as_json=args.json)
    if args.command == "pending":
        proposals = pending(home, include_decided=args.all)
        if args.json:
            print_json([p.to_json() for p in proposals])
        elif not proposals:
            print("no proposals pending" if not args.all else "no proposals")
        for proposal in [] if args.json else proposals:
            print(describe(proposal))
        return 0
    if (args.id is None) == (not args.all):
        return usage_error(f"{args.command}: give one proposal ID, or --all")
    try:
        if args.command == "approve":
            files = opening.files  # a Hermes home's '§' stores in memories/, written under Hermes's lock
            decisions = (
                approve_all(home, by=CLI, files=files) if args.all else [approve(home, args.id, by=CLI, files=files)]
            )
        else:
            decisions = (
                reject_all(home, reason=args.reason, by=CLI)
                if args.all
                else [reject(home, args.id, reason=args.reason, by=CLI)]
            )
    except ReviewError as error:
        if args.json:
            print_json({"error": str(error)})
        print(f"persona-notebook: {error}", file=sys.stderr)
        return 1
    if args.json:
        from notebook_app.core.text.secrets import shown_text  # lazy: detect-secrets

        print_json(
            [
                {"proposal": d.proposal, "outcome": d.outcome, "message": shown_text(d.message)}
                | ({"near": d.near} if d.near else {})
                for d in decisions
            ]
        )
    for decision in [] if args.json else decisions:
        print(outcome_line(decision), file=sys.stdout if decision.done else sys.stderr)
        if decision.near:  # the memory verb's line after a miss that only hidden characters caused
            print(f"persona-notebook: {decision.near}", file=sys.stderr)
    if args.command == "approve":
        say_approved_secrets(home, decisions)
    return 0 if all(d.done for d in decisions) else 1


def say_approved_secrets(home: Path, decisions: list[Decision]) -> None:
    """An approval that wrote a secret says so on stderr, as a CLI write does (its first characters only)."""
    from notebook_app.core.memory.review.decisions import Outcome, pending  # lazy: the review verb

    approved = {d.proposal for d in decisions if d.outcome == Outcome.APPROVED}
    for proposal in pending(home, include_decided=True) if approved else []:
        written = proposal.field("with") if proposal.field("action") == "replace" else proposal.field("text")
        if proposal.id in approved and isinstance(written, str):
            say_secrets(written)


def review_setting(home, state: str, *, as_json: bool) -> int:
    from notebook_app.core.record.settings import load_settings, set_review  # lazy: the review verb

    if state != "status":
        result = set_review(home, state == "on", by=CLI)
        return report(result.output, result.is_error, as_json=as_json)
    settings = load_settings(home)
    words = "not set (off)" if settings.review is None else ("on" if settings.review else "off")
    if as_json:
        print_json({"review": settings.review, "problems": list(settings.problems)})
    else:
        print(f"review is {words}" + "".join(f"\n{problem}" for problem in settings.problems))
    return 0


def outcome_line(decision: Decision) -> str:
    """``approved p-…: ok (…)``, ``rejected p-…: reason``, ``p-… failed: not found: …``, ``p-… is not pending: …``."""
    from notebook_app.core.memory.review.decisions import Outcome  # lazy: the review verb
    from notebook_app.core.text.secrets import shown_text  # lazy: detect-secrets

    message = shown_text(decision.message)
    if decision.outcome == Outcome.APPROVED:
        return f"approved {decision.proposal}: {message}"
    if decision.outcome == Outcome.FAILED:
        return f"{decision.proposal} failed: {message}"
    return message


def describe(proposal: Proposal) -> str:
    """One proposal on one line: id, status, when, who, and the call; a secret it holds shown by its first
    characters only, and named (⚠) as the app names it."""
    from notebook_app.core.history.undo_restore import who  # lazy: the review verb
    from notebook_app.core.memory.review.decisions import holds_secret  # lazy: the review verb
    from notebook_app.core.text.secrets import a_kind, shown_text  # lazy: detect-secrets

    def said(key: str) -> str:
        value = proposal.field(key)
        return repr(shown_text(value) if isinstance(value, str) else value)

    change = f"{proposal.field('action')} {proposal.field('target') or 'self'}: {said('text')}"
    if proposal.field("with") is not None:
        change += f" → {said('with')}"
    line = f"{proposal.id}  {proposal.status:<8}  {local_time(proposal.time)}  {who(proposal.by)}  {change}"
    edited = proposal.edit_words()
    kinds = holds_secret(proposal)
    warning = " and ".join(a_kind(kind) for kind in kinds)
    return (
        line
        + (f"  (edited; {shown_text(edited)})" if edited else "")
        + (f"  ({shown_text(proposal.reason)})" if proposal.reason else "")
        + (f"  ⚠ holds {warning}" if kinds else "")
    )


COMMAND = CommandLine(
    names=("pending", "approve", "reject", "review"),
    usage="  persona-notebook pending [--all]  list the agents' proposals waiting for review\n"
    "  persona-notebook approve ID|--all  apply a proposal now; reject ID [--reason TEXT] drops it\n"
    "  persona-notebook review on|off|status  the home's review setting (a recorded write)\n",
    add_parser=add_parser,
    run=run,
)
