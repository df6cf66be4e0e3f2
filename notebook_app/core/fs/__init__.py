"""The file-system moves every writer shares: directory locks, atomic writes, the home's pin and lock,
the state folder ``.notebook/``, and the data folders a user may override.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_face

if TYPE_CHECKING:
    from .atomic import flocked_directory, remove_temps, sync_folder, write_atomically
    from .data_folders import load_toml_folders
    from .home_pin import moved, pin_home, unpin_home, write_refusal
    from .state_dir import STATE_DIR, state_problem

_HOME_OF: dict[str, str] = {
    "flocked_directory": "atomic",
    "remove_temps": "atomic",
    "sync_folder": "atomic",
    "write_atomically": "atomic",
    "load_toml_folders": "data_folders",
    "moved": "home_pin",
    "pin_home": "home_pin",
    "unpin_home": "home_pin",
    "write_refusal": "home_pin",
    "STATE_DIR": "state_dir",
    "state_problem": "state_dir",
}
"""Each exported name -> the module that defines it; it loads on the name's first use."""

lazy_face(__name__, _HOME_OF)

__all__ = [
    "STATE_DIR",
    "flocked_directory",
    "load_toml_folders",
    "moved",
    "pin_home",
    "remove_temps",
    "state_problem",
    "sync_folder",
    "unpin_home",
    "write_atomically",
    "write_refusal",
]
