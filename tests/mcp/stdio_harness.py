"""Drive ``persona-notebook mcp HOME`` the way an agent host does: a real
subprocess, spoken to over stdio by the ``mcp`` SDK's own client."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from notebook_app.core.home.reading import is_scratch_file

REPO = Path(__file__).resolve().parents[2]

MODES = ("auto", "legacy")
"""``auto`` speaks the 2026-07-28 protocol (no handshake, identity in every
request); ``legacy`` does the ``initialize`` handshake of 2025-11-25."""


@asynccontextmanager
async def connect(
    home: Path,
    log: Path,
    *,
    name: str = "test-agent",
    version: str = "1.2.3",
    mode: str = "auto",
    command: Sequence[str] | None = None,
) -> AsyncIterator[Client]:
    """One agent session: the server as a subprocess, the SDK client on its stdio.

    ``command`` replaces ``python -m notebook_app mcp HOME`` (e.g. to run the
    server as an unprivileged user). The server inherits this environment,
    with this checkout first on its path.
    """
    argv = list(command) if command is not None else [sys.executable, "-m", "notebook_app", "mcp", str(home)]
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    params = StdioServerParameters(
        command=argv[0],
        args=argv[1:],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": path},
    )
    with open(log, "a", encoding="utf-8") as errlog:
        client = Client(
            stdio_client(params, errlog=errlog),  # the server's stderr goes to the log, not the test output
            mode=mode,
            client_info=types.Implementation(name=name, version=version),
            read_timeout_seconds=120,
        )
        async with client:
            yield client


def text_of(result: types.CallToolResult) -> str:
    assert len(result.content) == 1 and isinstance(result.content[0], types.TextContent), result.content
    return result.content[0].text


def home_files(home: Path, *, scratch: bool = True) -> dict[str, bytes]:
    """Every file of the home outside the notebook's state folder, with its bytes.

    ``scratch=False`` leaves out the core's bookkeeping (its append journal and
    temp files), whose bytes record sizes and times rather than content.
    """
    return {
        str(p.relative_to(home)): p.read_bytes()
        for p in sorted(home.rglob("*"))
        if p.is_file() and ".notebook" not in p.relative_to(home).parts and (scratch or not is_scratch_file(p.name))
    }


class _RawToolCall(types.Request[dict[str, Any], str]):
    """A ``tools/call`` whose params skip the client's own model, as a careless host might send."""


async def call_tool_raw(client: Client, arguments: object) -> types.CallToolResult:
    """Call the memory tool with ``arguments`` exactly as given, even when not an object."""
    request = _RawToolCall(method="tools/call", params={"name": "memory", "arguments": arguments})
    return await client.session.send_request(request, types.CallToolResult)
