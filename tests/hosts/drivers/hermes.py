"""Drive Hermes Agent's own prompt-building code on one corpus case; run inside Hermes's venv.

Usage: python hermes.py CASE_DIR  (a fresh copy; prints the golden's facts as JSON)

Calls, with HERMES_HOME (and HOME) pointed at the copy, what Hermes's own
system prompt is built from: ``agent.prompt_builder.load_soul_md()``,
``agent.prompt_builder.build_context_files_prompt(cwd, skip_soul=True)`` (only
when the case gives a working directory) and
its ``hermes_cli.config.load_config()`` used as AIAgent's init uses it (the
``memory`` section's switches and limits), then
``tools.memory_tool.MemoryStore(limits).load_from_disk()`` and
``format_for_system_prompt('memory')`` / ``('user')`` for the blocks switched
on. Each result is kept whole, or what it raised.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: host_corpus
import host_corpus  # noqa: E402


def _config_facts(config: dict) -> dict:
    """The settings of Hermes's merged config that decide what it injects."""
    memory = config.get("memory", {})
    keys = ("memory_enabled", "user_profile_enabled", "memory_char_limit", "user_char_limit")
    return {
        "memory": {key: memory.get(key) for key in keys},
        "context_file_max_chars": config.get("context_file_max_chars"),
    }


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
    # What AIAgent's init does with its config (agent/agent_init.py in 0.19.0): load_config(), falling back to {}
    # when it raises; the "memory" section's switches (False when absent) and limits (2,200 / 1,375 when absent).
    try:
        from hermes_cli.config import load_config

        config = load_config()
        calls.append({"call": "load_config()", "returned": _config_facts(config)})
    except Exception as error:
        config = {}
        calls.append({"call": "load_config()", "raised": type(error).__name__})
    memory = config.get("memory", {})
    memory_on, user_on = memory.get("memory_enabled", False), memory.get("user_profile_enabled", False)
    if memory_on or user_on:
        store = MemoryStore(
            memory_char_limit=memory.get("memory_char_limit", 2200), user_char_limit=memory.get("user_char_limit", 1375)
        )
        loaded: list[bool] = []

        def load() -> None:
            store.load_from_disk()
            loaded.append(True)

        run("MemoryStore(memory_char_limit, user_char_limit).load_from_disk()", load)
        if loaded and memory_on:
            run("format_for_system_prompt('memory')", lambda: store.format_for_system_prompt("memory"))
        if loaded and user_on:
            run("format_for_system_prompt('user')", lambda: store.format_for_system_prompt("user"))
    files = host_corpus.changes(before, host_corpus.tree(case))
    # A config.yaml it cannot parse is moved aside under the time of day: the golden names it without the time.
    files = {k: [re.sub(r"\.corrupt\.[0-9-]+\.bak$", ".corrupt.<time>.bak", p) for p in v] for k, v in files.items()}
    print(json.dumps({"calls": calls, "files": files}))


if __name__ == "__main__":
    main()
