"""The agent of measure 13: one MCP session on ``persona-notebook mcp HOME --review``, driven line by line.

    python review_agent.py HOME        # run with our interpreter (it has the mcp SDK)

It starts the server the way a host does (a subprocess on stdio, the SDK's
own client), prints ``ready`` once connected, then for each line ``TEXT`` on
stdin calls ``memory`` with ``{"action": "add", "text": TEXT}`` and prints
``sent <t0> <t1> <answer>``: monotonic seconds just before the call and when
its answer came (CLOCK_MONOTONIC is one clock for every process on Linux).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


async def main(home: str) -> None:
    import mcp_types as types
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "notebook_app", "mcp", home, "--review"], cwd=REPO
    )
    with open(Path(home).parent / "review-agent-server.log", "a", encoding="utf-8") as errlog:
        client = Client(
            stdio_client(params, errlog=errlog),
            client_info=types.Implementation(name="bench-agent", version="1.0"),
            read_timeout_seconds=120,
        )
        async with client:
            print("ready", flush=True)
            loop = asyncio.get_running_loop()
            while True:
                line = await loop.run_in_executor(None, sys.stdin.readline)
                if not line:
                    return
                t0 = time.monotonic()
                result = await client.call_tool("memory", {"action": "add", "text": line.strip()})
                t1 = time.monotonic()
                answer = result.content[0].text if result.content else ""
                print(f"sent {t0} {t1} {json.dumps(answer)}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
