"""The user's own OpenClaw numbers: ``bootstrapMaxChars`` and ``bootstrapTotalMaxChars``.

OpenClaw reads ``~/.openclaw/openclaw.json``, which is JSON5 (comments,
trailing commas, unquoted keys), so it is parsed with the json5 library
rather than ``json``. Only ``agents.defaults.*`` is read: per-agent
overrides (``agents.list[]``) depend on which agent runs, which a home does
not say. Whatever happens, the result says in words what was read and which
numbers are in force; nothing here raises.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from notebook_app.core.home.names import BOOTSTRAP_ORDER
from notebook_app.core.hosts.openclaw.releases import KINDS, caps_note, resolve_release

if TYPE_CHECKING:  # a profile is read and replaced here, never built: the profile's loader reaches OpenClaw
    from notebook_app.core.hosts.profile import HostProfile

MAX_CONFIG_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class ConfigReading:
    profile: HostProfile
    """The profile with the numbers in force."""
    notes: tuple[str, ...]
    """What was read, in words, ending with the numbers in force."""
    broken: bool = False
    """The config is there but could not be parsed (a warning, not only a note)."""


def default_config_path() -> Path:
    """``$OPENCLAW_CONFIG_PATH`` if set, else ``~/.openclaw/openclaw.json``."""
    given = os.environ.get("OPENCLAW_CONFIG_PATH")
    return Path(given).expanduser() if given else Path("~/.openclaw/openclaw.json").expanduser()


@dataclass(frozen=True)
class ConfigNumbers:
    """The caps a user's OpenClaw config sets (``file_cap``, ``total_cap``), and what was read, in words."""

    numbers: dict[str, int]
    notes: tuple[str, ...]
    broken: bool = False


@dataclass(frozen=True)
class ConfigFile:
    """An OpenClaw config as read: its data (``{}`` when absent or unusable), or what went wrong, in words."""

    where: Path
    data: dict[str, object]
    problem: str | None = None
    """Why it could not be used: ``cannot be read (Permission denied)``, ``could not be parsed as JSON5 (...)``."""
    found: bool = True
    """False when there is no file at ``where`` (not a problem: OpenClaw's defaults hold)."""


def read_config_file(where: Path) -> ConfigFile:
    """The JSON5 config at ``where``, read once and bounded (:data:`MAX_CONFIG_BYTES`); never raises."""
    try:
        with open(where, "rb") as handle:
            raw = handle.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return ConfigFile(where, {}, found=False)
    except OSError as error:
        return ConfigFile(where, {}, f"cannot be read ({error.strerror})")
    if len(raw) > MAX_CONFIG_BYTES:
        return ConfigFile(where, {}, f"is over {MAX_CONFIG_BYTES:,} bytes")
    import json5  # lazy: a host's loader (json5); only when a config is there to read

    try:
        data = json5.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        return ConfigFile(where, {}, f"could not be parsed as JSON5 ({error})")
    return ConfigFile(where, data if isinstance(data, dict) else {})


def read_openclaw_numbers(
    path: str | os.PathLike[str] | None = None, defaults: str = "OpenClaw's defaults"
) -> ConfigNumbers:
    """``agents.defaults.bootstrapMaxChars`` / ``bootstrapTotalMaxChars`` of the config at ``path``
    (None: :func:`default_config_path`), each note saying what was read and that ``defaults`` hold otherwise."""
    where = Path(path).expanduser() if path is not None else default_config_path()
    config = read_config_file(where)
    if not config.found:
        return ConfigNumbers({}, (f"OpenClaw config {where} not found; {defaults} are in force",))
    if config.problem is not None:
        return ConfigNumbers({}, (f"OpenClaw config {where} {config.problem}; {defaults} are in force",), True)
    data = config.data
    agents = data.get("agents") if isinstance(data, dict) else None
    settings = agents.get("defaults") if isinstance(agents, dict) else None
    settings = settings if isinstance(settings, dict) else {}
    numbers: dict[str, int] = {}
    notes = []
    for key, field in (("bootstrapMaxChars", "file_cap"), ("bootstrapTotalMaxChars", "total_cap")):
        value = settings.get(key)
        if value is None:
            continue
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            numbers[field] = int(value)  # OpenClaw floors a positive number and ignores anything else
        else:
            notes.append(f"agents.defaults.{key} is {value!r}, which OpenClaw ignores")
    if numbers:
        read = ", ".join(
            f"{key} {value:,}"
            for key, value in zip(
                ("bootstrapMaxChars", "bootstrapTotalMaxChars"),
                (numbers.get("file_cap"), numbers.get("total_cap")),
                strict=True,
            )
            if value is not None
        )
        notes.insert(0, f"read {where}: agents.defaults {read}")
    else:
        notes.insert(
            0,
            f"read {where}: it sets neither agents.defaults.bootstrapMaxChars nor bootstrapTotalMaxChars, "
            f"so {defaults} are in force",
        )
    return ConfigNumbers(numbers, tuple(notes))


def apply_openclaw_config(profile: HostProfile, path: str | os.PathLike[str] | None = None) -> ConfigReading:
    """``profile`` with the numbers from the user's OpenClaw config, and what was read, in words."""
    defaults = f"OpenClaw {profile.version} defaults" if profile.version else "OpenClaw's defaults"
    read = read_openclaw_numbers(path, defaults)
    caps = read.numbers
    in_force = replace(
        profile, file_cap=caps.get("file_cap", profile.file_cap), total_cap=caps.get("total_cap", profile.total_cap)
    )
    return _reading(in_force, *read.notes, broken=read.broken)


def apply_openclaw_release(
    profile: HostProfile, version: str | None, path: str | os.PathLike[str] | None = None, kind: str = "main"
) -> ConfigReading | str:
    """``profile`` (proven by OpenClaw's releases) with the numbers of the release that covers ``version`` (None:
    the newest proven), the user's config caps over them; or why no proven release covers ``version``.

    The soul itself comes from the release's rules (:mod:`.soul`); the numbers here are what the
    doctor's budget and the notes say of them."""

    if kind not in KINDS:
        return f"no OpenClaw session kind {kind!r}; kinds: {', '.join(KINDS)}"
    found = resolve_release(version)
    if isinstance(found, str):
        return found
    rel, said = found
    read = read_openclaw_numbers(path, f"OpenClaw {rel['version']} defaults")
    file_cap = read.numbers.get("file_cap", int(rel["file_cap"]))
    user: dict[str, dict[str, object]] = (
        {"USER.md": {"file_cap": min(file_cap, int(rel["user_cap"]))}} if "user_cap" in rel else {}
    )
    in_force = replace(
        profile,
        files=tuple(name for name in rel["files"] if name in BOOTSTRAP_ORDER),
        file_cap=file_cap,
        total_cap=read.numbers.get("total_cap", rel.get("total_cap")),
        min_file_budget=int(rel.get("min_file_budget", 0)),
        max_file_bytes=rel.get("max_bytes"),
        per_file=user,
        defaults=(),
        version=version,
        session_kind=kind,
        caps=dict(read.numbers),
    )
    notes = (*read.notes, said, f"session kind: {kind}", *((caps_note(read.numbers),) if read.numbers else ()))
    return _reading(in_force, *notes, broken=read.broken)


def _reading(profile: HostProfile, *notes: str, broken: bool = False) -> ConfigReading:
    in_force = f"in force: {profile.numbers_in_words()}"
    notes = (*notes, in_force)
    return ConfigReading(replace(profile, notes=notes, config_broken=broken), notes, broken)
