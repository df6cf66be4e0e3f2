"""Theme files: the shipped three load, bad ones become messages, user themes count."""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_pilot import SIZE, started

from notebook_app.app.app import NotebookApp
from notebook_app.app.themes import load_themes, parse_theme, shipped_themes_dir, user_themes_dir

GOOD = """
name = "sea"
dark = true
[colors]
primary = "#1e90ff"
background = "#001122"
[variables]
block-cursor-text-style = "bold"
"""


def test_shipped_themes_load_without_problems() -> None:
    themes, problems = load_themes(shipped_themes_dir())
    assert problems == []
    assert {t.name for t in themes} == {"dark", "light", "high-contrast"}
    assert {t.name: t.dark for t in themes} == {"dark": True, "light": False, "high-contrast": True}


def test_every_shipped_theme_builds_its_whole_palette() -> None:
    """load_themes skips this check for the shipped folder; it holds here instead."""
    files = sorted(Path(str(shipped_themes_dir())).glob("*.toml"))
    assert len(files) == 3
    for file in files:
        parse_theme(file.read_text(encoding="utf-8"), file.stem, check_palette=True)


def test_a_bad_palette_in_a_user_theme_is_reported(tmp_path: Path) -> None:
    """Colours Textual accepts alone but cannot combine: still caught for a person's own themes."""
    (tmp_path / "odd.toml").write_text('luminosity_spread = nan\n[colors]\nprimary = "red"\n')
    themes, problems = load_themes(shipped_themes_dir(), tmp_path)
    assert "odd" not in {t.name for t in themes}
    assert [(p.source, p.message.split(" (")[0]) for p in problems] == [
        (str(tmp_path / "odd.toml"), "cannot build the palette")
    ]


def test_a_good_theme_maps_onto_textual_theme() -> None:
    theme = parse_theme(GOOD, "ignored")
    assert (theme.name, theme.primary, theme.background, theme.dark) == ("sea", "#1e90ff", "#001122", True)
    assert theme.variables == {"block-cursor-text-style": "bold"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[colors]\nprimary = "#12345z"\n', "colors.primary is not a colour: '#12345z'"),
        ('[colors]\nsecondary = "red"\n', "[colors] must set at least 'primary'"),
        ('[colors]\nprimary = "red"\nshade = "blue"\n', "unknown colour(s) in [colors]: shade"),
        (
            '[colors]\nprimary = "red"\n[variables]\nborder = "not-a-colour"\n',
            "variables.border is not a colour: 'not-a-colour'",
        ),
        ('dark = "yes"\n[colors]\nprimary = "red"\n', "'dark' must be true or false"),
        ('colour = 1\n[colors]\nprimary = "red"\n', "unknown key(s): colour"),
        ("[colors\n", "not valid TOML"),
    ],
)
def test_a_bad_theme_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_theme(text, "bad")
    assert str(raised.value).startswith(message)


def test_user_themes_load_from_the_config_dir_and_bad_ones_are_reported(tmp_path: Path) -> None:
    folder = user_themes_dir()
    assert str(folder).startswith(str(tmp_path))  # the autouse fixture points XDG_CONFIG_HOME here
    folder.mkdir(parents=True)
    (folder / "sea.toml").write_text(GOOD)
    (folder / "broken.toml").write_text('[colors]\nprimary = "nope"\n')
    themes, problems = load_themes(shipped_themes_dir(), folder)
    assert "sea" in {t.name for t in themes}
    assert [str(p) for p in problems] == [f"{folder / 'broken.toml'}: colors.primary is not a colour: 'nope'"]


async def test_the_app_picks_up_user_themes_and_reports_broken_ones(home: Path) -> None:
    folder = user_themes_dir()
    folder.mkdir(parents=True)
    (folder / "sea.toml").write_text(GOOD)
    (folder / "broken.toml").write_text('[colors]\nprimary = "nope"\n')
    app = NotebookApp(home, theme="sea", watch=False, home_label="test home")
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert app.theme == "sea"
        assert [n.message for n in app._notifications] == [
            f"{folder / 'broken.toml'}: colors.primary is not a colour: 'nope'"
        ]
