"""The person's own home folder, as the hosts that keep their homes under it find it: ``$HOME``, else ``~``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def user_home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~"))
