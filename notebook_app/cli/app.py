"""``persona-notebook [HOME]``: open the notebook itself."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import __version__
from .common import CommandLine, host_options, usage_error


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
    parser.add_argument(
        "--theme", metavar="NAME", help="colour theme (shipped: dark, light, high-contrast; or one of yours)"
    )
    parser.add_argument(
        "--reset-demo",
        action="store_true",
        help="restore the demo persona to its shipped state, after saying what goes and asking; then exit",
    )
    parser.add_argument("--yes", action="store_true", help="with --reset-demo: do not ask (what goes is still said)")
    host_options(parser)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def run(argv: Sequence[str], verbs: Sequence[CommandLine]) -> int:
    args = build_parser(verbs).parse_args(argv)
    if args.reset_demo:
        if args.home is not None:
            return usage_error("--reset-demo restores the demo persona; it cannot be combined with HOME")
        return reset_demo(yes=args.yes)
    if args.yes:
        return usage_error("--yes goes with --reset-demo")
    from ..app import launch  # Textual loads only when the app really opens

    return launch(
        home=args.home,
        theme=args.theme,
        host=args.host,
        agent=args.agent,
        profile=args.profile,
        openclaw_config=args.openclaw_config,
    )


def reset_demo(*, yes: bool) -> int:
    """Put the demo persona back as shipped, after saying what goes and asking (unless ``yes``); never opens the app.

    With no terminal to ask on and no ``--yes``, nothing changes (exit 2).
    Declining changes nothing (exit 1).
    """
    from ..app.demo import demo_home_dir, demo_losses, ensure_demo  # importlib.resources: only the demo needs it

    home = demo_home_dir()
    try:
        losses = demo_losses(home)
    except OSError as error:
        print(f"persona-notebook: cannot read the demo persona in {home}: {error.strerror or error}", file=sys.stderr)
        return 1
    if not home.is_dir() or losses:
        if losses:
            print(f"Resetting the demo persona in {home} removes:")
            print("".join(f"  {item}\n" for item in losses), end="", flush=True)
        if losses and not yes:
            if not sys.stdin.isatty():
                return usage_error(
                    "--reset-demo asks before it removes anything: run "
                    "it in a terminal, or add --yes; nothing was changed"
                )
            try:
                answer = input("Reset it? [y/N] ")
            except EOFError:
                answer = ""
            if answer.strip().lower() not in ("y", "yes"):
                print("The demo persona was not reset; nothing was changed.")
                return 1
        try:
            ensure_demo(reset=True)
        except OSError as error:
            print(
                f"persona-notebook: cannot reset the demo persona in {home}: {error.strerror or error}", file=sys.stderr
            )
            return 1
        print(
            f"The demo persona in {home} is as shipped again." if losses else f"The demo persona was set up in {home}."
        )
        return 0
    print(f"The demo persona in {home} is already as shipped; nothing was changed.")
    return 0
