"""Data files a user may override: every ``*.toml`` in a list of folders, later folders first in line.

Host profiles and themes are both shipped in the package and overridable from
the user's config directory; this is the one walk over those folders, so a
file that cannot be read or parsed is reported the same way for both.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

Parsed = TypeVar("Parsed")


def load_toml_folders(
    folders: tuple[Traversable | Path, ...], parse: Callable[[str, str, str], Parsed]
) -> tuple[list[Parsed], list[tuple[str, str]]]:
    """``parse(text, stem, source)`` for each ``*.toml`` file in ``folders``, in order.

    Returns what parsed, in folder then name order (so a caller keying by name
    lets later folders win), and ``(source, message)`` for each file that could
    not be read or raised ``ValueError``. Missing folders are skipped.
    """
    parsed: list[Parsed] = []
    problems: list[tuple[str, str]] = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if not entry.name.endswith(".toml"):
                continue
            source = str(entry)
            try:
                parsed.append(parse(entry.read_text(encoding="utf-8"), entry.name.removesuffix(".toml"), source))
            except (OSError, UnicodeDecodeError) as error:
                problems.append((source, f"cannot read it ({error})"))
            except ValueError as error:
                problems.append((source, str(error)))
    return parsed, problems
