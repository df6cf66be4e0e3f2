"""The README and the docs pages about the app match the app: the key tables, the theme example, the screenshot."""

from __future__ import annotations

import re
from pathlib import Path

from notebook_app.app.keys import ALL_KEYS, KEY_GROUPS
from notebook_app.app.themes import parse_theme

REPO = Path(__file__).parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
SCREEN = (REPO / "docs" / "screen.md").read_text(encoding="utf-8")
THEMES = (REPO / "docs" / "themes.md").read_text(encoding="utf-8")
KEY_ROW = re.compile(r"^\| `([^`]+)` \|", flags=re.MULTILINE)


def section(page: str, heading: str) -> str:
    """``heading`` and its text, up to the next heading of its level or above."""
    start = page.index(f"\n{heading}\n")
    level = heading.split(" ")[0]
    ends = [m.start() for m in re.finditer(rf"^#{{1,{len(level)}}} ", page[start + 1 :], flags=re.MULTILINE)][1:]
    return page[start : start + 1 + ends[0]] if ends else page[start:]


def test_the_key_table_lists_every_key_the_app_binds() -> None:
    documented = KEY_ROW.findall(section(SCREEN, "## Keys"))
    assert documented == [k.display for k in ALL_KEYS] + ["ctrl+p"]


def test_the_readme_key_table_names_only_notebook_keys_in_help_order() -> None:
    """The README's short table is a pick of the full one: keys of the notebook itself, in the help screen's order."""
    groups = {group.title: group.keys for group in KEY_GROUPS}
    bound = [k.display for k in groups["Everywhere"] + groups["Notebook"]] + ["ctrl+p"]
    documented = KEY_ROW.findall(section(README, "## Keys"))
    assert len(documented) >= 10
    assert [key for key in bound if key in documented] == documented


def test_the_theme_example_is_a_valid_theme() -> None:
    example = THEMES[THEMES.index("```toml") + len("```toml") : THEMES.index("```", THEMES.index("```toml") + 3)]
    theme = parse_theme(example, "ignored")
    assert (theme.name, theme.primary, theme.boost) == ("sea", "#1e90ff", "#ffffff10")


def test_the_screenshot_is_there() -> None:
    assert "](docs/screenshot.svg)" in README
    assert "](screenshot.svg)" in SCREEN
    assert (REPO / "docs/screenshot.svg").read_text().startswith("<svg")


def test_the_readme_stays_short_enough_to_read_to_the_end() -> None:
    """Issue 20: at most 200 lines; everything else has a page in docs/."""
    assert len(README.splitlines()) <= 200
