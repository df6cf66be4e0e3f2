"""``persona-notebook [HOME]``: open the notebook itself."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .. import __version__
from .common import CommandLine


def build_parser(verbs: Sequence[CommandLine]) -> argparse.ArgumentParser:
    names = ", ".join(name for verb in verbs for name in verb.names)
    epilog = (
        "commands:\n"
        "  persona-notebook [HOME]              open the notebook on HOME (the demo persona if omitted)\n"
        + "".join(verb.usage for verb in verbs)
        + "\nEvery write is recorded in HOME/.notebook/ (mode 0700, made by the first write, never by viewing):\n"
        "the event log (events.jsonl), snapshots of file contents, and agent-session records.\n"
        "\nRun 'persona-notebook COMMAND --help' for a command's options.\n"
        f"To open a home folder named like a command ({names}), write it as ./NAME.\n"
    )
    parser = argparse.ArgumentParser(
        prog="persona-notebook",
        description="A terminal notebook for an AI agent's persona home: see what the running session "
        "loaded, what is on disk now, and what the next session will load.",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("home", nargs="?", metavar="HOME", help="the persona home to open (default: the demo persona)")
    parser.add_argument("--theme", metavar="NAME", help="colour theme (shipped: dark, light, high-contrast; or one of yours)")
    parser.add_argument("--reset-demo", action="store_true", help="restore the demo persona to its shipped state")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def run(argv: Sequence[str], verbs: Sequence[CommandLine]) -> int:
    args = build_parser(verbs).parse_args(argv)
    from ..app import launch  # Textual loads only when the app really opens

    return launch(home=args.home, theme=args.theme, reset_demo=args.reset_demo)
