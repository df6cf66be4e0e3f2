"""The server's prompts: ``soul`` always, and in review mode ``tidy``, whose text the core builds.

``soul`` is this session's frozen soul as one user message. ``tidy``
(:func:`..core.tidy.tidy_prompt`) hands the agent its memory as it is when
asked, tidy's rules and the core's dry run, and asks for ``replace`` /
``remove`` calls; it is listed only in review mode, where those calls are
queued for a person (issue 23, item 3). Without review, asking for it is an
error naming the prompts that exist.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

SOUL_PROMPT = "soul"
SOUL_DESCRIPTION = (
    "The persona's soul for this session: its bootstrap files (AGENTS.md, SOUL.md, IDENTITY.md, "
    "USER.md, TOOLS.md, HEARTBEAT.md, MEMORY.md) composed into one document. Load it at the start "
    "of the session. It is a frozen snapshot taken when the session began: memory-tool writes made "
    "since then are on disk but appear here only in the next session."
)
REVIEW_ONLY = "tidy"
"""The name of the prompt only review mode lists, for the error that says so; the core's ``PROMPT_NAME``
(a test holds the two equal, so this module need not load tidy's rules to answer an unknown name)."""


class Prompts:
    """The prompts one server lists and serves; which ones is fixed when the server is built."""

    def __init__(self, root: Path, soul: Callable[[], Awaitable[str]], *, review: bool) -> None:
        self._root = root
        self._soul = soul
        """This session's frozen soul; awaiting it starts the session if the client never announced itself."""
        self._prompts = [types.Prompt(name=SOUL_PROMPT, title="Load the persona", description=SOUL_DESCRIPTION)]
        if review:  # the agent proposes, a person decides: only where its calls are queued
            from notebook_app.core.tidy.prompt import PROMPT_DESCRIPTION, PROMPT_NAME, PROMPT_TITLE  # lazy: tidy

            self._prompts.append(types.Prompt(name=PROMPT_NAME, title=PROMPT_TITLE, description=PROMPT_DESCRIPTION))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(prompt.name for prompt in self._prompts)

    async def list(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=list(self._prompts))

    async def get(self, ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams) -> types.GetPromptResult:
        if params.name not in self.names:
            offered = " and ".join(repr(name) for name in self.names)
            only = f" ({REVIEW_ONLY!r} is offered in review mode only)" if params.name == REVIEW_ONLY else ""
            raise MCPError(
                code=types.INVALID_PARAMS, message=f"unknown prompt {params.name!r}: this server offers {offered}{only}"
            )
        soul = await self._soul()  # the session starts before anything is served, as for every request
        if params.name == SOUL_PROMPT:
            return _one_message(SOUL_DESCRIPTION, soul)
        from notebook_app.core.tidy.prompt import PROMPT_DESCRIPTION, tidy_prompt  # lazy: tidy

        built = await anyio.to_thread.run_sync(tidy_prompt, self._root)  # the memory now, not the frozen soul
        return _one_message(PROMPT_DESCRIPTION, built.text)


def _one_message(description: str, text: str) -> types.GetPromptResult:
    return types.GetPromptResult(
        description=description, messages=[types.PromptMessage(role="user", content=types.TextContent(text=text))]
    )
