"""The host a person chose for a folder, kept per user (spec §8): ``<state dir>/persona-notebook/hosts.json``.

Keyed by the folder's real path, so a link to it or a relative path finds the
same choice. Written only when a person chooses (``--host``, the palette), under
``flock`` on the state folder and replaced atomically, as the session counter
does; read without a lock (a reader sees the whole old file or the whole new
one). A file that is damaged or unreadable reads as no choice.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_state_dir

from ..fs.atomic import flocked_directory, remove_temps, write_atomically

HOSTS_FILE = "hosts.json"


def state_folder() -> Path:
    """The notebook's per-user state folder (``$XDG_STATE_HOME/persona-notebook`` on Linux)."""
    return Path(user_state_dir("persona-notebook"))


@dataclass(frozen=True)
class Remembered:
    host: str
    version: str | None = None


def _key(path: Path) -> str:
    return os.path.realpath(path)


def _read(folder: Path) -> dict[str, dict[str, object]]:
    try:
        raw = json.loads((folder / HOSTS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in raw.items() if isinstance(v, dict)} if isinstance(raw, dict) else {}


def remembered_host(path: Path, state: Path | None = None) -> Remembered | None:
    """The host chosen for the folder at ``path`` before, or None."""
    entry = _read(state if state is not None else state_folder()).get(_key(path))
    host = entry.get("host") if entry else None
    if not isinstance(host, str) or not host:
        return None
    version = entry.get("version") if entry else None
    return Remembered(host, version if isinstance(version, str) and version else None)


def remember_host(path: Path, host: str, version: str | None = None, *, state: Path | None = None) -> str | None:
    """Keep ``host`` (at ``version``) as the choice for the folder at ``path``; None, or why it could not be kept."""
    folder = state if state is not None else state_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with flocked_directory(folder):
            remove_temps(folder, f".{HOSTS_FILE}-")  # left by a killed writer
            choices = _read(folder)
            choices[_key(path)] = {"host": host, **({"version": version} if version else {})}
            data = json.dumps(choices, indent=1, sort_keys=True).encode()
            write_atomically(folder, HOSTS_FILE, data, mode=0o600, temp_prefix=f".{HOSTS_FILE}-", durable=False)
    except OSError as error:
        return f"the host chosen for {path} is not remembered ({error.strerror or error})"
    return None
