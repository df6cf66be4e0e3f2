"""Theme files: TOML that maps onto Textual's ``Theme``, every colour checked.

A theme file looks like::

    name = "dark"            # optional; defaults to the file name
    dark = true
    [colors]                 # primary is required, the rest optional
    primary = "#7aa2f7"
    background = "#1a1b26"
    [variables]              # optional Textual CSS variables
    block-cursor-background = "#7aa2f7"

Shipped themes live in the repository's ``themes/`` folder, which the wheel
carries as ``notebook_app/themes``; a person's own themes come from
``<config dir>/persona-notebook/themes``. A file that fails to load is
reported, never raised: the app turns each problem into a notification.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

from platformdirs import user_config_dir
from textual.color import Color, ColorParseError
from textual.theme import Theme

from notebook_app.core.fs.data_folders import load_toml_folders

if TYPE_CHECKING:
    from collections.abc import Callable
    from importlib.resources.abc import Traversable

COLOR_FIELDS = (
    "primary",
    "secondary",
    "warning",
    "error",
    "success",
    "accent",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
)
TEXT_STYLE_SUFFIX = "text-style"
DEFAULT_THEME = "dark"


@dataclass(frozen=True)
class ThemeProblem:
    source: str
    message: str

    def __str__(self) -> str:
        return f"{self.source}: {self.message}"


def shipped_themes_dir() -> Traversable:
    """``notebook_app/themes`` in a wheel; the repository's ``themes/`` in a dev checkout."""
    package = Path(__file__).parents[1]
    if package.is_dir():  # installed as files: the folder importlib.resources would give, without loading it at start
        packaged: Traversable = package / "themes"
    else:
        packaged = files("notebook_app") / "themes"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "themes"


def user_themes_dir() -> Path:
    return Path(user_config_dir("persona-notebook")) / "themes"


def _theme_parser(check: bool) -> Callable[[str, str, str], Theme]:
    """:func:`parse_theme` as ``load_toml_folders`` calls it (text, stem, source), checking palettes when ``check``."""
    return lambda text, stem, _source: parse_theme(text, stem, check_palette=check)


def parse_theme(text: str, default_name: str, *, check_palette: bool = True) -> Theme:  # noqa: C901 (one refusal per key)
    """A validated ``Theme`` from TOML text; ``ValueError`` says what is wrong.

    ``check_palette``: also build the whole palette, which catches colours
    Textual accepts alone but cannot combine (about 6 M instructions a theme).
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"not valid TOML ({error})") from None
    unknown = set(data) - {"name", "dark", "colors", "variables", "luminosity_spread", "text_alpha"}
    if unknown:
        raise ValueError(f"unknown key(s): {', '.join(sorted(unknown))}")
    name = data.get("name", default_name)
    if not isinstance(name, str) or not name.strip():
        raise ValueError("'name' must be a non-empty string")
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise ValueError("'dark' must be true or false")
    colors = data.get("colors", {})
    if not isinstance(colors, dict) or "primary" not in colors:
        raise ValueError("[colors] must set at least 'primary'")
    unknown = set(colors) - set(COLOR_FIELDS)
    if unknown:
        raise ValueError(f"unknown colour(s) in [colors]: {', '.join(sorted(unknown))}")
    for key, value in colors.items():
        _check_color(f"colors.{key}", value)
    variables = data.get("variables", {})
    if not isinstance(variables, dict):
        raise ValueError("[variables] must be a table")
    for key, value in variables.items():
        if not isinstance(value, str):
            raise ValueError(f"variables.{key} must be a string")
        if not key.endswith(TEXT_STYLE_SUFFIX):
            _check_color(f"variables.{key}", value)
    extras = {key: data[key] for key in ("luminosity_spread", "text_alpha") if key in data}
    for key, value in extras.items():
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise ValueError(f"'{key}' must be a number")
    theme = Theme(name=name, dark=dark, variables=dict(variables), **colors, **extras)
    if not check_palette:
        return theme
    try:
        theme.to_color_system().generate()
    except Exception as error:  # a colour Textual accepted alone but cannot combine
        raise ValueError(f"cannot build the palette ({error})") from None
    return theme


def _check_color(where: str, value: object) -> None:
    if not isinstance(value, str):
        raise ValueError(f"{where} must be a colour string, got {value!r}")
    try:
        Color.parse(value)
    except ColorParseError:
        raise ValueError(f"{where} is not a colour: {value!r}") from None


def load_themes(*folders: Traversable | Path) -> tuple[list[Theme], list[ThemeProblem]]:
    """Every ``*.toml`` theme in ``folders`` (later folders win a name clash).

    The shipped themes' palettes are built by the tests, not at each start:
    for three themes that was four fifths of loading them (the one in use is
    built again by Textual anyway). A person's own themes are checked whole.
    """
    shipped = shipped_themes_dir()
    themes, problems = [], []
    for folder in folders:
        check = folder != shipped
        found, failed = load_toml_folders((folder,), _theme_parser(check))
        themes += found
        problems += failed
    by_name = {theme.name: theme for theme in themes}
    return list(by_name.values()), [ThemeProblem(*problem) for problem in problems]
