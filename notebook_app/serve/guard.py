"""The door: a token made at each start, a cookie set by the first page, and a websocket only from this page.

Every request (page, static file, websocket) without the token, in the query
or in the cookie, gets 403; tokens are compared in constant time. The cookie
is HttpOnly (no script reads it) and SameSite=Strict (no other site's page
sends it), and the websocket also refuses a page from another origin: a
browser sends the cookie with a websocket from anywhere, the Origin tells.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable

from aiohttp import hdrs, web
from aiohttp.typedefs import Middleware

COOKIE = "persona_notebook_token"
"""The cookie the first page sets; the query's ``token`` works as well (the printed URL has it)."""

PAGE_HEADERS = {
    # Nothing from another host: the page's own scripts, styles, fonts and its websocket back here.
    "Content-Security-Policy": "default-src 'self'; script-src 'self' 'unsafe-inline'; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    # The token is in the page's URL: no link or request from the page may carry it elsewhere.
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def new_token() -> str:
    """32 random bytes, URL-safe: made at each start, never stored."""
    return secrets.token_urlsafe(32)


def _same(given: str | None, token: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), token.encode())


def same_origin(request: web.Request) -> bool:
    """A browser's websocket from this server's own page (a client that sends no Origin is no browser page)."""
    origin = request.headers.get(hdrs.ORIGIN)
    return origin is None or origin == f"{request.scheme}://{request.host}"


LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})


def loopback_host(request: web.Request) -> bool:
    """The Host a browser sent names this machine: a page of another name rebound to 127.0.0.1 does not."""
    host = request.host.lower()
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return name in LOOPBACK_NAMES


def token_guard(token: str, *, websocket_path: str, loopback: bool = True) -> Middleware:
    """The middleware that lets in only requests with ``token``; the page it lets in by query sets the cookie.

    ``loopback`` (the server listens on this machine only): a request must also name this machine as its
    Host, so a site whose name is made to point here (DNS rebinding) is refused before any token is read.
    """

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        if loopback and not loopback_host(request):
            raise web.HTTPForbidden(text="403: this notebook answers only to 127.0.0.1 or localhost\n")
        by_query = _same(request.query.get("token"), token)
        if not (by_query or _same(request.cookies.get(COOKIE), token)):
            raise web.HTTPForbidden(text="403: this notebook needs the token of the URL serve printed\n")
        if request.path == websocket_path and not same_origin(request):
            raise web.HTTPForbidden(text="403: a page from another site may not open this notebook\n")
        response = await handler(request)
        if request.path != websocket_path and not response.prepared:
            response.headers.update(PAGE_HEADERS)
            if by_query:
                response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/")
        return response

    return guard
