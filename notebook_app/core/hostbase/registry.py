"""The hosts the notebook knows, each one object (:class:`.host.Host`): :func:`host` by id, :func:`hosts` all.

Each host package registers its object when it is imported; :func:`hosts` and
:func:`host` import the packages listed in :data:`PACKAGES` the first time
they are asked (a measured lazy edge: a host's module holds only its facts,
and loads its loader when asked for a load). At the bottom of the core: it
imports no host package by name, so the packages may sit above what they use.
"""

from __future__ import annotations

import importlib
from typing import TypeVar

from notebook_app.core.hostbase.host import Host, PlainHost

PACKAGES = (
    "notebook_app.core.hosts.toolnexus.host",
    "notebook_app.core.hosts.openclaw.host",
    "notebook_app.core.hosts.hermes.host",
    "notebook_app.core.hosts.claude_code.host",
)
"""The modules that register the shipped hosts, in the order they are offered."""

AHost = TypeVar("AHost", bound=Host)

_registered: dict[str, Host] = {}
_loaded = False


def register(one: AHost) -> AHost:
    """Add ``one`` (a host package's object) under its id; returns it: ``HERMES = register(Hermes())``."""
    _registered[one.id] = one
    return one


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for name in PACKAGES:
            importlib.import_module(name)


def hosts() -> tuple[Host, ...]:
    """Every registered host, in :data:`PACKAGES`'s order (then a module's own), whichever was imported first."""
    _load()
    rank = {name: number for number, name in enumerate(PACKAGES)}
    return tuple(sorted(_registered.values(), key=lambda one: rank.get(type(one).__module__, len(rank))))


def host(id: str | None) -> Host:
    """The host named ``id`` (``NAME`` or ``NAME@VERSION``; None: the contract's); a name no package registered is a
    person's own profile: a :class:`.host.PlainHost` of that name."""
    _load()
    if id is None:
        return next(one for one in _registered.values() if one.fallback)
    name = id.partition("@")[0]
    return _registered.get(name) or PlainHost(name)


def known(id: str) -> bool:
    """Whether a host package registered ``id``."""
    _load()
    return id.partition("@")[0] in _registered
