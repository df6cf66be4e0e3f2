"""Where a host stands on this machine: its installed release, the release whose rules are shown, and whether
those rules are proven for it (issue 36).

The release shown is the one a person named (``--host claude-code@2.1.337``), else the one installed (read
from its files, :meth:`.Host.find_installed`), else the newest proven. A version no proven range covers is
shown as its nearest proven release loads it (:func:`.versions.resolve_version`), and said: about the
installed one as "your Claude Code 2.1.338 is newer than the newest proven, 2.1.337: shown as 2.1.337 loads
it". The title, ``L``, ``soul`` and ``doctor`` all say it from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from notebook_app.core.hostbase.host import Host
from notebook_app.core.hostbase.installed import Installed
from notebook_app.core.hosts import versions


class Source(Enum):
    """Where the version shown came from."""

    NAMED = "named"
    """``NAME@VERSION`` as given."""
    INSTALLED = "installed"
    """The release found installed."""
    NEWEST = "newest"
    """Neither: the newest proven release."""


@dataclass(frozen=True)
class Standing:
    """A host's installed release (None: not found), the proven release whose rules are used, whether the version
    shown is itself proven, and the sentence saying it is not (None when it is)."""

    host: str
    installed: Installed | None
    rules: str
    """The proven release whose rules are used."""
    version: str
    """The version those rules are shown for (named, installed, or the newest proven itself)."""
    source: Source
    proven: bool
    sentence: str | None = None

    @property
    def load_version(self) -> str | None:
        """The version to load as: the one named; the installed one when proven, else the release standing in for
        it (its sentence is said beside); None for the newest proven."""
        if self.source is Source.NAMED:
            return self.version
        if self.source is Source.INSTALLED:
            return self.version if self.proven else self.rules
        return None

    @property
    def said_here(self) -> str | None:
        """The sentence a caller says itself: the installed release's (a named version's is in the load's own
        notes)."""
        return self.sentence if self.source is Source.INSTALLED else None

    def to_json(self) -> dict[str, object]:
        """``installed`` (version or null), ``rules`` (the release used) and ``proven``: what ``--json`` adds."""
        return {
            "installed": self.installed.version if self.installed is not None else None,
            "rules": self.rules,
            "proven": self.proven,
        }


def standing(host: Host, named: str | None, env: Mapping[str, str]) -> Standing | str | None:
    """Where ``host`` stands with the version ``named`` (None: none named) and detection in ``env``; the words why
    a named version is refused (not a version, older than the oldest proven); None for a host with no proven
    releases (its numbers come from its profile)."""
    known = host.proven_releases()
    if not known:
        return None
    installed = host.find_installed(env)
    if named is not None:
        return _standing(host, known, named, Source.NAMED, installed)
    if installed is not None:
        found = _standing(host, known, installed.version, Source.INSTALLED, installed)
        return found if not isinstance(found, str) else _older(host, known, installed)
    newest = str(known[-1]["version"])
    return Standing(host.id, None, newest, newest, Source.NEWEST, True)


def _standing(
    host: Host, known: tuple[Mapping[str, Any], ...], version: str, source: Source, installed: Installed | None
) -> Standing | str:
    found = versions.resolve_version(host.id, host.title, known, version)
    if isinstance(found, str):
        return found
    release, said = found
    rules = str(release["version"])
    if not versions.stands_in(known, version):
        return Standing(host.id, installed, rules, version, source, True)
    sentence = f"your {said}" if source is Source.INSTALLED else said
    return Standing(host.id, installed, rules, version, source, False, sentence)


def _older(host: Host, known: tuple[Mapping[str, Any], ...], installed: Installed) -> Standing:
    """An installed release older than the oldest proven (or not a version): shown as the oldest proven loads it."""
    oldest = str(known[0]["version"])
    sentence = (
        f"your {host.title} {installed.version} is older than the oldest proven, {oldest}: shown as {oldest} loads it"
    )
    return Standing(host.id, installed, oldest, installed.version, Source.INSTALLED, False, sentence)
