"""The hosts a person can choose in the palette: Current and Next then show the soul as that host loads it.

Each host by name (its newest proven release, for a host proven by release), each proven release by
version (``openclaw@2026.4.27``), and, while OpenClaw is in view, its session kinds with the files
each drops. The choice reaches the panes, ``L`` and the doctor's health line through the main screen.
Only the hosts the home may be previewed as are offered (:func:`...core.hosts.previews_of`): on a
home opened as a host, that host's releases and the hosts whose layout also fits its files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from notebook_app.core.hostbase.registry import host, hosts
from notebook_app.core.hosts.named import session_kind_words
from notebook_app.core.hosts.profile import load_hosts

if TYPE_CHECKING:
    from notebook_app.core.hosts.opening.previews import Previews


def host_choices(previews: Previews | None = None) -> list[tuple[str, str, str]]:
    """(name, title, one-line summary) of every host profile offered (None: all), shipped and the user's own."""
    profiles, _ = load_hosts()
    return [
        (name, profile.title, profile.summary)
        for name, profile in sorted(profiles.items())
        if previews is None or previews.offers(name)
    ]


def release_choices(previews: Previews | None = None) -> list[tuple[str, str, str]]:
    """(spec, title, help) of each proven release of the hosts offered (None: all), newest first per host:
    ``("openclaw@2026.9.6", "OpenClaw 2026.9.6 (newest)", ...)``."""
    profiles, _ = load_hosts()
    choices = []
    for one in hosts():  # the hosts whose goldens prove each release, in the registry's order
        name = one.id
        profile = profiles.get(name)
        known = one.proven_releases()
        if profile is None or not known or (previews is not None and not previews.offers(name)):
            continue
        for release in reversed(known):
            version = str(release["version"])
            since, until = str(release.get("since", version)), str(release.get("until", version))
            newest = " (newest)" if release is known[-1] else ""
            covers = f"; its rules cover {since}–{until}" if since != until else ""
            choices.append(
                (
                    f"{name}@{version}",
                    f"{profile.title} {version}{newest}",
                    f"Current, Next, L and the doctor as {profile.title} {version} loads the home{covers}",
                )
            )
    return choices


def kind_choices(spec: str) -> list[tuple[str, str]]:
    """(kind, help) of each OpenClaw session kind, for host ``spec`` (``openclaw[@VERSION]``) in view: the help
    says which files the kind drops in that release."""
    version = spec.partition("@")[2] or None
    return [(kind, session_kind_words(version, kind)) for kind in host(spec).session_kinds]


def left_out_words(previews: Previews) -> tuple[str, str] | None:
    """(help, notice) saying which hosts the home is not previewed as and why; None when every host is offered."""
    if not previews.left_out:
        return None
    profiles, _ = load_hosts()
    names = [profiles[left.name].title if left.name in profiles else left.name for left in previews.left_out]
    notice = "\n".join(f"{name}: {left.reason}" for name, left in zip(names, previews.left_out, strict=True))
    return f"{', '.join(names)}: why the palette does not offer them here", notice
