"""The demo persona: shipped read-only in the package, used from a copy.

On first run the files are copied to the user's data directory, so the
package is never written to and what a person writes in one run is there as
the next session in the next run. ``--reset-demo`` restores the shipped copy.
"""

from __future__ import annotations

import shutil
import tempfile
from importlib.resources import files
from pathlib import Path

from platformdirs import user_data_dir

DEMO_LABEL = "demo persona"


def demo_home_dir() -> Path:
    return Path(user_data_dir("persona-notebook")) / "demo"


def ensure_demo(*, reset: bool = False) -> Path:
    """The demo home, copied from the package on first use or when ``reset``."""
    home = demo_home_dir()
    if reset and home.exists():
        shutil.rmtree(home)
    if home.is_dir():
        return home
    home.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".demo-", dir=home.parent))
    try:
        for entry in (files("notebook_app") / "demo_home").iterdir():
            if entry.name.endswith(".md"):
                (staging / entry.name).write_bytes(entry.read_bytes())
        staging.rename(home)  # a half-copied demo is never seen as the demo
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return home
