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

import json
import os
import re
import stat
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from notebook_app.core.fs.atomic import remove_temps, write_atomically
from notebook_app.core.home.files import read_file
from notebook_app.core.home.soul import home_path
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.record.log.events import Event, EventError, now
from notebook_app.core.record.log.ids import new_id
from notebook_app.core.record.log.store import open_reader
from notebook_app.core.record.outside import OUTSIDE
from notebook_app.core.record.side_events import append_event

STATE_DIR = ".notebook"
SETTINGS_NAME = "settings.toml"
_KNOWN = ("git", "guard", "review")
_STRINGS = ("git_repo",)
"""Settings that are text: ``git_repo`` names the repository a home inside another one commits into."""
_LIMIT = 64 * 1024


@dataclass(frozen=True)
class HomeSettings:
    git: bool | None = None
    guard: bool | None = None
    review: bool | None = None
    git_repo: str | None = None
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
    values: dict[str, bool | str] = {}
    problems = [f"{path}: unknown setting {key!r}" for key in sorted(set(data) - set(_KNOWN) - set(_STRINGS))]
    for key in _STRINGS:
        if isinstance(data.get(key), str):
            values[key] = data[key]
        elif key in data:
            problems.append(f"{path}: {key} must be text, got {data[key]!r}; it is left unset")
    for key in _KNOWN:
        if key not in data:
            continue
        if isinstance(data[key], bool):
            values[key] = data[key]
        else:
            problems.append(f"{path}: {key} must be true or false, got {data[key]!r}; it is left unset")
    return HomeSettings(**values, problems=tuple(problems))  # type: ignore[arg-type]


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


def set_review(home: str | os.PathLike[str], on: bool, *, by: Actor, durable: bool = True) -> SettingResult:
    """Turn review mode on or off for servers this home starts from now; recorded in the home's log.

    Only the ``review`` line changes: the guard setting and comments stay. A
    settings file that cannot be used (not TOML, a link, too large) is
    refused with the reason, and nothing is changed.
    """
    mode = (
        "on: servers started from now queue agents' writes for review"
        if on
        else "off: servers started from now write at once"
    )
    return change_setting(
        home,
        {"review": on},
        by=by,
        durable=durable,
        said=f"review is {mode} (a --review or --no-review flag still wins)",
    )


def change_setting(
    home: str | os.PathLike[str],
    values: dict[str, bool | str],
    *,
    by: Actor,
    said: str,
    durable: bool = True,
    found: Callable[[], str | None] | None = None,
) -> SettingResult:
    """Set ``values`` (their lines only; other lines and comments stay) as one recorded ``setting`` event.

    The first key names the setting; a value on disk the log does not explain is recorded first, by ``outside``.
    ``found``, when given, is asked under the lock before anything is written: words refuse the change.
    """
    root = home_path(home)
    key = next(iter(values))
    path = root / STATE_DIR / SETTINGS_NAME
    told: list[str] = []
    try:  # refused before the lock: a refusal leaves no log behind
        _with_values(_settings_text(path), values, path)
    except _Refused as refused:
        return SettingResult(str(refused), is_error=True)

    def events(last: str | None) -> list[Event]:
        if found is not None and (refusal := found()) is not None:
            raise _Refused(refusal)
        state = root / STATE_DIR
        remove_temps(state, _TEMP_PREFIX)  # what a killed writer left
        before = _settings_text(state / SETTINGS_NAME)
        was = getattr(load_settings(root), key)
        recorded: list[Event] = []
        logged, last_value = _last_recorded(root, key)
        if was != last_value and (logged or was is not None):
            # A hand edit, or a change whose record was lost (killed between the file and its record): name it first.
            recorded.append(
                Event(
                    new_id("setting", last),
                    now(),
                    "setting",
                    OUTSIDE,
                    applied=True,
                    args={key: was},
                    output=f"{key} found {_words(was)} on disk, not as the history last left it ({_words(last_value)})",
                    extra={"was": last_value},
                )
            )
            last = recorded[-1].id
        after = _with_values(before, values, state / SETTINGS_NAME)
        write_atomically(
            state, SETTINGS_NAME, after.encode("utf-8"), mode=0o600, temp_prefix=_TEMP_PREFIX, durable=durable
        )
        told.append(said)
        return [
            *recorded,
            Event(
                new_id("setting", last),
                now(),
                "setting",
                by,
                applied=True,
                args=values,
                output=said,
                extra={"was": was},
            ),
        ]

    try:
        problem = append_event(root, events, durable=durable)
    except _Refused as refused:
        return SettingResult(str(refused), is_error=True)
    if problem is not None and told:  # the file was replaced, its record was not appended
        return SettingResult(
            f"{key} is now {_words(values[key])} in {path}, but its record could not be written "
            f"({problem}); the next change records it as found",
            is_error=True,
        )
    if problem is not None:
        return SettingResult(f"could not change the setting ({problem})", is_error=True)
    return SettingResult(said)


def _with_values(before: str, values: dict[str, bool | str], path: Path) -> str:
    """``before`` with each top-level ``key = value`` line set (or added); _Refused when the result would not say so."""
    after = before
    for key, value in values.items():
        text = ("true" if value else "false") if isinstance(value, bool) else json.dumps(value, ensure_ascii=False)
        line = re.compile(rf"^[ \t]*{re.escape(key)}[ \t]*=.*$", re.MULTILINE)
        if line.search(after):
            after = line.sub(lambda _, new=f"{key} = {text}": new, after, count=1)  # a function: no escapes read
        else:
            after = after + ("" if after.endswith("\n") or not after else "\n") + f"{key} = {text}\n"
    try:
        parsed = tomllib.loads(after)
    except tomllib.TOMLDecodeError:
        parsed = {}
    if any(parsed.get(key) != value or type(parsed.get(key)) is not type(value) for key, value in values.items()):
        raise _Refused(f"{path} would not say {', '.join(values)} as asked after the change; nothing was changed")
    return after


def _last_recorded(root: Path, key: str) -> tuple[bool, bool | str | None]:
    """Whether the log holds a ``setting`` event for ``key``, and the value the newest one left."""
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
            if isinstance(event.args, dict) and key in event.args:
                value = event.args[key]
                return True, value if isinstance(value, bool | str) else None
    return False, None


def _words(value: bool | str | None) -> str:
    if isinstance(value, str):
        return value
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
