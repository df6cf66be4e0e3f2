"""``persona-notebook`` on a Hermes home, in a real pty: the launch path finds the host and its stores.

Opening the home, or its ``memories/`` folder (which opens the parent and
says so on stderr, before the app takes the screen), shows SOUL.md, the two
stores with Hermes's meter, and Current and Next as Hermes loads them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from terminal import Terminal

ALTERNATE_SCREEN = b"\x1b[?1049h"


def dot_hermes(user_home: Path) -> Path:
    """A ``~/.hermes`` as Hermes leaves it: SOUL.md and config.yaml at the top, the § stores in ``memories/``."""
    home = user_home / ".hermes"
    (home / "memories").mkdir(parents=True)
    (home / "SOUL.md").write_text("You are Hermes, terse and exact.\n")
    (home / "config.yaml").write_text("memory:\n  memory_char_limit: 2200\n  user_char_limit: 1375\n")
    (home / "memories" / "MEMORY.md").write_text("likes tide tables\n§\ndrafts go out\non Fridays")
    (home / "memories" / "USER.md").write_text("name is Priya")
    return home


@pytest.mark.parametrize("folder", ["", "memories"], ids=["the-home", "its-memories-folder"])
def test_persona_notebook_opens_a_hermes_home_as_hermes_with_its_stores(tmp_path: Path, folder: str) -> None:
    user_home = tmp_path / "user"
    home = dot_hermes(user_home)
    env = {
        "HOME": str(user_home),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    terminal = Terminal([str(home / folder) if folder else str(home)], size=(160, 45), env=env)
    try:
        for text in ("Current · Hermes", "Next · Hermes", "You are Hermes, terse and exact.", "drafts go out"):
            assert terminal.read_until(text), (text, terminal.output.decode(errors="replace")[-3000:])
        for meter in (" of 2,200 chars", " of 1,375 chars"):  # Hermes's meter in each store's pane (styled apart)
            assert terminal.read_until(meter), (meter, terminal.output.decode(errors="replace")[-3000:])
        terminal.send("q")
        assert terminal.wait(within=30) == 0
    finally:
        terminal.close()
    before_app, _, _ = terminal.output.partition(ALTERNATE_SCREEN)
    said = f"persona-notebook: opened the Hermes home {home}, whose memories/ folder was given".encode()
    assert (said in before_app) is bool(folder)  # on stderr, before the app takes the screen; only when it moved
    assert b"Traceback" not in terminal.output
    assert sorted(p.name for p in home.iterdir()) == ["SOUL.md", "config.yaml", "memories"]  # opening never writes
