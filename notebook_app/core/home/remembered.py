"""The host a person chose for a folder, kept per user (spec §8): ``<state dir>/persona-notebook/hosts.json``.

Keyed by the folder's real path, so a link to it or a relative path finds the
same choice, with the time it was chosen (``since``, UTC). Written only when a
person chooses to keep one (a write aimed with ``--host``, the palette's release
choice), never by a read; forgotten by the doctor's fix (:func:`forget_host`); under
``flock`` on the state folder and replaced atomically, as the session counter
does; read without a lock (a reader sees the whole old file or the whole new
one). A file that is damaged or unreadable reads as no choice.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from platformdirs import user_state_dir

from notebook_app.core.fs.atomic import flocked_directory, remove_temps, write_atomically
from notebook_app.core.text.times import local_time

HOSTS_FILE = "hosts.json"


def state_folder() -> Path:
    """The notebook's per-user state folder (``$XDG_STATE_HOME/persona-notebook`` on Linux)."""
    return Path(user_state_dir("persona-notebook"))


@dataclass(frozen=True)
class Remembered:
    host: str
    version: str | None = None
    since: datetime | None = None
    """When it was chosen (None: kept by a release that did not say)."""

    @property
    def since_words(self) -> str:
        """`` since 2026-12-07 16:53:04 +01:00`` (the one rule for times), or nothing when the time is not known."""
        if self.since is None:
            return ""
        return f" since {local_time(self.since)}"


def _key(path: Path) -> str:
    return os.path.realpath(path)


def _read_file(folder: Path, name: str) -> dict[str, object]:
    try:
        raw = json.loads((folder / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return raw if isinstance(raw, dict) else {}


def _read(folder: Path) -> dict[str, dict[str, object]]:
    return {k: v for k, v in _read_file(folder, HOSTS_FILE).items() if isinstance(v, dict)}


def _update(folder: Path, name: str, path: Path, value: object) -> None:
    """Set the folder at ``path``'s value in ``folder/name`` (None: drop it), under the state folder's lock,
    replaced atomically."""
    folder.mkdir(parents=True, exist_ok=True)
    with flocked_directory(folder):
        remove_temps(folder, f".{name}-")  # left by a killed writer
        choices = _read_file(folder, name)
        if value is None:
            choices.pop(_key(path), None)
        else:
            choices[_key(path)] = value
        data = json.dumps(choices, indent=1, sort_keys=True).encode()
        write_atomically(folder, name, data, mode=0o600, temp_prefix=f".{name}-", durable=False)


def read_choice(name: str, path: Path, state: Path | None = None) -> str | None:
    """The word kept in the state file ``name`` for the folder at ``path`` (another per-folder fact), or None."""
    value = _read_file(state if state is not None else state_folder(), name).get(_key(path))
    return value if isinstance(value, str) else None


def remember_choice(name: str, path: Path, value: str, *, state: Path | None = None) -> str | None:
    """Keep the word ``value`` for the folder at ``path`` in the state file ``name``; None, or why it was not kept."""
    try:
        _update(state if state is not None else state_folder(), name, path, value)
    except OSError as error:
        return f"the answer for {path} is not remembered ({error.strerror or error})"
    return None


def remembered_host(path: Path, state: Path | None = None) -> Remembered | None:
    """The host chosen for the folder at ``path`` before, or None."""
    entry = _read(state if state is not None else state_folder()).get(_key(path)) or {}
    host = entry.get("host")
    if not isinstance(host, str) or not host:
        return None
    version = entry.get("version")
    return Remembered(host, version if isinstance(version, str) and version else None, _time(entry.get("since")))


def _time(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


def remember_host(
    path: Path,
    host: str,
    version: str | None = None,
    *,
    state: Path | None = None,
    now: datetime | None = None,
) -> str | None:
    """Keep ``host`` (at ``version``) as the choice for the folder at ``path``, made ``now``; None, or why it could
    not be kept."""
    folder = state if state is not None else state_folder()
    since = (now or datetime.now(UTC)).astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    try:
        _update(folder, HOSTS_FILE, path, {"host": host, **({"version": version} if version else {}), "since": since})
    except OSError as error:
        return f"the host chosen for {path} is not remembered ({error.strerror or error})"
    return None


def forget_host(path: Path, *, state: Path | None = None) -> str | None:
    """Drop the host remembered for the folder at ``path`` (the per-user state only); None, or why it could not be."""
    folder = state if state is not None else state_folder()
    try:
        _update(folder, HOSTS_FILE, path, None)
    except OSError as error:
        return f"the host remembered for {path} is not forgotten ({error.strerror or error})"
    return None
