"""``persona-notebook [HOME]``: open the notebook itself; ``persona-notebook serve [HOME]``: in a browser."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from notebook_app import __version__
from notebook_app.cli.common import CommandLine, host_options, usage_error, without_detection


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


def one_edit_apart(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by one edit: a letter added, dropped, changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    start = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    if len(a) == len(b):
        swapped = a[start : start + 2] == b[start : start + 2][::-1] and a[start + 2 :] == b[start + 2 :]
        return swapped or a[start + 1 :] == b[start + 1 :]
    shorter, longer = (a, b) if len(a) < len(b) else (b, a)
    return shorter[start:] == longer[start + 1 :]


def verb_meant(home: str, verbs: Sequence[CommandLine]) -> str | None:
    """The verb ``home`` is one slip of the keyboard from, when no folder of that name is here (``histroy``)."""
    if os.sep in home or home.startswith(".") or os.path.lexists(home):
        return None  # a path, or a folder that is there: the person means the folder
    return next((name for verb in verbs for name in verb.names if one_edit_apart(home.lower(), name)), None)


def run(argv: Sequence[str], verbs: Sequence[CommandLine]) -> int:
    args = build_parser(verbs).parse_args(argv)
    without_detection([], args)
    if args.home is not None and (verb := verb_meant(args.home, verbs)) is not None:
        return usage_error(
            f"{args.home} is not a command, and no folder here has that name: did you mean {verb}? "
            f"(to open or make a home named {args.home}, write it as ./{args.home})"
        )
    if args.reset_demo:
        if args.home is not None:
            return usage_error("--reset-demo restores the demo persona; it cannot be combined with HOME")
        return reset_demo(yes=args.yes)
    if args.yes:
        return usage_error("--yes goes with --reset-demo")
    from notebook_app.app.launch import launch  # lazy: Textual, for the app verb alone

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
    from notebook_app.app.demo import (  # lazy: the demo; importlib.resources: only the demo needs it
        demo_home_dir,
        demo_losses,
        ensure_demo,
    )

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


# --- serve: the same notebook in a browser, one process per tab ----------------------------------------


def port_number(text: str) -> int:
    """A TCP port, 0 to 65535 (0: the system picks a free one)."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"not a port number (0 to 65535): {text}")
    return port


def add_serve_parser(commands: argparse._SubParsersAction) -> None:
    serve = commands.add_parser(
        "serve",
        help="serve the notebook to a browser (127.0.0.1, behind a token)",
        description="Serve the notebook to a web browser: each tab runs the notebook on HOME, opened as "
        "'persona-notebook HOME' opens it. Only this machine can connect unless --bind says otherwise, and "
        "only with the token of the printed URL. 'o' ($EDITOR) is refused: a browser has no terminal to hand over.",
    )
    serve.add_argument("home", nargs="?", metavar="HOME", help="the persona home (default: the demo persona)")
    serve.add_argument("--theme", metavar="NAME", help="colour theme (shipped: dark, light, high-contrast)")
    host_options(serve)
    where = serve.add_argument_group("where it listens")
    where.add_argument(
        "--bind",
        default="127.0.0.1",
        metavar="ADDR",
        help="the address to listen on (default: 127.0.0.1). Another one lets anyone who can reach it, "
        "with the token, read and edit the home",
    )
    where.add_argument(
        "--port", type=port_number, default=8000, metavar="N", help="the port (default: 8000; 0: a free one)"
    )
    serve.add_argument(
        "--read-only",
        action="store_true",
        help="every write (adds, entry edits, the editor, undo, approvals, fixes) is refused, in words",
    )


def run_serve(args: argparse.Namespace) -> int:
    from notebook_app.app.launch import check_home  # lazy: Textual, for the app verb alone

    named = {"host": args.host, "agent": args.agent, "profile": args.profile, "openclaw_config": args.openclaw_config}
    refused = check_home(args.home, **named)
    if refused is not None:
        return refused
    from notebook_app.serve.server import Served, serve  # lazy: textual-serve

    command = [sys.executable, "-m", "notebook_app"]
    if args.home is not None:
        command.append(str(Path(args.home).expanduser().absolute()))
    for option, value in (*named.items(), ("theme", args.theme)):
        if value is not None:
            command += [f"--{option.replace('_', '-')}", value]
    return serve(Served(command=command, bind=args.bind, port=args.port, read_only=args.read_only))


SERVE = CommandLine(
    names=("serve",),
    usage="  persona-notebook serve [HOME] [--bind ADDR] [--port N] [--read-only]  "
    "the notebook in a browser, behind a token\n",
    add_parser=add_serve_parser,
    run=run_serve,
)
