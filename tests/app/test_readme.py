"""The README's notebook section matches the app: its key table and theme example."""

from __future__ import annotations

import re
from pathlib import Path

from notebook_app.app.keys import ALL_KEYS
from notebook_app.app.themes import parse_theme

README = (Path(__file__).parents[2] / "README.md").read_text()
SECTION = README[README.index("## The notebook") : README.index("## The contract")]


def test_the_key_table_lists_every_key_the_app_binds() -> None:
    documented = re.findall(r"^\| `([^`]+)` \|", SECTION, flags=re.MULTILINE)
    assert documented == [k.display for k in ALL_KEYS] + ["ctrl+p"]


def test_the_theme_example_is_a_valid_theme() -> None:
    themes = SECTION[SECTION.index("### Themes") :]
    example = themes[themes.index("```toml") + len("```toml") : themes.index("```", themes.index("```toml") + 3)]
    theme = parse_theme(example, "ignored")
    assert (theme.name, theme.primary, theme.boost) == ("sea", "#1e90ff", "#ffffff10")


def test_the_screenshot_is_there() -> None:
    assert "](docs/screenshot.svg)" in SECTION
    assert (Path(__file__).parents[2] / "docs/screenshot.svg").read_text().startswith("<svg")
