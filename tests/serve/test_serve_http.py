"""The served notebook's door, seen from a real client: nothing without the token, no page from another site.

A real ``serve --port 0`` process; requests with urllib and aiohttp's client.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp
import pytest

from served import Server, start_serve, stop


def status(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


STATIC = "/static/js/textual.js"


def test_the_printed_url_is_on_loopback_at_the_port_the_system_picked(served: Server) -> None:
    assert served.origin.startswith("http://127.0.0.1:")
    assert not served.origin.endswith(":0")
    assert len(served.token) >= 43  # 32 random bytes, URL-safe


def test_a_page_and_a_static_file_without_the_token_get_403(served: Server) -> None:
    for path in ("/", STATIC, "/static/css/xterm.css"):
        code, _, _ = status(served.origin + path)
        assert code == 403, path
        code, _, _ = status(served.origin + path + "?token=" + "x" * len(served.token))
        assert code == 403, f"a wrong token let {path} through"


def test_the_page_with_the_token_sets_an_httponly_strict_cookie_that_opens_the_rest(served: Server) -> None:
    code, headers, body = status(served.url)
    assert code == 200
    cookie = headers["Set-Cookie"]
    assert cookie.startswith(f"persona_notebook_token={served.token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert b"googleapis" not in body and b"https://" not in body, "the page asks another host for something"
    assert "connect-src 'self'" in headers["Content-Security-Policy"]
    assert headers["Referrer-Policy"] == "no-referrer"
    code, _, js = status(served.origin + STATIC, {"Cookie": f"persona_notebook_token={served.token}"})
    assert code == 200 and len(js) > 1000


def _websocket(served: Server, *, cookie: str | None, origin: str | None) -> int | str:
    """The handshake's status (a number), or 'open' when the server took the websocket."""

    async def go() -> int | str:
        headers = {"Cookie": f"persona_notebook_token={cookie}"} if cookie else {}
        async with aiohttp.ClientSession() as session:
            try:
                async with session.ws_connect(served.origin + "/ws", headers=headers, origin=origin) as ws:
                    await ws.close()
                    return "open"
            except aiohttp.WSServerHandshakeError as error:
                return error.status

    return asyncio.run(go())


def test_on_loopback_a_request_naming_another_host_is_refused_even_with_the_token(served: Server) -> None:
    """DNS rebinding: a site whose name points at 127.0.0.1 sends its own name as the Host."""
    port = served.origin.rsplit(":", 1)[1]
    code, _, _ = status(served.url, {"Host": f"evil.example:{port}"})
    assert code == 403
    for name in ("127.0.0.1", "localhost"):
        code, _, _ = status(served.url, {"Host": f"{name}:{port}"})
        assert code == 200, name


def test_a_websocket_without_the_token_gets_403(served: Server) -> None:
    assert _websocket(served, cookie=None, origin=served.origin) == 403
    assert _websocket(served, cookie="not-the-token", origin=served.origin) == 403


def test_a_websocket_from_another_sites_page_is_refused_even_with_the_cookie(served: Server) -> None:
    assert _websocket(served, cookie=served.token, origin="http://evil.example") == 403
    assert _websocket(served, cookie=served.token, origin=served.origin.replace("127.0.0.1", "localhost")) == 403
    assert _websocket(served, cookie=served.token, origin=served.origin) == "open"


def test_a_port_in_use_exits_2_in_words(served: Server, tmp_path: Path) -> None:
    port = served.origin.rsplit(":", 1)[1]
    result = subprocess.run(
        [sys.executable, "-m", "notebook_app", "serve", str(served.home), "--port", port],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(tmp_path),
    )
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1 port {port}: the port is in use" in result.stderr


@pytest.mark.parametrize(
    ("bind", "words"),
    [
        ("nope.invalid", "not an address or a host name this machine can resolve"),
        ("192.0.2.77", "no network interface of this machine has that address"),
    ],
)
def test_a_bad_address_exits_2_in_words(tmp_path: Path, bind: str, words: str) -> None:
    home = tmp_path / "h"
    home.mkdir()
    result = subprocess.run(
        [sys.executable, "-m", "notebook_app", "serve", str(home), "--bind", bind, "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(tmp_path),
    )
    assert result.returncode == 2, result.stderr
    assert words in result.stderr
    assert list(home.iterdir()) == [], "serving wrote in the home"


def test_a_port_out_of_range_is_a_usage_error(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "notebook_app", "serve", "--port", "70000"],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(tmp_path),
    )
    assert result.returncode == 2, result.stderr
    assert "not a port number (0 to 65535): 70000" in result.stderr


def test_binding_beyond_loopback_warns_that_anyone_with_the_token_can_edit(tmp_path: Path) -> None:
    server = start_serve(tmp_path, "--bind", "0.0.0.0", stderr=True)
    assert stop(server) == 0
    assert server.process.stderr is not None
    said = server.process.stderr.read()
    assert "listening on 0.0.0.0, not only this machine: anyone who can reach it with the token can read and " in said


def test_on_loopback_nothing_is_said_on_stderr(tmp_path: Path) -> None:
    server = start_serve(tmp_path, stderr=True)
    assert stop(server) == 0
    assert server.process.stderr is not None
    assert server.process.stderr.read() == ""


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
