"""A ``persona-notebook`` process that pauses at one step of writing a move, for a test to kill it there.

    python stopped_move.py WHEN MARKER export --home SRC --to HOST DEST --apply --yes

WHEN is ``write:N`` (pause once the Nth file is written in a staging folder) or ``rename:N`` (pause just before
the Nth staging folder is renamed onto its place). At the pause the process creates MARKER, then sleeps until it
is killed. The product has no seam for this: this process wraps two functions of its own copy of the code
(``portable.writing.write_atomically``, ``portable.staging.rename_onto``), then runs the CLI as
``python -m notebook_app`` does; so what is killed is the real write, between two of its real steps.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import notebook_app.portable.staging as staging
import notebook_app.portable.writing as writing
from notebook_app.cli.main import main


def pausing(real: Callable[..., Any], at: int, after: bool, marker: Path) -> Callable[..., Any]:
    """``real``, but the ``at``-th call pauses for good, after it ran (``after``) or before it runs."""
    calls = 0

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == at and not after:
            _pause(marker)
        result = real(*args, **kwargs)
        if calls == at and after:
            _pause(marker)
        return result

    return wrapper


def _pause(marker: Path) -> None:
    marker.write_text("paused\n")
    while True:
        time.sleep(60)


if __name__ == "__main__":
    when, marker, *argv = sys.argv[1:]
    step, _, count = when.partition(":")
    if step == "write":
        writing.write_atomically = pausing(writing.write_atomically, int(count), True, Path(marker))
    else:
        staging.rename_onto = pausing(staging.rename_onto, int(count), False, Path(marker))
    sys.exit(main(argv))
