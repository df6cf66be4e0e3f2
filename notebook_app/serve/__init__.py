"""``persona-notebook serve``: the notebook in a browser, over textual-serve, behind a token.

Each browser tab runs the real notebook as its own process (textual-serve's
model), opened exactly as ``persona-notebook HOME`` opens it; this package only
listens, checks the token and the origin, and hands the page its own files.
It imports neither the app nor Textual: the app runs in the processes it starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import lazy_face

if TYPE_CHECKING:
    from .server import Served, serve

_HOME_OF: dict[str, str] = {"Served": "server", "serve": "server"}
"""Each exported name -> the module that defines it; aiohttp loads on the name's first use."""

lazy_face(__name__, _HOME_OF)

__all__ = ["Served", "serve"]
