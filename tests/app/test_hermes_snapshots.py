"""A Hermes home at the sizes people use: 80×24, 100×30 and 160×45.

A small fixed ``$HERMES_HOME`` (SOUL.md, three ``§`` entries in
``memories/MEMORY.md``, one over two lines, two in ``memories/USER.md``, and a
``config.yaml`` whose ``memory_char_limit`` the meter says), opened as the
launch path opens it. Update with --snapshot-update, then look at the SVGs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_pilot import make_app, settled

from notebook_app.app.view_model.notebook import Notebook
from notebook_app.core.hosts.opening.choose import open_home

SIZES = [(80, 24), (100, 30), (160, 45)]
IDS = ["80x24", "100x30", "160x45"]


def fixed_hermes_home(tmp_path: Path) -> Path:
    home = tmp_path / "hermes"
    (home / "memories").mkdir(parents=True)
    (home / "SOUL.md").write_text("You are Hermes: terse, exact, and kind about it.\n")
    (home / "config.yaml").write_text("memory:\n  memory_char_limit: 1500\n")
    (home / "memories" / "MEMORY.md").write_text(
        "Priya's tide tables live in ~/tides\n§\ndrafts go out on Fridays,\nafter the review call\n§\ntimezone: UTC"
    )
    (home / "memories" / "USER.md").write_text("name is Priya\n§\nprefers metric units")
    return home


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_a_hermes_home_shows_its_stores_with_hermes_meter(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    home = fixed_hermes_home(tmp_path)
    opening = open_home(home)  # as launch opens it: the host by its layout, config.yaml's limit
    assert opening.host == "hermes" and opening.files.limits["MEMORY.md"] == 1500
    app = make_app(home)
    app._notebook = Notebook(opening.root, files=opening.files)
    assert snap_compare(app, terminal_size=size, run_before=settled)
