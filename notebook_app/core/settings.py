"""Per-home policy: ``.notebook/settings.toml`` (spec §8).

It says whether servers on this home run in review or guard mode. A server
reads it once, when it starts (a tool's description cannot change mid
connection), and a command-line flag wins over it. Reading never writes and
never fails: a file that cannot be used becomes problems in words, and the
setting it would have made is left unset.
"""

from __future__ import annotations

import os
import stat
import tomllib
from dataclasses import dataclass

from .files import read_file
from .home import home_path

STATE_DIR = ".notebook"
SETTINGS_NAME = "settings.toml"
_KNOWN = ("guard", "review")
_LIMIT = 64 * 1024


@dataclass(frozen=True)
class HomeSettings:
    guard: bool | None = None
    review: bool | None = None
    problems: tuple[str, ...] = ()
    """Why the file, or a key of it, was not used."""


def load_settings(home: str | os.PathLike[str]) -> HomeSettings:
    """The home's settings; every key unset when there is no settings file."""
    root = home_path(home)
    state = root / STATE_DIR
    try:
        if stat.S_ISLNK(os.lstat(state).st_mode):
            return HomeSettings(problems=(f"{state} is a symbolic link; its settings are not read",))
    except OSError:
        return HomeSettings()
    path = state / SETTINGS_NAME
    read = read_file(path, limit=_LIMIT + 1)
    if not read.status.exists:
        return HomeSettings()
    if read.link_target is not None or not read.status.loads:
        return HomeSettings(problems=(f"{read.describe()}; its settings are not read",))
    if len(read.data) > _LIMIT:
        return HomeSettings(problems=(f"{path} is over {_LIMIT:,} bytes; its settings are not read",))
    try:
        data = tomllib.loads(read.data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return HomeSettings(problems=(f"{path} is not valid TOML ({error}); its settings are not read",))
    values: dict[str, bool] = {}
    problems = [f"{path}: unknown setting {key!r}" for key in sorted(set(data) - set(_KNOWN))]
    for key in _KNOWN:
        if key not in data:
            continue
        if isinstance(data[key], bool):
            values[key] = data[key]
        else:
            problems.append(f"{path}: {key} must be true or false, got {data[key]!r}; it is left unset")
    return HomeSettings(**values, problems=tuple(problems))


def mode_in_force(flag: bool | None, setting: bool | None) -> bool:
    """A flag (``--guard`` / ``--no-guard``) wins; then the home's setting; then off."""
    if flag is not None:
        return flag
    return bool(setting)
