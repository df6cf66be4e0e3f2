"""The notebook's own session numbers, continued across launches: per user, never in the home.

Opening a home must not write to it, so the counter lives in the user's state
directory (``$XDG_STATE_HOME/persona-notebook/sessions.json`` on Linux),
keyed by the home's real path. A relaunch starts at the last number + 1. The
file is changed under ``flock`` on the state folder and replaced atomically,
so two notebooks on the same home never hand out the same number. If the
folder cannot be written the notebook still runs, numbering from 1, and the
reason is kept for the screen to say.
"""

from __future__ import annotations

import json
from pathlib import Path

from platformdirs import user_state_dir

from notebook_app.core.fs.atomic import flocked_directory, remove_temps, write_atomically

COUNTER_FILE = "sessions.json"


def state_dir() -> Path:
    return Path(user_state_dir("persona-notebook"))


class SessionCounter:
    """Hands out the notebook's session numbers for one home."""

    def __init__(self, home: Path, folder: Path | None = None) -> None:
        self.key = str(home.resolve())
        self.folder = folder if folder is not None else state_dir()
        self.problem: str | None = None
        """Why numbers are not kept across launches, when they are not."""

    def claim(self, at_least: int = 0) -> int:
        """The next number for this home: one past both the last kept and ``at_least``; kept."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with flocked_directory(self.folder):
                remove_temps(self.folder, f".{COUNTER_FILE}-")  # left by a killed writer
                numbers = self._read()
                number = max(numbers.get(self.key, 0), at_least) + 1
                numbers[self.key] = number
                data = json.dumps(numbers, indent=1, sort_keys=True).encode()
                write_atomically(
                    self.folder, COUNTER_FILE, data, mode=0o600, temp_prefix=f".{COUNTER_FILE}-", durable=False
                )
        except (OSError, ValueError) as error:
            self.problem = f"session numbers are not kept across launches ({getattr(error, 'strerror', None) or error})"
            return at_least + 1
        self.problem = None
        return number

    def _read(self) -> dict[str, int]:
        try:
            raw = json.loads((self.folder / COUNTER_FILE).read_text())
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):
            return {}  # a damaged file: numbering restarts rather than the app failing
        return (
            {k: v for k, v in raw.items() if isinstance(k, str) and isinstance(v, int)} if isinstance(raw, dict) else {}
        )
