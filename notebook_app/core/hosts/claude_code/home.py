"""Where Claude Code keeps a project's auto memory: ``<config dir>/projects/<slug>/memory/``; what makes a folder
a Claude Code project here; and the project's file map as opened.

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

from notebook_app.core.home.layout import HostFile, claude_code_files
from notebook_app.core.hostbase.host import Fit, HomeFiles
from notebook_app.core.hostbase.places import user_home
from notebook_app.core.hosts.claude_code.load import claude_code_load, git_root, instruction_files, slug
from notebook_app.core.hosts.claude_code.names import INSTRUCTIONS
from notebook_app.core.hosts.claude_code.text import units

SLUG_CAP = 200
"""The project files that make a folder a Claude Code project here (with its memory folder there): its export
layout's, one list."""


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


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def claude_code_fit(id: str, folder: Path, env: Mapping[str, str]) -> Fit | None:
    """A project with CLAUDE.md (or ``.claude/CLAUDE.md``) whose auto-memory folder exists."""
    instructions = instruction_file(folder)
    if instructions is None:
        return None
    memory = memory_dir(folder, env)
    if not _is_dir(memory):
        return None
    return Fit(id, folder, f"opened as Claude Code: the project has {instructions} and its auto memory {memory}")


def instructions(root: Path, env: Mapping[str, str]) -> dict[str, HostFile]:
    """The CLAUDE.md chain Claude Code injects for the project at ``root``, by name, in its order (read-only here)."""
    home = user_home(env)
    load = claude_code_load(root, home=home)
    return {name: HostFile(path, whose) for name, path, whose in instruction_files(load, home)}


def claude_code_home_files(root: Path, reason: str, env: Mapping[str, str]) -> HomeFiles:
    """The project's file map (of its auto-memory folder, with the CLAUDE.md chain), the folder, and where it is."""
    files = claude_code_files(instructions(root, env))
    memory = memory_dir(root, env)
    base, which = memory_base(root)
    there = "" if _is_dir(memory) else "; it does not exist yet"
    place = "" if str(memory) in reason else f" is {memory}"  # said once: a detected reason names it already
    return HomeFiles(files, (f"Claude Code keys its auto memory by {which}, {base}{place}{there}",), memory)
