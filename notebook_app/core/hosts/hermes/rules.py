"""Hermes 0.19.0's rules, read once from ``hermes-0.19.0.toml``: the one source of its numbers (its limits too).

Its own small module, so the host object (:mod:`.host`) reads the limits without loading the loader
(:mod:`.load`), and the loader reads the rest from the same read.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files as package_files
from typing import Any


@cache
def rules() -> dict[str, Any]:
    """The release's rules as tomllib reads them: each value is what its TOML key holds (tomllib types it Any)."""
    text = (package_files(__package__) / "hermes-0.19.0.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)
