"""The hosts a person can choose in the palette: Current and Next then show the soul as that host loads it."""

from __future__ import annotations

from ...core.hosts import load_hosts


def host_choices() -> list[tuple[str, str, str]]:
    """(name, title, one-line summary) of every host profile, shipped and the user's own."""
    profiles, _ = load_hosts()
    return [(name, profile.title, profile.summary) for name, profile in sorted(profiles.items())]
