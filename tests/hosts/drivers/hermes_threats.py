"""Ask Hermes Agent's own memory scan about entries; run inside Hermes's venv.

Usage: python hermes_threats.py FOLDER < CASES.json  (an empty folder, the home's parent; CASES.json maps a
case's name to an entry's text; prints the golden's facts as JSON)

With HERMES_HOME (and HOME) pointed inside FOLDER, for each entry it keeps what Hermes's own code does:

- ``placeholder``: what ``MemoryStore._sanitize_entries_for_snapshot`` (run by ``load_from_disk`` on every
  entry before the system prompt sees it) puts in the entry's place, its ``[BLOCKED: …]`` placeholder, or null
  when the entry loads as it is;
- ``add``: the result dict of ``MemoryStore.add`` on an empty store (with a limit no case reaches).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def main() -> None:
    folder = Path(sys.argv[1]).resolve()
    home = folder / "home"
    os.environ["HERMES_HOME"] = str(home)
    os.environ["HOME"] = str(folder / "user-home")
    from tools.memory_tool import MemoryStore

    cases = json.loads(sys.stdin.read())
    answers = {}
    for name, text in cases.items():
        loaded = MemoryStore._sanitize_entries_for_snapshot([text], "MEMORY.md")[0]
        store = MemoryStore(memory_char_limit=1_000_000, user_char_limit=1_000_000)
        store.load_from_disk()
        added = store.add("memory", text)
        (home / "memories" / "MEMORY.md").unlink(missing_ok=True)
        answers[name] = {"placeholder": loaded if loaded != text else None, "add": added}
    print(json.dumps({"cases": answers}, ensure_ascii=False))


if __name__ == "__main__":
    main()
