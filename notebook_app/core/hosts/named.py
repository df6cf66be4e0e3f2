"""What a host injects next session, the host named by a person: one entry point, :func:`load_as`.

The proven hosts (OpenClaw, Hermes, Claude Code) have loaders of their own,
each proven by goldens the host's own code made. The contract (toolnexus) is
its :class:`..home.soul.Composition`, read here as parts of the same shape
(:class:`.injected.InjectedPart`), in bytes; toolnexus (Python) the same, with
:func:`.toolnexus.python.starts_no_session`'s words when it would start none. A
person's own profile composes through :func:`..home.soul.compose`, its notes
saying no golden proves it. Never raises; never writes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from notebook_app.core.home.soul import BOOTSTRAP_ORDER, MAX_FILE_BYTES, TRUNCATION_NOTICE, Composition, compose
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hosts.choice import resolve_host
from notebook_app.core.hosts.injected import HostLoad, InjectedPart, PartStatus, Unit
from notebook_app.core.hosts.openclaw.releases import kind_in_words

if TYPE_CHECKING:
    from notebook_app.core.home.file_load import FileLoad
    from notebook_app.core.hosts.profile import HostProfile

UNITS = {"bytes": Unit.BYTES, "chars": Unit.CODEPOINTS, "utf16": Unit.UTF16}
"""A profile's unit (:data:`.profile.Unit`) as a load's."""


@dataclass(frozen=True)
class ComposedLoad:
    """A load read from a :class:`Composition`: the contract's, toolnexus (Python)'s, or a person's own profile's.

    Each part's ``injected`` is the file's section of the soul (``## NAME``, a blank line, its body), as the
    contract puts it in the soul; the total is the whole soul, the blank lines between sections included."""

    host: str
    version: str
    unit: Unit
    parts: tuple[InjectedPart, ...]
    notes: tuple[str, ...]
    composition: Composition
    file_cap: int | None
    total_cap: int | None = None

    @property
    def injected_total(self) -> int:
        return self.unit.length(self.composition.soul)

    @property
    def caps(self) -> dict[str, int | None]:
        return {"cap": self.total_cap, "file_cap": self.file_cap}


def _cut(load: FileLoad, head_only: bool) -> dict[str, int]:
    """Where a file was cut, in the load's unit; a cut that keeps a tail too (a person's own profile) says only
    how much it dropped, since its FileLoad keeps no tail offset."""
    if not head_only:
        return {"dropped": load.omitted}
    return {"head_end": load.loaded, "tail_start": load.raw, "dropped": load.omitted}


def composed_parts(composition: Composition, unit: Unit = Unit.BYTES) -> tuple[InjectedPart, ...]:
    """Each bootstrap file that is there, in the composition's order: injected, cut (its cut and marker from its
    :class:`FileLoad`), or skipped (why, in words)."""
    order = composition.profile.files if composition.profile is not None else BOOTSTRAP_ORDER
    parts: dict[str, InjectedPart] = {}
    for file in composition.files:
        load = composition.load(file.name)
        truncated = load.truncated if load is not None else file.truncated
        parts[file.name] = InjectedPart(
            file.name,
            file.name,
            PartStatus.CUT if truncated else PartStatus.INJECTED,
            file.section,
            load.raw if load is not None else file.size,
            cut=_cut(load, load.resume_line is None) if load is not None and truncated else None,
            markers=(TRUNCATION_NOTICE,) if truncated and TRUNCATION_NOTICE in file.body else (),
            unit=unit,
        )
    for skipped in composition.skipped:
        parts[skipped.name] = InjectedPart(
            skipped.name, skipped.name, PartStatus.SKIPPED, None, note=skipped.message, unit=unit
        )
    return tuple(parts[name] for name in sorted(parts, key=lambda n: order.index(n) if n in order else len(order)))


def composed_load(
    composition: Composition, *, host: str, version: str = "", notes: tuple[str, ...] = ()
) -> ComposedLoad:
    """``composition`` as a load of ``host`` (its profile's unit and caps; the contract's without one)."""
    profile = composition.profile
    file_cap: int | None
    if profile is None:  # the contract
        unit, file_cap, total_cap = Unit.BYTES, MAX_FILE_BYTES, None
    else:
        unit, file_cap, total_cap = UNITS[profile.unit], profile.file_cap, profile.total_cap
    return ComposedLoad(host, version, unit, composed_parts(composition, unit), notes, composition, file_cap, total_cap)


def load_as(
    home: str | os.PathLike[str],
    spec: str | None = None,
    *,
    cwd: str | os.PathLike[str] | None = None,
    context_length: int | None = None,
    session_kind: str | None = None,
    openclaw_config: str | os.PathLike[str] | None = None,
) -> HostLoad | str:
    """What host ``spec`` (``NAME`` or ``NAME@VERSION``; None: the contract) injects from ``home`` next session,
    or the error words ``soul --host`` prints for it.

    ``home`` is the host's own: the toolnexus home, the OpenClaw workspace, ``$HERMES_HOME``, the Claude Code
    project root. ``cwd`` is Hermes's and Claude Code's, ``context_length`` Hermes's, ``session_kind`` and
    ``openclaw_config`` OpenClaw's (its caps read from it as ``soul`` reads them); a host ignores the others."""
    name, _, version = (spec or registered(None).id).partition("@")
    load = registered(name).load(
        home,
        version or None,
        cwd=cwd,
        context_length=context_length,
        session_kind=session_kind,
        openclaw_config=openclaw_config,
    )
    if load is not None:
        return load
    return _composed(home, spec, openclaw_config)


def _composed(
    home: str | os.PathLike[str], spec: str | None, openclaw_config: str | os.PathLike[str] | None
) -> ComposedLoad | str:

    choice = resolve_host(spec, openclaw_config=openclaw_config)
    if choice.profile is None:
        return choice.error or f"no host named {spec!r}"
    profile: HostProfile = choice.profile
    if profile.is_contract:
        composition = compose(home)
        notes = choice.notes
        one = registered(profile.name)
        if (refusal := one.starts_no_session(composition)) is not None:
            notes += (refusal,)
        version = one.release
        return composed_load(composition, host=profile.name, version=version, notes=notes)
    composition = compose(home, host=profile)
    return composed_load(composition, host=profile.name, version=profile.version or "", notes=choice.notes)


def proven_releases(name: str) -> tuple[Mapping[str, Any], ...]:
    """The releases of host ``name`` its goldens prove, oldest first: each its ``version``, and ``since`` and
    ``until`` when its rules cover a range; none for a host without goldens by release."""
    return registered(name).proven_releases()


def session_kind_words(version: str | None, kind: str) -> str:
    """Which files a ``kind`` session of OpenClaw ``version`` (None: the newest proven) drops, in words."""

    return kind_in_words(version, kind)
