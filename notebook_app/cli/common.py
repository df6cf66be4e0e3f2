"""What every verb shares: the registry entry, ``--home``/``--json``, the home check."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..core.fs import pin_home
from ..core.home import home_path


@dataclass(frozen=True)
class CommandLine:
    """One verb group: its names, how it adds its parser, and how it runs."""

    names: tuple[str, ...]
    """The first word(s) that select it, e.g. ("memory",)."""
    usage: str
    """Lines for the app's ``--help`` epilog."""
    add_parser: Callable[[argparse._SubParsersAction], None]
    run: Callable[[argparse.Namespace], int]


def build_verb_parser(verbs: Sequence[CommandLine]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="persona-notebook",
        description="Work on an agent's persona home with the same core the agent uses.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for verb in verbs:
        verb.add_parser(commands)
    return parser


def home_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--home", default=".", metavar="DIR", help="the persona home (default: the current directory)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def existing_home(given: str, *, create: bool = False) -> Path | str:
    """The home a verb works on, or the usage error to print (exit 2).

    A missing home is never made silently: only with ``create``. The home is
    pinned here (:func:`..core.home_pin.pin_home`): if it is moved or removed
    before the verb writes (``edit`` waits for the editor), the write is refused.
    """
    if not given:
        return "--home is empty; pass a directory ('.' for the current one)"
    path = home_path(given)
    if path.is_dir():
        pin_home(path)
        return path
    if path.exists():
        return f"home is not a directory: {given}"
    if create:
        try:
            path.mkdir(parents=True)
        except OSError as error:
            return f"could not create the home {given}: {error.strerror or error}"
        pin_home(path)
        return path
    return f"no such home: {given} (pass --create to make it)"


def usage_error(message: str) -> int:
    print(f"persona-notebook: {message}", file=sys.stderr)
    return 2


def print_json(value: object) -> None:
    print(json.dumps(value, ensure_ascii=False))


def report(output: str, is_error: bool, *, as_json: bool, unrecorded: str | None = None) -> int:
    """Print a core result (text, or ``{"output", "is_error"}``); the exit status: 1 if refused.

    ``unrecorded``: why a write that landed is not in the history; said on
    stderr (and as ``"unrecorded"`` in JSON), never hidden.
    """
    if as_json:
        print_json({"output": output, "is_error": is_error, **({"unrecorded": unrecorded} if unrecorded else {})})
    else:
        print(output, file=sys.stderr if is_error else sys.stdout)
        if unrecorded:
            print(f"persona-notebook: not recorded: {unrecorded}", file=sys.stderr)
    return 1 if is_error else 0
