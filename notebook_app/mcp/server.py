"""The MCP server: the core's memory tool and soul for an agent host, over stdio.

Built on the official SDK's low-level ``Server`` so that the tool's name,
description and input schema are the core's own objects, not a schema the SDK
would derive from a function signature. Every answer comes from the core.

One server process serves one stdio connection, and that connection is one
agent session. The session starts when the client announces itself: its
``initialize`` request (protocol versions up to 2025-11-25) or its first
request carrying the 2026-07-28 ``_meta`` envelope (which has no handshake).
At that moment the soul is composed, frozen and recorded with the client's
name and version, and its start is an event of the home's log; the soul
resource and prompt serve that frozen string for the rest of the connection,
and every memory-tool call is an event of that log by the session (its
writes, and its failed calls), which are the session's calls. A
bootstrap file that cannot load (unreadable, a FIFO, a link loop, …) is left
out of the soul, logged to stderr and listed in the record: the agent still
connects. Bookkeeping that fails is logged and never costs the agent its
session or its writes.
"""

from __future__ import annotations

import contextvars
import copy
import logging
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from notebook_app import __version__
from notebook_app.core.fs.home_pin import pin_home
from notebook_app.core.guard.tool import GuardedMemoryTool
from notebook_app.core.guard.tool_choice import reviewed_tool_class
from notebook_app.core.memory.results import ToolResult
from notebook_app.core.memory.tool import MemoryTool
from notebook_app.core.record.notes import git_notes
from notebook_app.core.record.settings import load_settings, mode_in_force
from notebook_app.core.sessions.agents import AgentSession, new_session, session_actor, write_session_file
from notebook_app.core.sessions.presence import hold
from notebook_app.mcp.hosts import ServedHome, served_home
from notebook_app.mcp.prompts import SOUL_DESCRIPTION, SOUL_PROMPT, Prompts

logger = logging.getLogger(__name__)

SERVER_NAME = "persona-notebook"
SOUL_URI = "persona://soul"
SOUL_MIME_TYPE = "text/markdown"

INSTRUCTIONS = (
    f"This server holds a persona home. At the start of a session, load the resource {SOUL_URI} "
    f"(or the prompt '{SOUL_PROMPT}'): it is who you are and what you remember. Use the 'memory' "
    "tool to keep durable notes about yourself (target 'self') or your user (target 'user'); "
    "writes persist immediately but load only in the NEXT session."
)

_RAW_ARGUMENTS: contextvars.ContextVar[object] = contextvars.ContextVar("raw_tool_arguments")
"""Tool arguments that are not a JSON object, kept for the core to reject in its own words."""


class AgentSessionState:
    """The one agent session this connection serves, started once."""

    def __init__(self, home: Path, tool_class: type[MemoryTool] = MemoryTool, served: ServedHome | None = None) -> None:
        self.home = home
        self._served = served or ServedHome(home)
        """Where the home keeps its entry files and whose soul it is (a Hermes home's, as Hermes loads it)."""
        self._tool_class = tool_class
        """MemoryTool, or the guard's: made once the session's actor is known."""
        self.session: AgentSession | None = None
        self.recorded = False
        self._announced: tuple[object, object] = (None, None)
        self._start_lock = anyio.Lock()
        self._call_lock = anyio.Lock()
        self._tool: MemoryTool | None = None
        self._presence: int | None = None

    async def start(self, client_info: object, protocol_version: object) -> AgentSession:
        """Freeze the soul and record the session, unless it has already started."""
        async with self._start_lock:
            if self.session is not None:
                return self.session
            if client_info is not None or protocol_version is not None:
                self._announced = (client_info, protocol_version)  # kept for a retry, should this start fail
            client_info, protocol_version = self._announced
            info = client_info if isinstance(client_info, Mapping) else {}
            try:
                session = await anyio.to_thread.run_sync(
                    lambda: new_session(
                        self.home,
                        client_name=_string_or_none(info.get("name")),
                        client_version=_string_or_none(info.get("version")),
                        protocol_version=_string_or_none(protocol_version),
                        host=self._served.host,
                        files=self._served.files,
                    )
                )
            except Exception as error:  # compose never raises; if it ever does, say why, in the answer and the log
                logger.exception("cannot compose the soul of %s", self.home)
                raise MCPError(
                    code=types.INTERNAL_ERROR, message=f"cannot compose the persona's soul: {error}"
                ) from None
            for skipped in session.composition.skipped:
                logger.warning("session %s: %s", session.id, skipped.message)
            try:
                path = await anyio.to_thread.run_sync(write_session_file, self.home, session)
            except Exception as error:  # bookkeeping must never cost the agent its session
                logger.error("session %s is served but not recorded: %s", session.id, error)
            else:
                self.recorded = True
                self._presence = hold(path)  # "connected" for as long as this process lives
                logger.info("session %s started for %s; recorded in %s", session.id, session.client_label, path)
            self.session = session
            return session

    async def current(self) -> AgentSession:
        """The started session; one whose client never announced itself, or whose start failed, starts now."""
        return self.session or await self.start(None, None)

    async def call(self, args: object) -> ToolResult:
        """Apply one tool call as this session: the core logs it (a write, or a failed call).

        Calls of one session run one at a time, so its calls list writes in
        the order they reached the disk. A call the history cannot hold is
        logged here; it never turns the agent's successful write into an error.
        """
        session = await self.current()
        if self._tool is None:
            self._tool = self._tool_class(self.home, by=session_actor(session), files=self._served.files)
        tool = self._tool

        def run() -> tuple[ToolResult, list[str]]:
            """The call, and what its git commit said if it failed: taken in the thread that wrote (they are
            per thread), logged here only; the agent's answer is the same with git on or off."""

            return tool.call(args), git_notes()

        async with self._call_lock:
            result, notes = await anyio.to_thread.run_sync(run)
        if result.unrecorded is not None:
            logger.error("session %s: call not journalled: %s", session.id, result.unrecorded)
        for note in notes:
            logger.warning("session %s: %s", session.id, note)
        return result


def build_server(
    home: str | Path, *, guard: bool = False, review: bool = False, served: ServedHome | None = None
) -> Server[Any]:
    """The MCP server for one home: the memory tool, the soul resource and prompt, and in review mode the
    ``tidy`` prompt (the memory as it is when asked, tidy's rules, and the ask for replace / remove calls).

    ``guard``: the doctor's security rules refuse an agent write they flag
    (the tool's description says so in one sentence; its schema is unchanged).
    ``review``: a valid agent write is queued for a human instead (one more
    sentence); with both, the guard refuses first. ``served``: how the home is served (:func:`.hosts.served_home`;
    a Hermes home's tool writes its ``§`` entries, and its description says so in one sentence).
    """
    root = Path(home)
    served = served or ServedHome(root)
    pin_home(root)  # a home moved or removed mid-session is refused, never created again at this path
    tool_class = _tool_class(guard=guard, review=review)
    tool = tool_class(root, files=served.files)
    state = AgentSessionState(root, tool_class, served)

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=tool.name,
                    description=tool.description,
                    input_schema=copy.deepcopy(tool.input_schema),
                )
            ]
        )

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name != tool.name:
            raise MCPError(
                code=types.INVALID_PARAMS,
                message=f"unknown tool {params.name!r}: this server offers one tool, {tool.name!r}",
            )
        args: object = params.arguments if params.arguments is not None else _RAW_ARGUMENTS.get({})
        result = await state.call(args)
        return types.CallToolResult(content=[types.TextContent(text=result.output)], is_error=result.is_error)

    async def list_resources(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        session = await state.current()
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=SOUL_URI,
                    name="soul",
                    title="Persona soul (this session)",
                    description=SOUL_DESCRIPTION,
                    mime_type=SOUL_MIME_TYPE,
                    size=len(session.soul.encode("utf-8")),
                )
            ]
        )

    async def read_resource(
        ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        if params.uri != SOUL_URI:
            raise MCPError(
                code=types.INVALID_PARAMS,
                message=f"unknown resource {params.uri!r}: this server offers {SOUL_URI}",
            )
        session = await state.current()
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=SOUL_URI, mime_type=SOUL_MIME_TYPE, text=session.soul)]
        )

    async def frozen_soul() -> str:
        return (await state.current()).soul

    prompts = Prompts(root, frozen_soul, review=review)

    server: Server[Any] = Server(
        SERVER_NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
        on_list_prompts=prompts.list,
        on_get_prompt=prompts.get,
    )
    server.middleware.append(_SessionStart(state))
    server.middleware.append(_KeepNonObjectArguments())
    server.middleware.append(_SchemaAsWritten(tool))
    return server


class _SessionStart:
    """Start the session when the client announces itself, in either protocol era."""

    def __init__(self, state: AgentSessionState) -> None:
        self._state = state

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.request_id is None or self._state.session is not None:
            return await call_next(ctx)
        params = ctx.params if isinstance(ctx.params, Mapping) else {}
        if ctx.method == "initialize":
            result = await call_next(ctx)  # only an accepted handshake starts a session
            negotiated = result.get("protocolVersion") if isinstance(result, Mapping) else None
            await self._start(params.get("clientInfo"), negotiated)
            return result
        meta = params.get("_meta")
        if isinstance(meta, Mapping) and types.PROTOCOL_VERSION_META_KEY in meta:
            await self._start(meta.get(types.CLIENT_INFO_META_KEY), meta.get(types.PROTOCOL_VERSION_META_KEY))
        return await call_next(ctx)

    async def _start(self, client_info: object, protocol_version: object) -> None:
        """Start the session; a failure (already logged) must not fail the handshake.

        The client stays connected, and each request that needs the soul
        tries again and answers with the cause, instead of the client
        reporting a failed handshake in other words.
        """
        try:
            await self._state.start(client_info, protocol_version)
        except MCPError:
            pass


class _KeepNonObjectArguments:
    """Let the core, not the SDK, answer tool arguments that are not an object.

    The SDK's params model wants an object and would reply with a bare
    "Invalid request parameters"; the core says what was sent instead, as an
    ``isError`` result the model can read and correct.
    """

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        params = ctx.params
        if ctx.method != "tools/call" or not isinstance(params, Mapping):
            return await call_next(ctx)
        arguments = params.get("arguments")
        if arguments is None or isinstance(arguments, Mapping):
            return await call_next(ctx)
        token = _RAW_ARGUMENTS.set(arguments)
        try:
            return await call_next(replace(ctx, params={k: v for k, v in params.items() if k != "arguments"}))
        finally:
            _RAW_ARGUMENTS.reset(token)


class _SchemaAsWritten:
    """Send the tool's input schema exactly as the core wrote it, keys in order.

    For handshake-era protocol versions the SDK re-serializes a listed tool
    through its wire model, which moves ``type`` after ``properties``. The
    meaning is the same, but hosts that compare or cache tool definitions
    should see the same bytes in every protocol version.
    """

    def __init__(self, tool: MemoryTool) -> None:
        self._tool = tool

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.method != "tools/list" or not isinstance(result, Mapping) or not isinstance(result.get("tools"), list):
            return result
        tools = [
            {**tool, "inputSchema": copy.deepcopy(self._tool.input_schema)}
            if isinstance(tool, Mapping) and tool.get("name") == self._tool.name
            else tool
            for tool in result["tools"]
        ]
        return {**result, "tools": tools}


def _tool_class(*, guard: bool, review: bool) -> type[MemoryTool]:
    if review:
        return reviewed_tool_class(guard=guard)
    if guard:
        return GuardedMemoryTool
    return MemoryTool


def _string_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def serve(home: str | Path, *, guard: bool | None = None, review: bool | None = None) -> int:
    """Serve ``home`` over stdin/stdout until the client closes the connection.

    ``guard`` (``review``) True or False is the ``--guard`` / ``--no-guard``
    (``--review`` / ``--no-review``) flag; None
    leaves it to the home's ``.notebook/settings.toml``, read once here, as
    this process serves one session. Exit codes: 0 after a normal close, 2
    when ``home`` is not a directory, or is a Claude Code project
    (:func:`.hosts.served_home`), before any handshake. Logs go to stderr;
    stdout carries only the protocol.
    """
    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="persona-notebook mcp: %(levelname)s %(message)s"
    )
    logger.setLevel(logging.INFO)
    root = Path(home)
    if not root.is_dir():
        print(
            f"persona-notebook mcp: {root} is not a directory; create the persona home first "
            "(for example: mkdir -p HOME) and pass its path",
            file=sys.stderr,
        )
        return 2
    served = served_home(root)
    if isinstance(served, str):
        print(f"persona-notebook mcp: {served}", file=sys.stderr)
        return 2
    root = served.root  # a Hermes home's memories/ folder serves the home
    settings = load_settings(root)
    for problem in settings.problems:
        logger.warning("%s", problem)
    guarded = mode_in_force(guard, settings.guard)
    if guarded:
        source = "--guard" if guard else ".notebook/settings.toml (guard = true)"
        logger.info("guard mode (%s): agent writes a security rule flags are refused", source)
    reviewed = mode_in_force(review, settings.review)
    if reviewed:
        source = "--review" if review else ".notebook/settings.toml (review = true)"
        logger.info("review mode (%s): valid agent writes are queued for a human to approve", source)
    server = build_server(root, guard=guarded, review=reviewed, served=served)

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    logger.info("serving %s over stdio", root.resolve())
    try:
        anyio.run(run)
    except KeyboardInterrupt:
        return 130
    return 0
