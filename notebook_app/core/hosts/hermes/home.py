"""Where Hermes's home is: ``$HERMES_HOME``, the active profile, ``~/.hermes``, or a profile by name; what
makes a folder a Hermes home; and its file map as opened, with the limits of its ``config.yaml``.

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

from notebook_app.core.home.layout import HERMES_FOLDER, hermes_files
from notebook_app.core.hostbase.host import Fit, HomeFiles
from notebook_app.core.hostbase.places import user_home
from notebook_app.core.hosts.hermes.config import read_config

PROFILE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
RESERVED = frozenset({"hermes", "test", "tmp", "root", "sudo"})
"""``hermes_cli/profiles.py`` ``_RESERVED_NAMES``: never a profile."""


@dataclass(frozen=True)
class HermesPlace:
    """The Hermes home found, and how, in words; or, with ``home`` None, why none is."""

    home: Path | None
    reason: str


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


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def hermes_marks(folder: Path) -> str | None:
    """What makes ``folder`` a Hermes home, as a reason says it (``memories/ and config.yaml``); None: it is none."""
    found = [name for name in ("config.yaml", "SOUL.md") if _is_file(folder / name)]
    if not found:
        return None
    said = [f"{HERMES_FOLDER}/", *found]
    return ", ".join(said[:-1]) + " and " + said[-1]


def memories_parent(folder: Path) -> Path | None:
    """The Hermes home whose ``memories/`` the folder is, or None."""
    name = folder.name or os.path.basename(os.path.abspath(folder))
    if name != HERMES_FOLDER:
        return None
    parent = folder.parent if folder.name else Path(os.path.abspath(folder)).parent
    return parent if hermes_marks(parent) else None


def hermes_fit(id: str, folder: Path) -> Fit | None:
    """The folder has ``memories/`` and ``config.yaml`` or SOUL.md; a ``memories`` folder of such a home is its."""
    if _is_dir(folder / HERMES_FOLDER) and (marks := hermes_marks(folder)):
        return Fit(id, folder, f"opened as Hermes: the folder has {marks}")
    if (parent := memories_parent(folder)) is not None:
        marks = hermes_marks(parent)
        said = f"opened the Hermes home {parent}, whose {HERMES_FOLDER}/ folder was given: it has {marks}"
        return Fit(id, parent, said)
    return None


def hermes_given(id: str, root: Path, said: str) -> Fit:
    """The folder given as Hermes: a Hermes home's ``memories/`` opens its parent, and says so."""
    if not _is_dir(root / HERMES_FOLDER) and (parent := memories_parent(root)) is not None:
        return Fit(id, parent, f"{said}: opened the parent of its {HERMES_FOLDER}/ folder, the Hermes home {parent}")
    return Fit(id, root, said)


def hermes_own_home(id: str, said: str, profile: str | None, env: Mapping[str, str]) -> Fit | str:
    """``--profile NAME``'s home, else the one Hermes itself runs on now; or why none is."""
    place = profile_home(profile, env) if profile is not None else active_home(env)
    if place.home is None:
        return place.reason
    return Fit(id, place.home, f"{said}: {place.reason}")


def hermes_home_files(root: Path, limits: Mapping[str, int]) -> HomeFiles:
    """Hermes's file map with the limits of the home's config.yaml, and what was read, in words."""
    config = read_config(root, limits["MEMORY.md"], limits["USER.md"])
    notes: tuple[str, ...] = (
        f"{config.said}: MEMORY.md {config.memory_char_limit:,}, USER.md {config.user_char_limit:,} chars",
    )
    if not _is_dir(root / HERMES_FOLDER):
        notes += (f"no {HERMES_FOLDER}/ folder yet: Hermes keeps MEMORY.md and USER.md there",)
    return HomeFiles(hermes_files(config.memory_char_limit, config.user_char_limit), notes)
