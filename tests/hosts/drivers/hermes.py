"""Drive Hermes Agent's own prompt-building code on one corpus case; run inside Hermes's venv.

Usage: python hermes.py CASE_DIR  (a fresh copy; prints the golden's facts as JSON)

Calls, with HERMES_HOME (and HOME) pointed at the copy, what Hermes's own
system prompt is built from: ``agent.prompt_builder.load_soul_md()``,
``agent.prompt_builder.build_context_files_prompt(cwd, skip_soul=True)`` (only
when the case gives a working directory) and
``tools.memory_tool.MemoryStore().load_from_disk()`` then
``format_for_system_prompt('memory')`` and ``('user')``. Each result is kept
whole, or what it raised.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: host_corpus
import host_corpus  # noqa: E402


def main() -> None:
    case = Path(sys.argv[1]).resolve()
    with_cwd = sys.argv[2] == "cwd" if len(sys.argv) > 2 else False
    home = case / "home"
    os.environ["HERMES_HOME"] = str(home)
    os.environ["HOME"] = str(case / "user-home")
    before = host_corpus.tree(case)
    from agent.prompt_builder import build_context_files_prompt, load_soul_md
    from tools.memory_tool import MemoryStore

    calls: list[dict[str, object]] = []

    def run(label: str, fn) -> None:  # type: ignore[no-untyped-def]
        try:
            calls.append({"call": label, "returned": host_corpus.summary(fn(), str(home))})
        except Exception as error:  # what the host raises is a fact of the golden
            calls.append({"call": label, "raised": type(error).__name__})

    run("load_soul_md()", load_soul_md)
    if with_cwd:
        run(
            "build_context_files_prompt(cwd=home, skip_soul=True)",
            lambda: build_context_files_prompt(cwd=str(home), skip_soul=True),
        )
    store = MemoryStore()
    loaded: list[bool] = []

    def load() -> None:
        store.load_from_disk()
        loaded.append(True)

    run("MemoryStore().load_from_disk()", load)
    if loaded:
        run("format_for_system_prompt('memory')", lambda: store.format_for_system_prompt("memory"))
        run("format_for_system_prompt('user')", lambda: store.format_for_system_prompt("user"))
    print(json.dumps({"calls": calls, "files": host_corpus.changes(before, host_corpus.tree(case))}))


if __name__ == "__main__":
    main()
