"""Listen, print the URL with its token, and run one notebook process per browser tab until stopped.

textual-serve gives the websocket handler (a notebook process per connection, its
screen sent to the page) and the page's static files; the routes, the page, the
token guard and the listening are ours, through aiohttp's public API: its page
template asks a font service for its font, and its URLs are made from a fixed
host and port, where ``--port 0`` learns its port only once it listens.
"""

from __future__ import annotations

import asyncio
import errno
import html
import ipaddress
import os
import shlex
import signal
import socket
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from string import Template
from typing import TextIO

from aiohttp import web
from textual_serve.server import Server

from notebook_app.core.fs.home_pin import READ_ONLY_ENV
from notebook_app.serve.guard import new_token, token_guard

WEBSOCKET = "/ws"
PAGE = Template(files(__package__).joinpath("page.html").read_text(encoding="utf-8"))


@dataclass(frozen=True, kw_only=True)
class Served:
    """What ``serve`` runs and where it listens."""

    command: Sequence[str]
    """The notebook's command line, run once per browser tab."""
    bind: str = "127.0.0.1"
    port: int = 8000
    read_only: bool = False
    title: str = "Persona Notebook"


def is_loopback(bind: str) -> bool:
    if bind == "localhost":
        return True
    try:
        return ipaddress.ip_address(bind).is_loopback
    except ValueError:
        return False


def url_host(bind: str) -> str:
    return f"[{bind}]" if ":" in bind else bind


def why(error: BaseException) -> str:
    """Why it cannot listen, in words: a port in use, an address not here, one that is no address."""
    if isinstance(error, socket.gaierror):
        return "not an address or a host name this machine can resolve"
    if isinstance(error, OSError) and error.errno == errno.EADDRINUSE:
        return "the port is in use (--port 0 picks a free one)"
    if isinstance(error, OSError) and error.errno == errno.EADDRNOTAVAIL:
        return "no network interface of this machine has that address"
    if isinstance(error, OSError) and error.errno == errno.EACCES:
        return "this user may not listen on that port (ports below 1024 need privileges)"
    return getattr(error, "strerror", None) or str(error)


def build_app(served: Served, token: str) -> web.Application:
    """The server's routes behind the token guard: the page, textual-serve's static files, its websocket."""
    command = "exec " + shlex.join(served.command)  # textual-serve runs it with sh: exec, so quit ends the notebook
    tabs = Server(command, title=served.title)
    sessions: set[asyncio.Task[web.StreamResponse]] = set()

    async def page(request: web.Request) -> web.Response:
        scheme = "wss" if request.secure else "ws"
        try:
            font_size = max(6, min(48, int(request.query.get("fontsize", "16"))))
        except ValueError:
            font_size = 16
        text = PAGE.substitute(
            title=html.escape(served.title),
            static="/static/",
            websocket=html.escape(f"{scheme}://{request.host}{WEBSOCKET}"),
            font_size=font_size,
        )
        return web.Response(text=text, content_type="text/html")

    async def websocket(request: web.Request) -> web.StreamResponse:
        """One tab: its own notebook process, ended when the tab closes or the server stops."""
        task = asyncio.current_task()
        assert task is not None
        sessions.add(task)
        try:
            return await tabs.handle_websocket(request)
        finally:
            sessions.discard(task)

    async def end_tabs(app: web.Application) -> None:
        for task in list(sessions):
            task.cancel()  # textual-serve then closes the socket and tells the notebook to quit
        if sessions:
            await asyncio.wait(list(sessions), timeout=10)

    guard = token_guard(token, websocket_path=WEBSOCKET, loopback=is_loopback(served.bind))
    app = web.Application(middlewares=[guard])
    app.add_routes(
        [
            web.get("/", page),
            web.get(WEBSOCKET, websocket),
            web.static("/static", tabs.statics_path),
        ]
    )
    app.on_shutdown.append(end_tabs)
    return app


def serve(served: Served, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Serve until SIGINT or SIGTERM; 0 then, 2 when it cannot listen (said in words)."""
    out, err = out or sys.stdout, err or sys.stderr
    if served.read_only:
        os.environ[READ_ONLY_ENV] = "1"  # each tab's notebook inherits it: its core refuses every write
    return asyncio.run(_serve(served, out, err))


async def _serve(served: Served, out: TextIO, err: TextIO) -> int:
    token = new_token()
    runner = web.AppRunner(build_app(served, token), handle_signals=False, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, served.bind, served.port)
        try:
            await site.start()
        except (OSError, ValueError, OverflowError) as error:
            print(f"persona-notebook serve: cannot listen on {served.bind} port {served.port}: {why(error)}", file=err)
            return 2
        port = runner.addresses[0][1]
        stop = asyncio.Event()  # before the URL is printed: whoever read it may stop the server at once
        loop = asyncio.get_running_loop()
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(number, stop.set)
        if not is_loopback(served.bind):
            print(
                f"persona-notebook serve: listening on {served.bind}, not only this machine: anyone who can "
                "reach it with the token can read and edit the home",
                file=err,
            )
        print(f"Serving the notebook{' read-only' if served.read_only else ''}; open in a browser:", file=out)
        print(f"http://{url_host(served.bind)}:{port}/?token={token}", file=out)
        print("Each tab runs its own notebook; Ctrl+C stops the server and them all.", file=out, flush=True)
        await stop.wait()
        return 0
    finally:
        await runner.cleanup()
