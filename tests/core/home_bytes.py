"""Every file of a home with its bytes: what a test compares to prove nothing changed, or exactly what did.

A module of its own, not ``conftest``: ``from conftest import`` finds whichever
conftest was imported first (the app's or the server's when tests of several
folders run together), so a test importing from it fails depending on order.
"""

from __future__ import annotations

from pathlib import Path


def files_of(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes, to prove nothing changed."""
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()
    }
