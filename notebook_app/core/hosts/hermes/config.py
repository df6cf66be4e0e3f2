"""The settings of Hermes's ``config.yaml`` that decide what it injects, read as Hermes 0.19.0 uses them.

AIAgent's init takes the ``memory`` section of its merged config: ``memory_enabled`` and
``user_profile_enabled`` switch the two blocks (both on in its defaults), ``memory_char_limit`` and
``user_char_limit`` set the limits its headers show (2,200 and 1,375); ``context_file_max_chars``,
when a positive number, is the cap of SOUL.md and the context file, over the one the context length
gives. A config that is not YAML is moved aside by Hermes (``config.yaml.corrupt.<time>.bak``) and its
defaults are used. Each fact is proven by a golden (``hermes-config-*``). PyYAML reads it (Hermes's own
parser; it is here already, for detect-secrets) and loads only when a config.yaml is there. Never raises,
never writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from notebook_app.core.home.files import FileRead, FileStatus, read_file

CONFIG_LIMIT = 4 * 1024 * 1024
NOT_READ = "Hermes's managed config (/etc/hermes/config.yaml) and ${VAR} expansion in config.yaml are not read here"


@dataclass(frozen=True, kw_only=True)
class HermesConfig:
    memory_enabled: bool = True
    user_profile_enabled: bool = True
    memory_char_limit: int
    """MEMORY.md's limit; where config.yaml sets none, Hermes's own (its host object's, from hermes-0.19.0.toml)."""
    user_char_limit: int
    context_file_max_chars: int | None = None
    said: str = "no config.yaml: Hermes's defaults are in force"


def _number(value: object, default: int) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else default


def read_config(home: Path, memory_limit: int, user_limit: int) -> HermesConfig:
    """``home/config.yaml`` as Hermes would use it; its defaults (the limits given) where it says nothing."""
    return config_of(read_file(home / "config.yaml", limit=CONFIG_LIMIT), memory_limit, user_limit)


def config_of(read: FileRead, memory_limit: int, user_limit: int) -> HermesConfig:
    """A config.yaml read as ``read`` (absent: Hermes's defaults) as Hermes would use it."""
    defaults = HermesConfig(memory_char_limit=memory_limit, user_char_limit=user_limit)
    if read.status in (FileStatus.ABSENT, FileStatus.DANGLING_LINK):
        return defaults
    if not read.status.loads:
        return HermesConfig(
            memory_char_limit=memory_limit,
            user_char_limit=user_limit,
            said=f"config.yaml is a {read.status.value}: not read here, Hermes's defaults assumed",
        )
    import yaml  # lazy: a host's loader (yaml)

    try:
        data = yaml.safe_load(read.data.decode("utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError):
        return HermesConfig(
            memory_char_limit=memory_limit,
            user_char_limit=user_limit,
            said=(
                "config.yaml is not YAML: Hermes moves it aside (config.yaml.corrupt.<time>.bak) "
                "at its next start and uses its defaults"
            ),
        )
    config = data if isinstance(data, dict) else {}
    memory = config["memory"] if isinstance(config.get("memory"), dict) else {}
    cap = config.get("context_file_max_chars")
    return HermesConfig(
        memory_enabled=bool(memory.get("memory_enabled", True)),
        user_profile_enabled=bool(memory.get("user_profile_enabled", True)),
        memory_char_limit=_number(memory.get("memory_char_limit"), memory_limit),
        user_char_limit=_number(memory.get("user_char_limit"), user_limit),
        context_file_max_chars=int(cap)
        if isinstance(cap, int | float) and not isinstance(cap, bool) and cap > 0
        else None,
        said="config.yaml read",
    )
