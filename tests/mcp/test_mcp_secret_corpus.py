"""``mcp --guard`` refuses every kind of secret in the corpus, over the real protocol, and keeps none in the history.

A real server subprocess spoken to by the official SDK client (issue 34): each refused call's record keeps the
marker over the whole secret as the scanner spans it, so not one run of its characters is left in the log.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from secret_corpus import corpus
from stdio_harness import connect, text_of


def pieces(secret: str, width: int = 10) -> list[str]:
    return [secret[i : i + width] for i in range(0, max(1, len(secret) - width + 1))]


async def test_the_guard_refuses_every_kind_and_the_history_keeps_none(home: Path, server_log: Path) -> None:
    before = (home / "MEMORY.md").read_bytes()
    cases = corpus()
    command = [sys.executable, "-m", "notebook_app", "mcp", str(home), "--guard"]
    async with connect(home, server_log, command=command) as client:
        results = [await client.call_tool("memory", {"action": "add", "text": case.text}) for case in cases]
        replaced = [
            await client.call_tool("memory", {"action": "replace", "text": "metric", "with": case.text})
            for case in cases
        ]
    answers = list(zip(cases, results, strict=True)) + list(zip(cases, replaced, strict=True))
    assert [c.kind for c, r in answers if not (r.is_error and "security.secret" in text_of(r))] == []
    assert [c.kind for c, r in answers if any(p in text_of(r) for p in pieces(c.secret))] == []
    assert (home / "MEMORY.md").read_bytes() == before
    log = (home / ".notebook" / "events.jsonl").read_text(encoding="utf-8")
    failed = [json.loads(line) for line in log.splitlines()[1:] if '"action":"failed"' in line]
    assert len(failed) == 2 * len(cases)
    assert [case.kind for case in cases if any(piece in log for piece in pieces(case.secret))] == []
