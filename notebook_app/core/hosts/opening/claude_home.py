"""Where Claude Code keeps a project's auto memory: ``<config dir>/projects/<slug>/memory/``.

Claude Code 2.1.332's own rule, read from its binary (the JavaScript it
carries): the memory folder is ``<config dir>/projects/<J$(base)>/memory/``,
NFC-normalised, where the config dir is ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``,
the base is the project's git root (``defaultKey``: ``via: "git"``), else the
project root, and ``J$`` turns every UTF-16 unit that is not an ASCII letter or
digit into ``-`` and, past 200 characters, keeps the first 200 and adds ``-`` and
the path's 32-bit string hash (``Nle``: ``h = (h << 5) - h + unit``) in base 36.
The project root is its working directory as the system gives it: the real path.

Not read here: the ``autoMemoryDirectory`` setting, ``$CLAUDE_CODE_REMOTE_MEMORY_DIR``
and git worktrees (whose memory is the main checkout's). Reads, never writes.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Mapping
from pathlib import Path

from notebook_app.core.hosts.claude_code.load import git_root, slug
from notebook_app.core.hosts.claude_code.text import units
from notebook_app.core.hosts.opening.hermes_home import user_home

SLUG_CAP = 200
INSTRUCTIONS = ("CLAUDE.md", ".claude/CLAUDE.md")
"""The project files that make a folder a Claude Code project here (with its memory folder there)."""


def _hash36(path: str) -> str:
    """``Math.abs(Nle(path)).toString(36)``: the 32-bit string hash over UTF-16 units, in base 36."""
    h = 0
    for unit in units(path):
        h = (h * 31 + ord(unit)) & 0xFFFFFFFF
    value = abs(h - (1 << 32) if h & 0x80000000 else h)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        value, rest = divmod(value, 36)
        out = digits[rest] + out
        if value == 0:
            return out


def project_slug(path: str) -> str:
    """``J$``: Claude Code's folder name for the project at ``path``, hashed past 200 characters."""
    name = slug(path)
    return name if len(name) <= SLUG_CAP else f"{name[:SLUG_CAP]}-{_hash36(path)}"


def config_dir(env: Mapping[str, str]) -> Path:
    given = env.get("CLAUDE_CONFIG_DIR")
    base = given if given else str(user_home(env) / ".claude")
    return Path(unicodedata.normalize("NFC", base))


def memory_base(root: Path) -> tuple[Path, str]:
    """The folder Claude Code keys the project's memory by, and which it is, in words."""
    real = Path(os.path.realpath(root))
    found = git_root(real)
    return (found, "its git root") if found is not None else (real, "the project root (no git root)")


def memory_dir(root: Path, env: Mapping[str, str]) -> Path:
    """The auto-memory folder Claude Code uses for the project at ``root``."""
    base, _ = memory_base(root)
    return config_dir(env) / "projects" / project_slug(str(base)) / "memory"


def instruction_file(root: Path) -> str | None:
    """The first of CLAUDE.md, .claude/CLAUDE.md the folder has, as a name; None when it has neither."""
    return next((name for name in INSTRUCTIONS if (root / name).is_file()), None)
