"""Per-home policy: ``.notebook/settings.toml`` (spec §8).

It says whether servers on this home run in review or guard mode. A server
reads it once, when it starts (a tool's description cannot change mid
connection), and a command-line flag wins over it. Reading never writes and
never fails: a file that cannot be used becomes problems in words, and the
setting it would have made is left unset. Changing a setting
(:func:`set_review`) is a recorded write: the file is replaced atomically
under the home's lock and a ``setting`` event goes into the home's one log.
The file is replaced before its event is appended; a value the log does not
explain (a hand edit, or a writer killed between the two) is recorded as
found, by ``outside``, at the next change, as outside writes to bootstrap
files are.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..fs.atomic import remove_temps, write_atomically
from ..home.files import read_file
from ..home.soul import home_path
from ..log.actor import Actor
from ..log.events import Event, EventError, now
from ..log.ids import new_id
from ..log.store import open_reader
from ..store.outside import OUTSIDE
from ..store.side_events import append_event

STATE_DIR = ".notebook"
SETTINGS_NAME = "settings.toml"
_KNOWN = ("guard", "review")
_LIMIT = 64 * 1024


@dataclass(frozen=True)
class HomeSettings:
    guard: bool | None = None
    review: bool | None = None
    problems: tuple[str, ...] = ()
    """Why the file, or a key of it, was not used."""


def load_settings(home: str | os.PathLike[str]) -> HomeSettings:
    """The home's settings; every key unset when there is no settings file."""
    root = home_path(home)
    state = root / STATE_DIR
    try:
        if stat.S_ISLNK(os.lstat(state).st_mode):
            return HomeSettings(problems=(f"{state} is a symbolic link; its settings are not read",))
    except OSError:
        return HomeSettings()
    path = state / SETTINGS_NAME
    read = read_file(path, limit=_LIMIT + 1)
    if not read.status.exists:
        return HomeSettings()
    if read.link_target is not None or not read.status.loads:
        return HomeSettings(problems=(f"{read.describe()}; its settings are not read",))
    if len(read.data) > _LIMIT:
        return HomeSettings(problems=(f"{path} is over {_LIMIT:,} bytes; its settings are not read",))
    try:
        data = tomllib.loads(read.data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return HomeSettings(problems=(f"{path} is not valid TOML ({error}); its settings are not read",))
    values: dict[str, bool] = {}
    problems = [f"{path}: unknown setting {key!r}" for key in sorted(set(data) - set(_KNOWN))]
    for key in _KNOWN:
        if key not in data:
            continue
        if isinstance(data[key], bool):
            values[key] = data[key]
        else:
            problems.append(f"{path}: {key} must be true or false, got {data[key]!r}; it is left unset")
    return HomeSettings(**values, problems=tuple(problems))


def mode_in_force(flag: bool | None, setting: bool | None) -> bool:
    """A flag (``--guard`` / ``--no-guard``) wins; then the home's setting; then off."""
    if flag is not None:
        return flag
    return bool(setting)


@dataclass(frozen=True)
class SettingResult:
    output: str
    is_error: bool = False


class _Refused(Exception):
    pass


_TEMP_PREFIX = ".settings-tmp-"
_REVIEW_LINE = re.compile(r"^[ \t]*review[ \t]*=.*$", re.MULTILINE)


def set_review(home: str | os.PathLike[str], on: bool, *, by: Actor, durable: bool = True) -> SettingResult:
    """Turn review mode on or off for servers this home starts from now; recorded in the home's log.

    Only the ``review`` line changes: the guard setting and comments stay. A
    settings file that cannot be used (not TOML, a link, too large) is
    refused with the reason, and nothing is changed.
    """
    root = home_path(home)
    said: list[str] = []
    try:  # refused before the lock: a refusal leaves no log behind
        _with_review(_settings_text(root / STATE_DIR / SETTINGS_NAME), on, root / STATE_DIR / SETTINGS_NAME)
    except _Refused as refused:
        return SettingResult(str(refused), is_error=True)

    def events(last: str | None) -> list[Event]:
        state = root / STATE_DIR
        remove_temps(state, _TEMP_PREFIX)  # what a killed writer left
        before = _settings_text(state / SETTINGS_NAME)
        was = load_settings(root).review
        recorded: list[Event] = []
        found, last_value = _last_recorded_review(root)
        if was != last_value and (found or was is not None):
            # A hand edit, or a change whose record was lost (killed between the file and its record): name it first.
            recorded.append(
                Event(
                    new_id("setting", last),
                    now(),
                    "setting",
                    OUTSIDE,
                    applied=True,
                    args={"review": was},
                    output=f"review found {_words(was)} on disk, not as the "
                    f"history last left it ({_words(last_value)})",
                    extra={"was": last_value},
                )
            )
            last = recorded[-1].id
        after = _with_review(before, on, state / SETTINGS_NAME)
        write_atomically(
            state, SETTINGS_NAME, after.encode("utf-8"), mode=0o600, temp_prefix=_TEMP_PREFIX, durable=durable
        )
        mode = (
            "on: servers started from now queue agents' writes for review"
            if on
            else "off: servers started from now write at once"
        )
        said.append(f"review is {mode} (a --review or --no-review flag still wins)")
        return [
            *recorded,
            Event(
                new_id("setting", last),
                now(),
                "setting",
                by,
                applied=True,
                args={"review": on},
                output=said[0],
                extra={"was": was},
            ),
        ]

    try:
        problem = append_event(root, events, durable=durable)
    except _Refused as refused:
        return SettingResult(str(refused), is_error=True)
    if problem is not None and said:  # the file was replaced, its record was not appended
        return SettingResult(
            f"review is now {_words(on)} in {root / STATE_DIR / SETTINGS_NAME}, but its record could not be written "
            f"({problem}); the next change records it as found",
            is_error=True,
        )
    if problem is not None:
        return SettingResult(f"could not change the setting ({problem})", is_error=True)
    return SettingResult(said[0])


def _with_review(before: str, on: bool, path: Path) -> str:
    """``before`` with its top-level ``review`` line set (or added); _Refused when the result would not say so."""
    value = "true" if on else "false"
    if _REVIEW_LINE.search(before):
        after = _REVIEW_LINE.sub(f"review = {value}", before, count=1)
    else:
        after = before + ("" if before.endswith("\n") or not before else "\n") + f"review = {value}\n"
    try:
        result = tomllib.loads(after).get("review")
    except tomllib.TOMLDecodeError:
        result = None
    if result is not on:
        raise _Refused(f"{path} would not say review = {value} after the change; nothing was changed")
    return after


def _last_recorded_review(root: Path) -> tuple[bool, bool | None]:
    """Whether the log holds a ``setting`` event for review, and the value the newest one left."""
    reader = open_reader(root)
    if reader is None:
        return False, None
    with reader:
        for _, line in reader.backward():
            if b'"action":"setting"' not in line[:200]:
                continue
            try:
                event = Event.from_line(line)
            except EventError:
                continue
            if isinstance(event.args, dict) and "review" in event.args:
                value = event.args["review"]
                return True, value if isinstance(value, bool) else None
    return False, None


def _words(value: bool | None) -> str:
    return "unset" if value is None else ("on" if value else "off")


def _settings_text(path: Path) -> str:
    """The settings file's text ("" when absent); _Refused when it cannot be used as it is."""
    read = read_file(path, limit=_LIMIT + 1)
    if not read.status.exists:
        return ""
    if read.link_target is not None or not read.status.loads:
        raise _Refused(f"{read.describe()}; the setting was not changed")
    if len(read.data) > _LIMIT:
        raise _Refused(f"{path} is over {_LIMIT:,} bytes; the setting was not changed")
    try:
        text = read.data.decode("utf-8")
        tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise _Refused(
            f"{path} is not valid TOML ({error}); fix or remove it first, the setting was not changed"
        ) from None
    return text
