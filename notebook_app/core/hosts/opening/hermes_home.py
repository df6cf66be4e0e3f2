"""Where Hermes's home is: ``$HERMES_HOME``, the active profile, ``~/.hermes``, or a profile by name.

Hermes's own rule (0.19.0), read from its source:

- ``hermes_cli/main.py`` ``_apply_profile_override``: a ``HERMES_HOME`` whose
  parent folder is named ``profiles`` is used as it is; otherwise the
  ``active_profile`` file of the Hermes root names the profile in force (none,
  or ``default``: the root itself), else ``HERMES_HOME``, else ``~/.hermes``. A
  named profile that does not exist stops Hermes ("Profile 'x' does not exist").
- ``hermes_constants.py`` ``get_default_hermes_root``: the root is ``~/.hermes``
  when ``HERMES_HOME`` is unset or inside it; the grandparent of a
  ``HERMES_HOME`` of the form ``<root>/profiles/<name>``; else ``HERMES_HOME``.
- ``hermes_cli/profiles.py``: a profile is ``<root>/profiles/<name>``, its name
  matching ``[a-z0-9][a-z0-9_-]{0,63}`` (``normalize_profile_name`` lowers it;
  ``default`` is the root); ``list_profiles`` lists the folders that match.

Not read here: Windows's ``%LOCALAPPDATA%\\hermes``, ``sudo``'s ``SUDO_USER``
profiles and ``HERMES_S6_SUPERVISED_CHILD``. Reads, never writes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

PROFILE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
RESERVED = frozenset({"hermes", "test", "tmp", "root", "sudo"})
"""``hermes_cli/profiles.py`` ``_RESERVED_NAMES``: never a profile."""


@dataclass(frozen=True)
class HermesPlace:
    """The Hermes home found, and how, in words; or, with ``home`` None, why none is."""

    home: Path | None
    reason: str


def user_home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~"))


def hermes_root(env: Mapping[str, str]) -> Path:
    """``get_default_hermes_root``: the folder whose ``profiles/`` and ``active_profile`` Hermes reads."""
    native = user_home(env) / ".hermes"
    given = env.get("HERMES_HOME", "")
    if not given:
        return native
    path = Path(given)
    if _inside(path, native):
        return native
    if path.parent.name == "profiles":
        return path.parent.parent
    return path


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except (ValueError, OSError):
        return False
    return True


def profiles_of(root: Path) -> list[str]:
    """``list_profiles``: ``default`` and each folder of ``<root>/profiles`` with a profile's name."""
    try:
        names = sorted(e.name for e in os.scandir(root / "profiles") if e.is_dir() and PROFILE_NAME.fullmatch(e.name))
    except OSError:
        names = []
    return ["default", *(n for n in names if n != "default")]


def profile_home(name: str, env: Mapping[str, str]) -> HermesPlace:
    """``--profile NAME``: ``<root>/profiles/NAME`` (``default``: the root), or why it is no profile."""
    root = hermes_root(env)
    canon = name.strip().lower() if name.strip().casefold() != "default" else "default"
    if canon == "default":
        return HermesPlace(root, f"the Hermes root {root}, its default profile")
    if not PROFILE_NAME.fullmatch(canon) or canon in RESERVED:
        return HermesPlace(None, f"{name!r} is not a Hermes profile name; profiles: {', '.join(profiles_of(root))}")
    home = root / "profiles" / canon
    if not home.is_dir():
        return HermesPlace(None, f"no Hermes profile {canon!r} in {root}; profiles: {', '.join(profiles_of(root))}")
    return HermesPlace(home, f"the Hermes profile {canon}, {home}")


def active_home(env: Mapping[str, str]) -> HermesPlace:
    """The home Hermes itself would run on now: ``_apply_profile_override``'s order."""
    given = env.get("HERMES_HOME", "")
    if given and Path(given).parent.name == "profiles":
        return HermesPlace(Path(given), f"$HERMES_HOME, a Hermes profile: {given}")
    root = hermes_root(env)
    try:
        active = (root / "active_profile").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        active = ""  # Hermes skips a file it cannot read
    if active and active != "default":
        place = profile_home(active, env)
        if place.home is None:
            return HermesPlace(None, f"{root / 'active_profile'} names the profile {active!r}: {place.reason}")
        return HermesPlace(place.home, f"the active Hermes profile {active!r} ({root / 'active_profile'})")
    if given:
        return HermesPlace(Path(given), f"$HERMES_HOME: {given}")
    return HermesPlace(root, f"Hermes's default home, {root} ($HERMES_HOME is not set)")
