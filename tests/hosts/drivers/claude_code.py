"""Drive the real Claude Code binary on one corpus case and say what it sent the model.

Usage: python claude_code.py CLAUDE_BINARY CASE_DIR  (a fresh copy; prints the golden's facts as JSON)

Runs ``claude -p hi`` with HOME at the case's ``user-home/``, the working
directory the case's (``host_corpus.claude_dirs``), ``ANTHROPIC_BASE_URL`` at a
loopback recorder (``claude_recorder.py``) that answers like the Messages API,
``ANTHROPIC_API_KEY=dummy`` and telemetry, updates and other traffic off. From
the request it sent, it keeps the ``<system-reminder>`` block that carries the
instruction files (each ``Contents of PATH (KIND):`` entry, in order), and the
memory folder its system prompt names. Paths are written with the case folder
as ``{case}`` and the project root's slug as ``{slug}``: a slug that
``claude_slug`` does not compute stays raw, and the golden test fails.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parent)]
from claude_recorder import Recorder  # noqa: E402

import host_corpus  # noqa: E402

PROMPT = "hi"
REMINDER = "<system-reminder>\nCodebase and user instructions are shown below."
ENTRY = re.compile(r"(?:^|\n\n)Contents of (.+?)( \([^()\n]*\))?:\n\n", re.DOTALL)
MEMORY_DIR = re.compile(r"persistent file-based memory at `([^`]*)`")
QUIET = {
    "DISABLE_TELEMETRY": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_BUG_COMMAND": "1",
    "DISABLE_COST_WARNINGS": "1",
}


def entries(reminder: str) -> list[dict[str, object]]:
    """Each ``Contents of PATH (KIND):`` entry of the reminder: its path, kind and text."""
    body = reminder.removesuffix("\n</system-reminder>")
    found = list(ENTRY.finditer(body))
    out = []
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(body)
        out.append(
            {"path": match.group(1), "kind": (match.group(2) or "").strip(" ()"), "text": body[match.end() : end]}
        )
    return out


def main() -> None:
    binary, case = sys.argv[1], Path(sys.argv[2]).resolve()
    root_rel, cwd_rel = host_corpus.claude_dirs(case.name)
    root, cwd = case / root_rel, case / cwd_rel
    user = case / host_corpus.CLAUDE_USER
    user.mkdir(exist_ok=True)
    slug = host_corpus.claude_slug(str(root))
    outside_user = {k: v for k, v in host_corpus.tree(case).items() if not k.startswith(host_corpus.CLAUDE_USER)}

    def named(text: str) -> str:
        return text.replace(slug, "{slug}").replace(str(case), "{case}")

    with Recorder() as recorder:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(user),
            "LANG": "C.UTF-8",
            "ANTHROPIC_BASE_URL": recorder.url,
            "ANTHROPIC_API_KEY": "dummy",
            **QUIET,
        }
        done = subprocess.run([binary, "-p", PROMPT], cwd=cwd, env=env, capture_output=True, text=True, timeout=100)
    asked = [r for r in recorder.requests if str(r["path"]).split("?")[0].endswith("/v1/messages")]
    out: dict[str, object] = {
        "exit": done.returncode,
        "stdout": done.stdout.strip(),
        "requests": len(asked),
        "root": named(str(root)),
        "cwd": named(str(cwd)),
    }
    if asked:
        body = asked[0]["body"]
        system = "\n".join(block.get("text", "") for block in body.get("system", []))  # type: ignore[union-attr]
        memory_dir = MEMORY_DIR.search(system)
        out["memory_dir"] = named(memory_dir.group(1)) if memory_dir else None
        first = body["messages"][0]["content"]  # type: ignore[index]
        texts = [first] if isinstance(first, str) else [b.get("text", "") for b in first if b.get("type") == "text"]
        reminder = next((t for t in texts if t.startswith(REMINDER)), None)
        out["reminder"] = host_corpus.summary(named(reminder), "\0") if reminder is not None else None
        out["entries"] = [
            {"path": named(str(e["path"])), "kind": e["kind"], "text": host_corpus.summary(named(str(e["text"])), "\0")}
            for e in entries(reminder or "")
        ]
    after = {k: v for k, v in host_corpus.tree(case).items() if not k.startswith(host_corpus.CLAUDE_USER)}
    out["files"] = host_corpus.changes(outside_user, after)
    out["memory_dir_exists_after"] = (user / ".claude" / "projects" / slug / "memory").is_dir()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
