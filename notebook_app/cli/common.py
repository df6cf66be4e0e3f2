"""What every verb shares: the registry entry, ``--home``/``--json`` and the host options, the home check and
the one opening of a home as its host has it (:func:`opened_home`)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app import __version__
from notebook_app.core.fs.home_pin import pin_home
from notebook_app.core.home.soul import home_path
from notebook_app.core.hostbase.installed import DETECT_OFF
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.record.notes import git_notes

if TYPE_CHECKING:
    from notebook_app.core.hosts.opening.result import Opening


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


class _CurrentFolder(str):
    """``--home``'s default, ``.``, told apart from a ``--home .`` typed: only then may a host's own home be opened."""


CURRENT = _CurrentFolder(".")

HOST_HELP = "the host the home is for: toolnexus, openclaw[@VERSION], hermes, claude-code (default: its layout's)"


def home_option(parser: argparse.ArgumentParser, *, host_help: str = HOST_HELP) -> None:
    """``--home`` and ``--json``, and the options that say which host's home it is (:func:`opened_home`)."""
    parser.add_argument(
        "--home",
        default=CURRENT,
        metavar="DIR",
        help="the persona home (default: the current directory; with --host hermes or openclaw, "
        "--profile or --agent, that host's own home)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    host_options(parser, host_help=host_help)


def host_options(parser: argparse.ArgumentParser, *, host_help: str = HOST_HELP) -> None:
    """``--host``, ``--agent``, ``--profile``, ``--openclaw-config``: which host's home it is (:func:`opened_home`)."""
    hosts = parser.add_argument_group("the host")
    hosts.add_argument("--host", metavar="NAME", help=host_help)
    hosts.add_argument(
        "--agent",
        metavar="ID",
        help="OpenClaw: the agent whose workspace to open (default: the config's default agent)",
    )
    hosts.add_argument("--profile", metavar="NAME", help="Hermes: open ~/.hermes/profiles/NAME ('default': ~/.hermes)")
    hosts.add_argument(
        NO_DETECT,
        action="store_true",
        help="do not look for the host's installed release (read from its files on PATH, never run); "
        "also before the command, for every command",
    )
    hosts.add_argument(
        "--openclaw-config",
        metavar="PATH",
        help="OpenClaw's config to read its caps and workspaces from (default: $OPENCLAW_CONFIG_PATH, "
        "else ~/.openclaw/openclaw.json)",
    )


NO_DETECT = "--no-detect"
"""The global option that turns detection of installed hosts off (:data:`...core.hostbase.installed.DETECT_OFF`)."""


def without_detection(argv: list[str], args: argparse.Namespace | None = None) -> list[str]:
    """``argv`` without a leading ``--no-detect`` (the global form, before the command); that, or the option
    given to a command (``args.no_detect``), turns detection off for this process and the ones it starts."""
    off = False
    while argv and argv[0] == NO_DETECT:
        argv, off = argv[1:], True
    if off or getattr(args, "no_detect", False):
        os.environ[DETECT_OFF] = "1"
    return argv


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


def opened_home(
    args: argparse.Namespace, *, create: bool = False, writes: bool = False, file: str | None = None
) -> Opening | str:
    """The home a verb works on, opened as its host has it and pinned; or the usage error to print (exit 2).

    The host is ``--host``, else the one remembered for the folder, else its layout's, else toolnexus
    (:func:`..core.hosts.open_home`); with no ``--home``, ``--host hermes|openclaw``, ``--profile`` or
    ``--agent`` open that host's own home, and one line on stderr names it. Opening remembers nothing: a
    write aimed with ``--host`` is remembered once it lands (:func:`remember_aimed_host`). A host the
    layout or the memory chose is said on stderr, one line; for a verb that ``writes`` (to ``file``) a
    remembered host is said as where the write goes and what ``--host`` would do instead. The Opening is
    kept as ``args.opening`` (a second call returns it), and ``args.home`` becomes its folder when that is
    not the one given (a Hermes home's ``memories/`` opens the home).
    """
    if getattr(args, "opening", None) is not None:
        return args.opening
    from notebook_app.core.hosts.opening.choose import open_home  # lazy: a host's loader
    from notebook_app.core.hosts.opening.result import Chosen, OpeningError  # lazy: a host's loader

    given: Path | None = None
    if args.home is not CURRENT:
        home = existing_home(args.home, create=create)
        if isinstance(home, str):
            return home
        given = home
    found = open_home(
        given, host=args.host, agent=args.agent, profile=args.profile, openclaw_config=args.openclaw_config
    )
    if isinstance(found, OpeningError):
        return found.message
    if given is None and found.root == Path("."):
        home = existing_home(CURRENT, create=create)  # the current folder, checked and pinned as ever
        if isinstance(home, str):
            return home
    elif found.root != given:
        pin_home(found.root)
        args.home = str(found.root)
    said = found.remembered_write(file) if writes else None
    if given is None and found.root != Path("."):  # a host's own home, from any folder: say which
        named = found.reason if str(found.root) in found.reason else f"{found.reason}; the home is {found.root}"
        print(f"persona-notebook: {named}", file=sys.stderr)
    elif said is not None:
        print(f"persona-notebook: {said}", file=sys.stderr)
    elif found.chosen in (Chosen.DETECTED, Chosen.REMEMBERED) and not registered(found.host).fallback:
        print(f"persona-notebook: {found.reason}", file=sys.stderr)
    args.opening = found
    return found


def remember_aimed_host(args: argparse.Namespace) -> None:
    """After a write aimed with ``--host`` landed: that host is remembered for the folder, with the time, so
    later writes without ``--host`` go there too (and say so). A read never calls this (issue 34)."""
    opening: Opening | None = getattr(args, "opening", None)
    if args.host is None or opening is None:
        return
    from notebook_app.core.home.remembered import remember_host  # lazy: platformdirs (17 ms)

    problem = remember_host(opening.root, opening.host, opening.version)
    if problem is not None:
        print(f"persona-notebook: {problem}", file=sys.stderr)


def say_git_hint(opening: Opening) -> None:
    """After a write to a workspace in git whose history git would commit: one line on stderr, once per folder."""
    from notebook_app.core.home.git_ignore import git_hint  # lazy: git, for the hint alone

    line = git_hint(opening.entry_home, opening.host)
    if line is not None:
        print(f"persona-notebook: {line}", file=sys.stderr)


def usage_error(message: str) -> int:
    print(f"persona-notebook: {message}", file=sys.stderr)
    return 2


def print_json(value: object) -> None:
    print(json.dumps(value, ensure_ascii=False))


def report(
    output: str, is_error: bool, *, as_json: bool, unrecorded: str | None = None, near: str | None = None
) -> int:
    """Print a core result (text, or ``{"output", "is_error"}``); the exit status: 1 if refused.

    ``unrecorded``: why a write that landed is not in the history; said on
    stderr (and as ``"unrecorded"`` in JSON), never hidden. ``near``: a
    miss's near match (hidden characters kept it apart), the line after it
    on stderr (``"near"`` in JSON). A secret the result quotes
    (``not found: <text>``) is shown by its first characters only.
    """
    from notebook_app.core.text.secrets import shown_text  # lazy: detect-secrets

    output = shown_text(output)
    if as_json:
        notes = git_notes()
        print_json(
            {
                "output": output,
                "is_error": is_error,
                **({"unrecorded": unrecorded} if unrecorded else {}),
                **({"near": near} if near else {}),
                **({"git": " ".join(notes)} if notes else {}),
            }
        )
    else:
        print(output, file=sys.stderr if is_error else sys.stdout)
        if near:
            print(f"persona-notebook: {near}", file=sys.stderr)
        if unrecorded:
            print(f"persona-notebook: not recorded: {unrecorded}", file=sys.stderr)
    return 1 if is_error else 0


def say_secrets(text: str | None) -> None:
    """A write that put a secret in a file says so on stderr, even though it was allowed: its kind, its first
    characters only."""
    from notebook_app.core.text.quote import secret_notice  # lazy: detect-secrets

    notice = secret_notice(text) if text else None
    if notice is not None:
        print(f"persona-notebook: ⚠ {notice}", file=sys.stderr)


def say_content_secrets(content: str, what: str) -> None:
    """A view of content keeps its bytes: a secret in it is named on stderr (⚠, its kind and line), never shown."""
    from notebook_app.core.text.secrets import a_kind, secret_lines  # lazy: detect-secrets

    found = secret_lines(content) if content else []
    if found:
        number, kind = found[0]
        more = f" (and {len(found) - 1} more line{'s' if len(found) > 2 else ''})" if len(found) > 1 else ""
        print(
            f"persona-notebook: ⚠ line {number} of {what} holds {a_kind(kind)}{more}; the doctor names where",
            file=sys.stderr,
        )


def say_git_notes() -> None:
    """After any verb: each failed commit's sentence on stderr, never hidden (the write itself landed)."""
    for note in git_notes():
        print(f"persona-notebook: {note}", file=sys.stderr)
