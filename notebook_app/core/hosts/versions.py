"""A host's proven releases, and a version a person names resolved to the one whose rules cover it.

Every proven host lists its releases as data: each the version its goldens ran, and the range of
versions its rules cover (``since``–``until``; the release alone when it names no range). A partial
version (``2026.9``, ``0.19``) means its newest proven release; a version inside a range uses that
range's rules and names the golden that proves them; no version means the newest, named. A version
no range covers stands in for by its nearest proven release (the newest not newer than it), said in
words: a host ships weekly, and a release the goldens have not reached yet mostly loads as the one
before it. Only what is not a version, or is older than the oldest proven, is refused. One rule for
OpenClaw, Hermes and Claude Code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

VERSION = re.compile(r"[0-9]+(?:\.[0-9]+)*")


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def _since(release: Mapping[str, Any]) -> str:
    return str(release.get("since", release["version"]))


def _until(release: Mapping[str, Any]) -> str:
    return str(release.get("until", release["version"]))


def ranges_in_words(known: Sequence[Mapping[str, Any]]) -> str:
    return "; ".join(
        f"{_since(r)}–{_until(r)} (proven at {r['version']})" if _since(r) != _until(r) else str(r["version"])
        for r in known
    )


def resolve_version(
    name: str, title: str, known: Sequence[Mapping[str, Any]], version: str | None
) -> tuple[Mapping[str, Any], str] | str:
    """The release of host ``name`` (``title`` in words) whose rules cover ``version``, and a sentence saying
    which; or, as a string, why none does. ``known`` is oldest first."""
    if version is None:
        newest = known[-1]
        return newest, f"{title} {newest['version']} (the newest proven release)"
    if not VERSION.fullmatch(version):
        return f"{name}@{version}: not a version; proven {title} releases: {ranges_in_words(known)}"
    parts = _key(version)
    width = max(len(_key(str(r["version"]))) for r in known)
    if len(parts) < width:  # a partial version: its newest proven release
        inside = [r for r in known if _key(str(r["version"]))[: len(parts)] == parts]
        if inside:
            chosen = inside[-1]
            return chosen, f"{title} {version}: its newest proven release, {chosen['version']}"
    padded = parts + (0,) * (width - len(parts))
    for r in known:
        if _key(_since(r)) <= padded <= _key(_until(r)):
            if str(r["version"]) == version:
                return r, f"{title} {version}"
            return r, (
                f"{title} {version}: rules of {_since(r)}–{_until(r)}, proven at {r['version']} "
                f"(tests/hosts/goldens/{name}@{r['version']}/)"
            )
    below = [r for r in known if _key(_since(r)) <= padded]
    if not below:
        return f"{name}@{version} is in no proven range; proven {title} releases: {ranges_in_words(known)}"
    return below[-1], stand_in_words(title, version, below[-1], known)


def stand_in_words(title: str, version: str, nearest: Mapping[str, Any], known: Sequence[Mapping[str, Any]]) -> str:
    """Why ``version``'s load is shown as its nearest proven release loads it: newer than the newest, or
    between two proven ranges."""
    newest = known[-1]
    if _key(version) > _key(_until(newest)):
        why = f"is newer than the newest proven, {newest['version']}"
    else:
        why = f"is in no proven range ({ranges_in_words(known)})"
    return f"{title} {version} {why}: shown as {nearest['version']} loads it"


def stands_in(known: Sequence[Mapping[str, Any]], version: str | None) -> bool:
    """``version`` is shown as its nearest proven release loads it: no proven range covers it (:func:`stand_in_words`
    is what :func:`resolve_version` says of it)."""
    if version is None or not VERSION.fullmatch(version):
        return False
    found = resolve_version("", "", known, version)
    return not isinstance(found, str) and found[1] == stand_in_words("", version, found[0], known)


def with_proof(known: Sequence[Mapping[str, Any]], version: str | None, said: str) -> str:
    """``said`` (the sentence :func:`resolve_version` gave ``version``) with the claim that goldens prove it;
    a stand-in's sentence is left as it is: it says itself whose rules it shows."""
    return said if stands_in(known, version) else f"{said}, as its goldens prove it"


def proven_version(
    name: str, title: str, known: Sequence[Mapping[str, Any]], version: str | None
) -> tuple[str | None, str]:
    """(the proven release ``version`` resolves to, the sentence saying which), or (None, why none does)."""
    found = resolve_version(name, title, known, version)
    if isinstance(found, str):
        return None, found
    release, said = found
    return str(release["version"]), said
