"""Homes whose one long line made the doctor's rules quadratic (issue 34): built at test time, never committed.

Each line is a run some rule used to try from every one of its characters and read to its end:
a word with no space (the lookalike rule), ``<p`` repeated (the hidden-markup rule), JWT-like and
npm-like runs (the secret formats). At these sizes the old rules took hours; linear ones, moments.
"""

from __future__ import annotations

from pathlib import Path

MIB = 1024 * 1024


def pathological_memory(size: int = 2 * MIB) -> str:
    """MEMORY.md of issue 34: ``- a\\u200bb`` and one line of ``size`` × ``y``, then runs that tripped other rules."""
    return (
        "- a\u200bb\n"
        + "y" * size
        + "\n- "
        + "<p" * (size // 8)
        + "\n- "
        + "eyJ1" * (size // 32)
        + "\n- "
        + "://1" * (size // 32)
        + "\n"
    )


def pathological_home(folder: Path, size: int = 2 * MIB) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SOUL.md").write_text("I am Wren.\n", encoding="utf-8")
    (folder / "MEMORY.md").write_text(pathological_memory(size), encoding="utf-8")
    return folder
