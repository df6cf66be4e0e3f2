"""The hosts a person can choose in the palette: Current and Next then show the soul as that host loads it.

Each host by name (its newest proven release, for a host proven by release), each proven release by
version (``openclaw@2026.4.27``), and, while OpenClaw is in view, its session kinds with the files
each drops. The choice reaches the panes, ``L`` and the doctor's health line through the main screen.
"""

from __future__ import annotations

from ...core.hosts import load_hosts, proven_releases, session_kind_words, session_kinds

PROVEN_BY_RELEASE = ("openclaw", "hermes", "claude-code")
"""The hosts whose goldens prove each release, in the palette's order."""


def host_choices() -> list[tuple[str, str, str]]:
    """(name, title, one-line summary) of every host profile, shipped and the user's own."""
    profiles, _ = load_hosts()
    return [(name, profile.title, profile.summary) for name, profile in sorted(profiles.items())]


def release_choices() -> list[tuple[str, str, str]]:
    """(spec, title, help) of each proven release, newest first per host: ``("openclaw@2026.9.6",
    "OpenClaw 2026.9.6 (newest)", ...)``."""
    profiles, _ = load_hosts()
    choices = []
    for name in PROVEN_BY_RELEASE:
        profile = profiles.get(name)
        known = proven_releases(name)
        if profile is None or not known:
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
    return [(kind, session_kind_words(version, kind)) for kind in session_kinds()]
