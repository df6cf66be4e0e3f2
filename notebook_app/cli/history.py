"""``persona-notebook history|undo|restore|blame``: who wrote what and when, and taking it back.

Listing, blame and the dry runs only read: none of them makes ``.notebook/``.
undo and restore write as the CLI, through the same core as every write.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from notebook_app.cli.common import (
    CommandLine,
    home_option,
    opened_home,
    print_json,
    remember_aimed_host,
    report,
    usage_error,
)
from notebook_app.core.fs.state_dir import state_problem
from notebook_app.core.record.log.actor import CLI
from notebook_app.core.record.log.event_action import EventAction
from notebook_app.core.text.common_runs import differing_excerpts
from notebook_app.core.text.hidden import with_markers
from notebook_app.core.text.times import local_time

if TYPE_CHECKING:
    from pathlib import Path

    from notebook_app.core.home.layout import FileMap
    from notebook_app.core.record.log.events import Event

_KINDS = ("notebook", "cli", "mcp", "library", "outside")
_NAMES = (
    "a bootstrap file as the home's list shows it (MEMORY.md) or by its path (memories/MEMORY.md in a Hermes "
    "home); a tidy archive; a Claude Code topic file"
)

HOLDS = (
    "The history lives in HOME/.notebook/ (mode 0700; made by the first write, never by viewing):\n"
    "  events.jsonl   one JSON line per record (who, when, the arguments, the edit in bytes and lines)\n"
    "  snapshots/     compressed copies of contents the records cannot rebuild alone\n"
    "  sessions/      each agent session's frozen soul (ID.json); old ID.journal.jsonl files are read as they are\n"
    "  pruned-calls.json  how many calls each agent session made among those a prune dropped\n"
    "HOME/.memory.journal holds the write in flight and each file's state as last recorded."
)


def _count(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"not a count (0 or more): {value!r}")
    return number


def _days(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"not a number of days: {value!r}")
    return number


def add_parser(commands: argparse._SubParsersAction) -> None:
    listing = commands.add_parser(
        "history",
        help="list who wrote what, when (newest first); prune or redact the history",
        description="List the home's history, newest first: every write through the core (the agent's tool, the "
        "notebook, the CLI, undo and restore), outside changes seen by the next write, agent sessions and their "
        "failed calls. Listing never writes.",
        epilog=HOLDS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    listing.add_argument("--file", metavar="NAME", help=f"only this file's records ({_NAMES})")
    listing.add_argument(
        "--by", choices=_KINDS, metavar="KIND", help="only records by notebook, cli, mcp, library or outside"
    )
    listing.add_argument("--limit", type=_count, metavar="N", help="at most N records")
    listing.add_argument("--prune", action="store_true", help="drop old records (with --keep and/or --older-than)")
    listing.add_argument("--keep", type=_count, metavar="N", help="with --prune: keep the newest N records")
    listing.add_argument(
        "--older-than", type=_days, metavar="DAYS", help="with --prune: drop records older than DAYS days"
    )
    listing.add_argument(
        "--redact",
        metavar="ID",
        help="replace the secrets record ID holds by a marker of the "
        "same length, in the whole history (the record stays)",
    )
    listing.add_argument(
        "--dry-run", action="store_true", help="with --redact: say what it would remove; write nothing"
    )
    home_option(listing)

    taking_back = commands.add_parser(
        "undo",
        help="undo one record (any, not only the last)",
        description="Undo record ID (any unique prefix of its id): its edit is reversed where its bytes are now. "
        "Refused, changing nothing, when a later record changed that place (it is named). An undo is a record too: "
        "undoing it redoes.",
    )
    taking_back.add_argument("id", metavar="ID", help="the record's id, or any unique prefix of it")
    taking_back.add_argument("--dry-run", action="store_true", help="show the change it would make; write nothing")
    home_option(taking_back)

    back_to = commands.add_parser(
        "restore",
        help="put a file back as it was after a record",
        description="Put NAME back as it was just after record ID. --dry-run shows the diff first and writes nothing.",
    )
    back_to.add_argument("name", metavar="NAME", help=_NAMES)
    back_to.add_argument(
        "--to", dest="to", required=True, metavar="ID", help="the record (any unique prefix of its id)"
    )
    back_to.add_argument("--dry-run", action="store_true", help="show the diff; write nothing")
    home_option(back_to)

    lines = commands.add_parser(
        "blame",
        help="for each line of a file, the record that last wrote it",
        description="For each line of NAME, the record that last wrote it: its id, when and who. Lines there "
        "before the file's history began say (before history); lines changed from outside and not yet recorded "
        "say that.",
    )
    lines.add_argument("name", metavar="NAME", help=_NAMES)
    home_option(lines)


def run(args: argparse.Namespace) -> int:  # noqa: C901 (the history verbs' dispatch, one refusal per misused flag)
    from notebook_app.core.history.admin import prune, redact  # lazy: the history verb
    from notebook_app.core.history.query import history, not_a_file, record_json  # lazy: the history verb
    from notebook_app.core.history.undo_group import undo  # lazy: the history verb
    from notebook_app.core.history.undo_restore import restore  # lazy: the history verb

    writes = args.command in ("undo", "restore") and not args.dry_run  # the rest read, or write only the history
    opening = opened_home(args, writes=writes, file=getattr(args, "name", None) if writes else None)
    if isinstance(opening, str):
        return usage_error(opening)
    home = opening.entry_home  # where the writes record: a Claude Code project's memory folder
    files = opening.files
    named = getattr(args, "name", None) or getattr(args, "file", None)
    if named is not None and files.recorded(named) is None:
        return usage_error(not_a_file(files, named))
    if args.command in ("undo", "restore"):
        if args.command == "undo":
            result = undo(home, args.id, by=CLI, dry_run=args.dry_run, files=files)
        else:
            result = restore(home, args.name, args.to, by=CLI, dry_run=args.dry_run, files=files)
        if writes and not result.is_error:
            remember_aimed_host(args)
        return _done(
            result.output,
            result.is_error,
            args.json,
            record=result.record,
            diff=result.diff,
            unrecorded=result.unrecorded,
        )
    if args.command == "blame":
        return _blame(home, args.name, args.json, files)
    if args.redact is not None:
        admin = redact(home, args.redact, dry_run=args.dry_run)
        if args.json and admin.git is not None:  # which commits still hold it: git history is never rewritten
            print_json({"output": admin.output, "is_error": admin.is_error, "git_history": admin.git.to_json()})
            return 1 if admin.is_error else 0
        return report(admin.output, admin.is_error, as_json=args.json)
    if args.dry_run:
        return usage_error("--dry-run goes with --redact")
    if args.prune:
        if args.keep is None and args.older_than is None:
            return usage_error("history --prune needs --keep N and/or --older-than DAYS")
        older = datetime.now(UTC) - timedelta(days=args.older_than) if args.older_than is not None else None
        admin = prune(home, keep=args.keep, older_than=older)
        return report(admin.output, admin.is_error, as_json=args.json)
    if args.keep is not None or args.older_than is not None:
        return usage_error("--keep and --older-than go with --prune")
    records = history(home, file=args.file, limit=args.limit, by=args.by, files=files)
    unkept = state_problem(home)
    if unkept is not None:  # an empty list would say "nothing was written": say why none can be kept
        print(f"persona-notebook: no history: {unkept}", file=sys.stderr)
    if args.json:
        print_json([record_json(event) for event in records])
    elif not records and unkept is None:  # nothing to list is said in words (issue 34); the line above said why
        of = f" of {args.file}" if args.file else ""
        by = f" by {args.by}" if args.by else ""
        print(f"no records{of}{by} in the history")
    else:
        for event in records:
            print(line_of(event))
    return 0


def _done(output: str, is_error: bool, as_json: bool, *, record: str | None, diff: str, unrecorded: str | None) -> int:
    if as_json:
        print_json(
            {
                "output": output,
                "is_error": is_error,
                "record": record,
                "diff": diff,
                **({"unrecorded": unrecorded} if unrecorded else {}),
            }
        )
        return 1 if is_error else 0
    return report(output, is_error, as_json=False, unrecorded=unrecorded)


def line_of(event: Event) -> str:
    """One record on one line: id, time, file, action, who, and
    what it did; hidden characters drawn as the panes draw them."""
    from notebook_app.core.history.undo_restore import who  # lazy: the history verb

    when = local_time(event.time)
    session = f" session {event.by.session}" if event.by.session else ""
    line = f"{event.id}  {when}  {event.file or '-':<12} {event.action:<13} {who(event.by)}{session}  {summary(event)}"
    return with_markers(line) + _secret_mark(event)


def _secret_mark(event: Event) -> str:
    """``  ⚠ holds an Anthropic API key`` when the text a record carries holds one: it is shown as it is, marked."""
    from notebook_app.core.text.secrets import a_kind, secret_lines  # lazy: detect-secrets

    args = event.args if isinstance(event.args, dict) else {}
    found = secret_lines("\n".join(value for value in args.values() if isinstance(value, str)))
    return f"  ⚠ holds {a_kind(found[0][1])}" if found else ""


def summary(event: Event) -> str:
    """What a record did, in a few words."""
    args = event.args if isinstance(event.args, dict) else {}
    if event.action == EventAction.SESSION_START:
        return f"started ({', '.join(args.get('found') or []) or 'no files'} loaded)"
    if not event.is_write:
        return event.output or ""
    if event.undoes:
        words = f"undoes {event.undoes}"
    elif event.restores:
        words = f"back to after {event.restores}"
    elif "text" in args:
        words = (
            f"text {_short(args.get('text'))}"
            if args.get("with") is None
            else "text {} with {}".format(*_pair(args["text"], args["with"]))
        )
    elif "entry" in args:  # a Hermes '§' entry, by its number
        words = (
            f"entry {args['entry']} {_short(args.get('expect'))} deleted"
            if "to" not in args
            else ("entry {} {} → {}".format(args["entry"], *_pair(args.get("expect"), args["to"])))
        )
    elif "hunks" in args:  # a tidy: one record per file, the group's first undoes them all
        count, group = len(args["hunks"]), event.extra.get("group")
        words = f"tidy, {count} hunk{'s' if count != 1 else ''}" + (f" (with {group})" if group != event.id else "")
    elif "line" in args:
        words = (
            f"line {args['line']} {_short(args.get('expect'))} deleted"
            if "to" not in args
            else ("line {} {} → {}".format(args["line"], *_pair(args.get("expect"), args["to"])))
        )
    else:
        words = ""
    if event.edit is not None:
        added = sum(h.lines_added for h in event.edit)
        removed = sum(h.lines_removed for h in event.edit)
        words = f"{words}  (line {event.edit[0].line}: +{added} −{removed})".strip() if event.edit else words
    from notebook_app.core.history.query import undoable  # lazy: the history verb

    why = undoable(event)
    return words + ("" if why is None else "  [not undoable]")


def _pair(before: object, after: object) -> tuple[str, str]:
    """Both sides of a change, quoted, each cut around where they differ (not both at the same place)."""

    if not (isinstance(before, str) and isinstance(after, str)):
        return _short(before), _short(after)
    a, b = differing_excerpts(before, after)
    return f'"{a}"', f'"{b}"'


def _short(value: object, limit: int = 50) -> str:
    text = value if isinstance(value, str) else repr(value)
    return '"' + (text if len(text) <= limit else text[:limit] + "…") + '"'


def _blame(home: Path, name: str, as_json: bool, files: FileMap) -> int:
    from notebook_app.core.history.origins import Origin, blame  # lazy: the history verb
    from notebook_app.core.history.undo_restore import who  # lazy: the history verb

    result = blame(home, name, files=files)
    if result.message is not None:
        return report(result.message, True, as_json=as_json)
    lines = result.lines()
    if as_json:
        print_json(
            {
                "file": result.name,
                "lines": [
                    {
                        "line": line.number,
                        "text": line.text,
                        "origin": line.origin.value,
                        "id": line.record.id if line.record else None,
                        "time": line.record.time if line.record else None,
                        "action": line.record.action if line.record else None,
                        "by": line.record.by.to_json() if line.record else None,
                    }
                    for line in lines
                ],
            }
        )
        return 0
    if not lines:  # an empty file is said in words, never an empty screen (issue 34)
        print(f"{result.name} is empty: no lines to name a writer of")
        return 0
    from notebook_app.core.text.secrets import secret_lines  # lazy: detect-secrets

    width = len(str(len(lines)))
    marked = {number for number, _ in secret_lines("\n".join(line.text for line in lines))}
    for line in lines:
        if line.record is not None:
            owner = f"{line.record.id}  {local_time(line.record.when)}  {who(line.record.by):<20}"
        elif line.origin is Origin.NOT_RECORDED:
            owner = f"{'(changed outside, not yet recorded)':<64}"
        else:
            owner = f"{'(' + Origin.BEFORE_HISTORY.value + ')':<64}"  # the words the JSON and the gutter say
        gutter = "⚠" if line.number in marked else " "  # the line's bytes stay as they are; the mark is beside them
        print(f"{owner} {line.number:>{width}}{gutter}│ {line.text}", file=sys.stdout)
    return 0


COMMAND = CommandLine(
    names=("history", "undo", "restore", "blame"),
    usage=(
        "  persona-notebook history [--file NAME] [--limit N] [--by KIND]\n"
        "                                       who wrote what, when (newest first)\n"
        "  persona-notebook history --prune --keep N | --older-than DAYS;  history --redact ID\n"
        "  persona-notebook undo ID [--dry-run] undo any record (a unique prefix of its id will do)\n"
        "  persona-notebook restore NAME --to ID [--dry-run]\n"
        "  persona-notebook blame NAME          who last wrote each line\n"
    ),
    add_parser=add_parser,
    run=run,
)
