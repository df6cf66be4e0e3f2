"""Measure which characters Hermes Agent's own memory scan blocks; run inside Hermes's venv.

Usage: python hermes_blocked.py FOLDER  (an empty folder, the home's parent; prints the golden's facts as JSON)

With HERMES_HOME (and HOME) pointed inside FOLDER, it asks Hermes's own code,
for every code point but the surrogates, about the entry ``a<char>b``:

- at load: ``MemoryStore._sanitize_entries_for_snapshot`` (what
  ``load_from_disk`` runs on every entry before the system prompt sees it)
  replaces it with a ``[BLOCKED: …]`` placeholder, or keeps it;
- at write: for each blocked character and one that is not, ``MemoryStore.add``
  on an empty store, whose result dict is kept whole.

Then one store holding an emoji with a zero-width joiner beside a plain entry
is loaded as a session loads it (``load_from_disk``,
``format_for_system_prompt('memory')``): the block Hermes injects, whole.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

EMOJI_ENTRY = "Pair-programs as \U0001f469\u200d\U0001f4bb on Fridays"
PLAIN_ENTRY = "Deploys on Fridays are forbidden"


def main() -> None:
    folder = Path(sys.argv[1]).resolve()
    home = folder / "home"
    os.environ["HERMES_HOME"] = str(home)
    os.environ["HOME"] = str(folder / "user-home")
    from tools.memory_tool import MemoryStore

    points = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    entries = [f"a{chr(c)}b" for c in points]
    loaded = MemoryStore._sanitize_entries_for_snapshot(entries, "MEMORY.md")
    blocked = [c for c, entry, kept in zip(points, entries, loaded, strict=True) if kept != entry]
    placeholders = {f"U+{c:04X}": kept for c, entry, kept in zip(points, entries, loaded, strict=True) if kept != entry}

    adds = {}
    for c in [*blocked, ord("x")]:
        store = MemoryStore(memory_char_limit=2200, user_char_limit=1375)
        store.load_from_disk()
        adds[f"U+{c:04X}"] = store.add("memory", f"a{chr(c)}b")
        (home / "memories" / "MEMORY.md").unlink(missing_ok=True)

    (home / "memories").mkdir(parents=True, exist_ok=True)
    (home / "memories" / "MEMORY.md").write_text(f"{EMOJI_ENTRY}\n§\n{PLAIN_ENTRY}", encoding="utf-8")
    store = MemoryStore(memory_char_limit=2200, user_char_limit=1375)
    store.load_from_disk()
    print(
        json.dumps(
            {
                "scanned": len(points),
                "blocked_at_load": [f"U+{c:04X}" for c in blocked],
                "placeholders": placeholders,
                "add": adds,
                "store": {
                    "text": f"{EMOJI_ENTRY}\n§\n{PLAIN_ENTRY}",
                    "format_for_system_prompt('memory')": store.format_for_system_prompt("memory"),
                },
            },
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()
