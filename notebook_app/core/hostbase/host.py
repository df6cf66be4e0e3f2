"""One host, everything the notebook knows about it: the base every host package's one object extends.

A host (toolnexus, OpenClaw, Hermes, Claude Code) is one object, registered by
its package (:mod:`.registry`); the rest of the notebook asks it, never compares
its name. The base says what a host is when it says nothing more: a flat home of
``- `` lines composed by its profile's numbers, no home of its own, no releases
proven by goldens. That is also what a person's own profile is (:func:`.registry.host`
of a name no package registered). Harlequin's adapter base class is the model.

This module sits at the bottom of the core: at run time it imports nothing of
the notebook (the types it names are for the checker only); each host's package
imports what it uses and does its work there, loading its loader when asked.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from notebook_app.core.hostbase.export import SEVEN, ExportLayout, Place, flat_layout

if TYPE_CHECKING:
    from notebook_app.core.home.layout import FileMap
    from notebook_app.core.home.soul import Composition
    from notebook_app.core.hostbase.installed import Installed
    from notebook_app.core.hosts.injected import HostLoad
    from notebook_app.core.hosts.openclaw.pane import OpenClawPane
    from notebook_app.core.hosts.profile import HostProfile

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class SoulView:
    """What ``soul --host NAME`` prints of a proven loader's load: the notes (each a ``persona-notebook:`` line on
    stderr, first), the text (stdout), its ``--json`` and the words said on stderr when the text is empty."""

    text: str
    notes: tuple[str, ...]
    json: dict[str, object]
    empty: str


@dataclass(frozen=True)
class Fit:
    """The folder a host opens (its layout fitting, its own home found, or a folder given), why, in words, the
    agent whose workspace it is (OpenClaw) and notes said beside it."""

    host: str
    root: Path
    reason: str
    agent: str | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class HomeFiles:
    """An opened home's file map, the notes said about it, and the memory folder its entries are written to."""

    files: FileMap
    notes: tuple[str, ...] = ()
    memory: Path | None = None


Options = Mapping[str, str]
"""The launch options given that a host may take, by name (``profile``, ``agent``, ``openclaw_config``)."""


class Host:
    """A host: its id and title, its home, files and dialect, its limits and releases, how it loads a soul."""

    id: str = ""
    """The name ``--host`` takes (``hermes``), and a home's :attr:`FileMap.host`."""
    title: str = ""
    """The host in the words a person reads (``Hermes``)."""
    home_words: str = "the home"
    """What its home is called in a sentence (``$HERMES_HOME``, ``the OpenClaw workspace``)."""
    home_is: str = ""
    """What a home opened as it is, in a sentence (``a Hermes home``; "": ``a home opened as TITLE``)."""
    keeps: str = "its files are at its top"
    """Where it keeps its files, in a sentence (``its stores are in memories/``)."""
    elsewhere: str = ""
    """The word for its files when the other hosts look elsewhere for them (``them``); "": they look at the top."""
    reads: str = ""
    """Where it looks for a home's files, said when a flat home is not previewed as it ("": it does not fit)."""
    flat: bool = True
    """Its files are at the top of its home in ``- `` lines: the contract's layout too."""
    archive: str = "memory/ARCHIVE.md"
    """Where tidy moves entries of this host's home to (spec §9), from the home's top."""
    fallback: bool = False
    """Its soul is the toolnexus contract's: the home a notebook opens when no host says otherwise."""
    detected: bool = False
    """A folder can open as this host by its layout alone (the others open only when named)."""
    own_home: bool = False
    """It keeps its home in a place of its own, opened when no folder is given (``$HERMES_HOME``, a workspace)."""
    own_caps: bool = False
    """Its loader cuts (or limits) a file by rules of its own, not the contract's 2 MiB."""
    offers_git: bool = False
    """The notebook offers to add its state to the home's ``.gitignore`` (a workspace kept in git)."""
    session_kinds: tuple[str, ...] = ()
    """The kinds of session it loads differently (OpenClaw's main, group, …); () when it has one kind."""
    edits_topics: bool = False
    """A hand edit may write a topic file of its memory folder whole (Claude Code's ``*.md`` read on demand)."""
    has_user_file: bool = True
    """It keeps a USER.md of the person (Claude Code keeps only MEMORY.md in its memory folder)."""
    own_memory_tool: bool = False
    """Its own memory tool writes its files; the notebook's MCP server must not serve them."""
    serves_with_profile: bool = False
    """The MCP server serves its home with its file map and profile (Hermes's ``§`` stores)."""
    meters_budget: bool = False
    """It shows a file's budget as a meter in its soul (Hermes's ``[12% — 264/2,200 chars]``)."""
    export: ExportLayout = flat_layout()
    moves: bool = True
    """A persona moves to and from its home (``export --to``, ``import --from``) by :attr:`export`."""
    """Where a persona's files go in its home when one moves here, and are read from when one moves away."""
    soul_options: frozenset[str] = frozenset()
    """The options of ``soul`` its load takes beyond ``--home`` (``cwd``, ``context_length``); its proven load
    refuses the others by name."""
    release: str = ""
    """The one release its goldens ran, for a host without proven releases by range ("": none named)."""
    locked_stores: frozenset[str] = frozenset()
    """Files its own tool writes under a lock of its own that a write here must take too (Hermes's stores)."""
    reads_config_limits: bool = False
    """Its entry stores' limits are read from its config in the home (Hermes's ``config.yaml``)."""
    home_options: Mapping[str, str] = MappingProxyType({})
    """The launch options that name a home of its own, each with what it names (``profile``: ``a Hermes
    profile``): given with a folder, or with another host, they are a usage error."""
    implied_by: tuple[str, ...] = ()
    """The launch options that, given without ``--host``, open this host (its home options first)."""
    layout_rank: int = 0
    """Where its layout comes among those a folder fits: checked, and named, in this order (lower first)."""

    @property
    def proven(self) -> bool:
        """Its loads are proven release by release by goldens its own code made."""
        return bool(self.proven_releases())

    @property
    def a_home(self) -> str:
        """``an OpenClaw home``, ``a Hermes home``: the words a sentence names one of its homes with."""
        return f"{'an' if self.title[:1] in tuple('AEIOU') else 'a'} {self.title} home"

    def proven_releases(self) -> tuple[Mapping[str, Any], ...]:
        """Its releases its goldens prove, oldest first (each ``version``, and ``since``/``until`` of a range)."""
        return ()

    def version_problem(self, version: str) -> str | None:
        """Why ``version`` names none of its proven releases, in the words ``soul`` and ``doctor`` print; None
        when it names one, or when the host has none (its profile's form check is the caller's)."""
        found = self.proven_version(version)
        return None if found is None or found[0] is not None else found[1]

    def proven_version(self, version: str | None) -> tuple[str | None, str] | None:
        """(its proven release ``version`` names, the sentence saying which) or (None, why none does); None for a
        host whose numbers come from its profile, not from releases."""
        return None

    def find_installed(self, env: Mapping[str, str]) -> Installed | None:
        """The release of it installed on this machine, read from its files alone (never run), or None: not
        found, detection off (``--no-detect``), or a host whose installs are not known
        (:mod:`.installed`)."""
        return None

    def starts_no_session(self, composition: Composition) -> str | None:
        """Why it would start no session on the home ``composition`` was read from, or None when it would."""
        return None

    def limits(self) -> Mapping[str, int]:
        """Its entry stores' own limits, from its data (Hermes's MEMORY.md 2,200 and USER.md 1,375); {} for none."""
        return {}

    def export_places(self, root: Path, env: Mapping[str, str]) -> dict[Place, Path]:
        """The folders a persona moved to or from its home at ``root`` spans (:attr:`.ExportLayout.places`)."""
        return {Place.HOME: root}

    def export_problem(self, root: Path, env: Mapping[str, str]) -> str | None:
        """Why ``root`` holds no persona as it keeps one, in words; None when it does (a flat home: one of the
        seven at its top, or its ``memory/`` folder)."""
        if any((root / name).exists() for name in SEVEN) or (root / "memory").is_dir():
            return None
        return f"{root} is not {self.a_home}: none of the seven bootstrap files is at its top"

    def export_load(self, name: str, text: str) -> tuple[bool, str | None]:
        """Whether it loads the file of the seven named ``name`` holding ``text``, and where it cuts it in words
        (None: whole); asked only where :attr:`.ExportLayout.scratch` is False."""
        return False, None

    def entry_home(self, root: Path, memory_dir: Path | None) -> Path:
        """The folder a write to its MEMORY.md goes to (with ``.notebook/``): the home, or its memory folder."""
        return root

    def load(
        self,
        home: PathLike,
        version: str | None,
        *,
        cwd: PathLike | None = None,
        context_length: int | None = None,
        session_kind: str | None = None,
        openclaw_config: PathLike | None = None,
    ) -> HostLoad | str | None:
        """What its proven loader injects from ``home`` next session, or the words why not; None: it has no
        loader of its own (its profile's composition is its load)."""
        return None

    def soul(
        self,
        home: Path,
        version: str | None,
        *,
        given: str | None,
        cwd: str | None = None,
        context_length: int | None = None,
        session_kind: str | None = None,
        openclaw_config: str | None = None,
    ) -> SoulView | str | None:
        """What ``soul`` prints of its proven loader's load from ``home`` (``given``: ``--home`` as typed), or the
        words of a usage error; None: the soul is its profile's composition."""
        return None

    def compose(self, home: PathLike, profile: HostProfile, layout: FileMap | None) -> Composition | None:
        """The soul of ``home`` as its proven loader composes it; None: composed from the profile's numbers."""
        return None

    def as_host(self, composition: Composition, profile: HostProfile, home: PathLike) -> Composition | None:
        """A contract composition as its proven loader would have loaded the same files; None: by the numbers."""
        return None

    def recompose(self, composition: Composition, name: str, data: bytes, *, path: str | None) -> Composition | None:
        """``composition`` as if ``name`` held ``data``, by its proven loader; None: by the profile's numbers."""
        return None

    def pane(self, name: str, composition: Composition) -> OpenClawPane | None:
        """Its words and cap for ``name``'s pane when ``composition`` (its load) is next session's; None: none."""
        return None

    def file_map(self, version: str | None = None) -> FileMap | None:
        """Where it keeps each file of a home (release ``version``'s order); None: a flat home of ``- `` lines."""
        return None

    def find_home(self, said: str, env: Mapping[str, str], options: Options) -> Fit | str:
        """Where it keeps its home when no folder is given (``said``: the words that named it), or why none is;
        only asked of a host with :attr:`own_home`."""
        return f"{self.title} keeps no home of its own: give --home"

    def fits(self, folder: Path, env: Mapping[str, str], options: Options) -> Fit | None:
        """The folder ``folder`` opens as this host by its layout alone, and why, in words; None: it fits none."""
        return None

    def given_home(self, root: Path, said: str, env: Mapping[str, str], options: Options) -> Fit:
        """The folder ``root``, given with this host named, as it opens (Hermes opens the parent of ``memories/``)."""
        return Fit(self.id, root, said)

    def home_files(self, root: Path, version: str | None, reason: str, env: Mapping[str, str]) -> HomeFiles | None:
        """The file map of its home at ``root`` as opened, with notes and its memory folder; None: its
        :meth:`file_map` of ``version`` (or a flat home's)."""
        return None


class PlainHost(Host):
    """A host no package registered: a person's own profile, named by ``--host``; the base's answers, titled by
    its name."""

    def __init__(self, id: str) -> None:
        self.id = id
        self.title = id
