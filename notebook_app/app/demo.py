"""The demo persona: shipped read-only in the package, used from a copy.

On first run the files are copied to the user's data directory, so the
package is never written to and what a person writes in one run is there as
the next session in the next run. ``--reset-demo`` restores the shipped copy,
after saying what that removes (:func:`demo_losses`); it never opens the app.
"""

from __future__ import annotations

import shutil
import tempfile
from importlib.resources import files
from pathlib import Path

from platformdirs import user_data_dir

from notebook_app.core.fs.state_dir import STATE_DIR
from notebook_app.core.home.reading import JOURNAL_NAME

DEMO_LABEL = "demo persona"


def demo_home_dir() -> Path:
    return Path(user_data_dir("persona-notebook")) / "demo"


def shipped_demo() -> dict[str, bytes]:
    """The demo's files as the package ships them."""
    return {e.name: e.read_bytes() for e in (files("notebook_app") / "demo_home").iterdir() if e.name.endswith(".md")}


def demo_losses(home: Path) -> list[str]:
    """What resetting the demo at ``home`` removes, one item in words each; empty when it is as shipped."""
    if not home.is_dir():
        return []
    shipped = shipped_demo()
    lost = []
    for name in sorted(shipped):
        path = home / name
        if not path.is_file() or path.is_symlink():
            lost.append(f"{name}: deleted or replaced (the shipped one comes back)")
        elif path.read_bytes() != shipped[name]:
            lost.append(f"{name}: changed since it was shipped")
    for entry in sorted(home.iterdir(), key=lambda p: p.name):
        if entry.name in shipped:
            continue
        if entry.name == STATE_DIR:
            records = _records(home)
            lost.append(
                f"{STATE_DIR}/: the demo's history ({records:,} "
                f"record{'s' if records != 1 else ''}), its snapshots and agent sessions"
            )
        elif entry.name == JOURNAL_NAME:
            lost.append(f"{JOURNAL_NAME}: the write journal (each file as last recorded)")
        elif entry.is_dir() and not entry.is_symlink():
            lost.append(f"{entry.name}/: a folder that was not shipped")
        else:
            lost.append(f"{entry.name}: not shipped")
    return lost


def _records(home: Path) -> int:
    from notebook_app.core.history.query import history  # lazy: the write path

    return len(history(home))


def ensure_demo(*, reset: bool = False) -> Path:
    """The demo home, copied from the package on first use or when ``reset``.

    A reset copies the shipped files first and swaps the folders after, so an
    interrupted reset leaves the old demo or the new one, never half of each.
    """
    home = demo_home_dir()
    if home.is_dir() and not reset:
        return home
    home.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".demo-", dir=home.parent))
    try:
        for name, data in shipped_demo().items():
            (staging / name).write_bytes(data)
        if reset and (home.exists() or home.is_symlink()):
            old = Path(tempfile.mkdtemp(prefix=".demo-old-", dir=home.parent))
            home.rename(old / "demo")
            staging.rename(home)  # a half-copied demo is never seen as the demo
            shutil.rmtree(old, ignore_errors=True)
        else:
            staging.rename(home)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return home
