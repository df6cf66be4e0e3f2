"""Run one operation of ``tests/hermes_ops.py`` with Hermes Agent's own ``MemoryStore``; run inside Hermes's venv.

Usage: python hermes_ops.py CASE_DIR  (a fresh copy named after its case; prints the golden's facts as JSON)

With HERMES_HOME (and HOME) pointed at the copy, it builds the store as
Hermes does with no live agent, ``tools.memory_tool.load_on_disk_store()``
(``MemoryStore(limits from config.yaml).load_from_disk()``), then calls its
``add``, ``replace`` or ``remove`` on the case's store. It records Hermes's
result dict whole, the store's text after (read as bytes, decoded with no
newline translation; None when absent), the limits in force and what changed
in ``memories/``: the ``.lock`` Hermes leaves, a drift backup
``<store>.bak.<ts>`` (the timestamp written ``<ts>``, here and in the result).
What ``load_config`` seeds elsewhere in the home (SOUL.md, its folders) is the
main goldens' (``drivers/hermes.py``), not recorded here.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: hermes_ops, host_corpus
import hermes_ops  # noqa: E402
import host_corpus  # noqa: E402

_STAMP = re.compile(r"\.bak\.\d+")


def _scrub(value: object, home: str) -> object:
    """``value`` with the home written ``{home}`` and a backup's timestamp ``<ts>``, through lists and dicts."""
    if isinstance(value, str):
        return _STAMP.sub(".bak.<ts>", value.replace(home, "{home}"))
    if isinstance(value, list):
        return [_scrub(item, home) for item in value]
    if isinstance(value, dict):
        return {key: _scrub(item, home) for key, item in value.items()}
    return value


def _memories(home: Path) -> dict[str, str]:
    """``host_corpus.tree`` of ``memories/`` (and the folder itself), paths from the home."""
    return {path: kind for path, kind in host_corpus.tree(home).items() if path.split("/")[0] == "memories"}


def main() -> None:
    folder = Path(sys.argv[1]).resolve()
    op = hermes_ops.case(folder.name)
    home = folder / "home"
    os.environ["HERMES_HOME"] = str(home)
    os.environ["HOME"] = str(folder / "user-home")
    before = _memories(home)
    from tools.memory_tool import load_on_disk_store

    store = load_on_disk_store()
    if op.action == "add":
        result = store.add(op.target, op.text)
    elif op.action == "replace":
        result = store.replace(op.target, op.text, op.new or "")
    else:
        result = store.remove(op.target, op.text)
    path = home / "memories" / op.store
    changes = host_corpus.changes(before, _memories(home))
    print(
        json.dumps(
            {
                "limits": {"MEMORY.md": store.memory_char_limit, "USER.md": store.user_char_limit},
                "result": _scrub(result, str(home)),
                "after": path.read_bytes().decode("utf-8") if path.exists() else None,
                "files": {kind: [_STAMP.sub(".bak.<ts>", p) for p in paths] for kind, paths in changes.items()},
            },
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()
