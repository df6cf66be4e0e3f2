"""Host profiles as data: what a host loads from a home, how much, and how it cuts.

A profile is a TOML file (``profiles/*.toml`` in the package). A person's own
in ``<config dir>/persona-notebook/hosts/`` adds a host, marked not proven;
one named like a shipped host never replaces it (the shipped one is what the
goldens and sources back) and is named as a problem. Each number in a shipped profile cites the host's own source or
documentation in its ``[sources]`` table. A file that fails to load is
reported as a :class:`HostProblem`, never raised.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from importlib.resources import files as package_files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from notebook_app.core.fs.data_folders import load_toml_folders
from notebook_app.core.home.soul import BOOTSTRAP_ORDER
from notebook_app.core.hosts.loader import compose_for_host, recompose

if TYPE_CHECKING:
    from notebook_app.core.home.layout import FileMap
    from notebook_app.core.home.soul import Composition

Unit = Literal["bytes", "chars", "utf16"]
CutKind = Literal["contract", "head-tail", "head"]
UNIT_WORDS = {"bytes": "bytes", "chars": "characters", "utf16": "characters"}
"""How a unit is said; OpenClaw's characters are UTF-16 units (JavaScript string length), as its profile says."""

DEFAULT_HOST = "toolnexus"
PROVEN = ("openclaw", "hermes", "claude-code")
"""The loaders proven by a host's own goldens that a profile's ``proven`` may name."""

_TOP_KEYS = {
    "name",
    "title",
    "summary",
    "files",
    "unit",
    "strip",
    "file_cap",
    "total_cap",
    "min_file_budget",
    "max_file_bytes",
    "line_cap",
    "config",
    "read_only",
    "proven",
    "cut",
    "defaults",
    "file",
    "sources",
}
_CUT_KEYS = {"kind", "head_ratio", "tail_ratio", "marker_in_budget", "join", "marker"}
_FILE_KEYS = {"entries", "budget", "file_cap", "line_cap", "marker", "header", "head_ratio", "tail_ratio"}
_DEFAULT_KEYS = {"since", "file_cap", "total_cap", "head_ratio", "tail_ratio", "source"}


@dataclass(frozen=True)
class FileRule:
    """How a host loads one file: its cap, its cut, and (for entry stores) its entry format."""

    name: str
    unit: Unit
    strip: str
    file_cap: int | None
    line_cap: int | None
    cut: CutKind
    head_ratio: float
    tail_ratio: float
    marker: str
    marker_in_budget: bool
    join: str
    entries: str | None = None
    """The entry separator of a host that stores entries (Hermes: a line holding only §)."""
    budget: int | None = None
    """The host's own budget for the file, which it flags but still loads past."""
    header: str | None = None


@dataclass(frozen=True)
class HostProfile:
    name: str
    title: str
    summary: str
    files: tuple[str, ...]
    unit: Unit
    strip: str = "both"
    file_cap: int | None = None
    total_cap: int | None = None
    min_file_budget: int = 0
    max_file_bytes: int | None = None
    line_cap: int | None = None
    config: str | None = None
    read_only: bool = False
    cut: CutKind = "head"
    head_ratio: float = 1.0
    tail_ratio: float = 0.0
    marker_in_budget: bool = False
    join: str = ""
    marker: str = ""
    per_file: dict[str, dict[str, object]] = field(default_factory=dict)
    defaults: tuple[dict[str, object], ...] = ()
    sources: dict[str, str] = field(default_factory=dict)
    version: str | None = None
    """The host version whose defaults are in force (None: the newest the profile knows)."""
    notes: tuple[str, ...] = ()
    """Where the numbers in force came from, in words (the config read, or not, and why)."""
    config_broken: bool = False
    """The host's own config is there but could not be read or parsed: its defaults are in force."""
    source: str = ""
    """The profile file it was read from."""
    shipped: bool = True
    """Shipped with the notebook; False for a person's own profile, which no golden proves."""
    shadowed_by: tuple[str, ...] = ()
    """A person's own profile files that try to replace this shipped one (it stays in force; the doctor says so)."""
    proven: str | None = None
    """The loader proven by the host's own goldens that composes this host's soul (``openclaw``: its releases in
    ``openclaw-releases.toml``; ``hermes``, ``claude-code``: their packages' rules), in place of this profile's
    numbers; None: composed from the numbers."""
    session_kind: str = "main"
    """The kind of session a proven loader loads for (OpenClaw's main, group, channel, subagent, cron)."""
    caps: dict[str, int] = field(default_factory=dict)
    """The user's own config caps a proven loader uses in place of the release's (not proven by a golden)."""

    @property
    def is_contract(self) -> bool:
        return self.cut == "contract"

    @property
    def read_only_files(self) -> tuple[str, ...]:
        """The files of a home opened as this host that the notebook must not write (``read_only = true``: all
        of its files); the write path asks this before it writes, and the doctor says it (``host.read-only``)."""
        return self.files if self.read_only else ()

    def rule_for(self, name: str) -> FileRule:
        over = self.per_file.get(name, {})
        return FileRule(
            name=name,
            unit=self.unit,
            strip=self.strip,
            file_cap=_int_or_none(over.get("file_cap", self.file_cap)),
            line_cap=_int_or_none(over.get("line_cap", self.line_cap)),
            cut=self.cut,
            head_ratio=float(over.get("head_ratio", self.head_ratio)),  # type: ignore[arg-type]  # a TOML number
            tail_ratio=float(over.get("tail_ratio", self.tail_ratio)),  # type: ignore[arg-type]  # a TOML number
            marker=str(over.get("marker", self.marker)),
            marker_in_budget=self.marker_in_budget,
            join=self.join,
            entries=_str_or_none(over.get("entries")),
            budget=_int_or_none(over.get("budget")),
            header=_str_or_none(over.get("header")),
        )

    def at_version(self, version: str | None) -> HostProfile:
        """This profile with the defaults of host ``version`` (None: the newest) in force."""
        if not self.defaults:
            return self if version is None else replace(self, version=version)
        chosen = self.defaults[-1]
        if version is not None:
            older = [d for d in self.defaults if _version_key(str(d["since"])) <= _version_key(version)]
            chosen = older[-1] if older else self.defaults[0]
        numbers = {k: v for k, v in chosen.items() if k in ("file_cap", "total_cap", "head_ratio", "tail_ratio")}
        numbers["version"] = version or str(chosen["since"])
        return replace(self, **numbers)  # type: ignore[arg-type]  # four numeric fields, the TOML's numbers, and a str

    def numbers_in_words(self) -> str:
        unit = UNIT_WORDS[self.unit]
        parts = []
        if self.file_cap is not None:
            parts.append(f"{self.file_cap:,} {unit} per file")
        if self.total_cap is not None:
            parts.append(f"{self.total_cap:,} in total")
        if self.line_cap is not None:
            parts.append(f"{self.line_cap:,} lines")
        budgets = [f"{name} {rule['budget']:,}" for name, rule in self.per_file.items() if "budget" in rule]
        if budgets:
            parts.append("budgets " + ", ".join(budgets))
        return ", ".join(parts) or "no cap"

    # The home asks the profile to load as its host, so that home imports no host at run time
    # (hosts import home, never the reverse): the loader loads with the first host that is not the contract.
    def compose(self, home: str | os.PathLike[str], *, layout: FileMap | None = None) -> Composition:
        """The soul of ``home`` as this host loads it (:func:`.loader.compose_for_host`); ``layout``: as the home
        was opened (Claude Code's CLAUDE.md chain is in it)."""

        return compose_for_host(home, self, layout=layout)

    def recompose(self, composition: Composition, name: str, data: bytes, *, path: str | None = None) -> Composition:
        """``composition`` (this host's) as if file ``name`` (at ``path``) held ``data`` (:func:`.loader.recompose`)."""

        return recompose(composition, name, data, path=path)


@dataclass(frozen=True)
class HostProblem:
    source: str
    message: str

    def __str__(self) -> str:
        return f"{self.source}: {self.message}"


def _int_or_none(value: object) -> int | None:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def _str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


_VERSION = re.compile(r"[0-9]+(?:\.[0-9]+)*")
"""A host version a profile can compare: digits and dots (2026.9.6)."""


def version_problem(version: str) -> str | None:
    """Why ``version`` is not a host version a profile can compare, or None when it is one."""
    if _VERSION.fullmatch(version):
        return None
    return f"not a version: {version!r} (a version is digits and dots, e.g. 2026.9.6)"


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) if part.isdigit() else 0 for part in version.replace("-", ".").split("."))


def parse_profile(text: str, default_name: str, source: str = "") -> HostProfile:  # noqa: C901 (one refusal per key)
    """A validated profile from TOML text; ``ValueError`` says what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"not valid TOML ({error})") from None
    listed = data.get("files")
    if not isinstance(listed, list) or not listed:
        raise ValueError("'files' must list the bootstrap files the host loads, in its order")
    unknown = set(data) - _TOP_KEYS - {"files"}
    if unknown:
        raise ValueError(f"unknown key(s): {', '.join(sorted(unknown))}")
    order = tuple(listed)
    for name in order:
        if name not in BOOTSTRAP_ORDER:
            raise ValueError(f"'files' names {name!r}, which is not a bootstrap file")
    unit = data.get("unit", "bytes")
    if unit not in ("bytes", "chars", "utf16"):
        raise ValueError("'unit' must be bytes, chars or utf16")
    cut = data.get("cut", {})
    if not isinstance(cut, dict) or set(cut) - _CUT_KEYS:
        raise ValueError(f"[cut] takes only {', '.join(sorted(_CUT_KEYS))}")
    kind = cut.get("kind", "head")
    if kind not in ("contract", "head-tail", "head"):
        raise ValueError("[cut] kind must be contract, head-tail or head")
    overrides: dict[str, dict[str, object]] = {}
    tables = data.get("file", {})
    if not isinstance(tables, dict):
        raise ValueError('[file."NAME"] must be tables')
    for name, table in tables.items():
        if name not in order:
            raise ValueError(f"[file.\"{name}\"] is not in 'files'")
        if not isinstance(table, dict) or set(table) - _FILE_KEYS:
            raise ValueError(f'[file."{name}"] takes only {", ".join(sorted(_FILE_KEYS))}')
        overrides[name] = table
    defaults = data.get("defaults", [])
    for entry in defaults:
        if not isinstance(entry, dict) or "since" not in entry or set(entry) - _DEFAULT_KEYS:
            raise ValueError(f"each [[defaults]] needs 'since' and takes only {', '.join(sorted(_DEFAULT_KEYS))}")
    for key in ("file_cap", "total_cap", "min_file_budget", "max_file_bytes", "line_cap"):
        if key in data and (not isinstance(data[key], int) or isinstance(data[key], bool) or data[key] < 1):
            raise ValueError(f"'{key}' must be a whole number from 1")
    profile = HostProfile(
        name=str(data.get("name", default_name)),
        title=str(data.get("title", data.get("name", default_name))),
        summary=str(data.get("summary", "")),
        files=order,
        unit=unit,
        strip=str(data.get("strip", "both")),
        file_cap=data.get("file_cap"),
        total_cap=data.get("total_cap"),
        min_file_budget=int(data.get("min_file_budget", 0)),
        max_file_bytes=data.get("max_file_bytes"),
        line_cap=data.get("line_cap"),
        config=data.get("config"),
        read_only=bool(data.get("read_only", False)),
        proven=_str_or_none(data.get("proven")),
        cut=kind,
        head_ratio=float(cut.get("head_ratio", 1.0)),
        tail_ratio=float(cut.get("tail_ratio", 0.0)),
        marker_in_budget=bool(cut.get("marker_in_budget", False)),
        join=str(cut.get("join", "")),
        marker=str(cut.get("marker", "")),
        per_file=overrides,
        defaults=tuple(defaults),
        sources={str(k): str(v) for k, v in data.get("sources", {}).items()},
        source=source,
    )
    if profile.proven not in (None, *PROVEN):
        raise ValueError(f"'proven' names a proven loader: {', '.join(PROVEN)}")
    if not 0 <= profile.head_ratio + profile.tail_ratio <= 1:
        raise ValueError("head_ratio + tail_ratio must be between 0 and 1")
    return profile.at_version(None)


def shipped_profiles_dir() -> Traversable:
    return package_files("notebook_app.core.hosts") / "profiles"


def user_profiles_dir() -> Path:
    from platformdirs import user_config_dir  # lazy: platformdirs (17 ms)

    return Path(user_config_dir("persona-notebook")) / "hosts"


NOT_PROVEN = "your own profile: no golden proves it"


def load_hosts(
    shipped: Traversable | Path | None = None, user: Traversable | Path | None = None
) -> tuple[dict[str, HostProfile], list[HostProblem]]:
    """The shipped profiles and a person's own (``*.toml`` in each folder; default: the package's and the user's
    config folder's). A person's profile adds a host, marked not proven; one that names a shipped host does not
    replace it: the shipped one is what the goldens and sources back, and the file is named as a problem."""
    ours, problems = load_toml_folders((shipped or shipped_profiles_dir(),), parse_profile)
    theirs, more = load_toml_folders((user or user_profiles_dir(),), parse_profile)
    hosts = {profile.name: profile for profile in ours}
    found = [HostProblem(*problem) for problem in problems + more]
    for profile in theirs:
        kept = hosts.get(profile.name)
        if kept is not None and kept.shipped:
            hosts[profile.name] = replace(kept, shadowed_by=(*kept.shadowed_by, profile.source))
            found.append(HostProblem(profile.source, shadow_words(kept)))
        else:
            hosts[profile.name] = replace(profile, shipped=False)
    return hosts, found


def shadow_words(kept: HostProfile) -> str:
    return (
        f"names the shipped host {kept.name!r}, which it cannot replace: {kept.title}'s shipped profile is "
        "in force (give yours another name to add a host of your own)"
    )
