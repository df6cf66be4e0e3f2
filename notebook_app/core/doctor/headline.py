"""The doctor's problems in a few words, for a health line on the first screen.

A rule that names one place says it in its own words, up to the first colon
("USER.md is not UTF-8 at byte 5 (0xff)"); a rule that can fire hundreds of
times is counted instead ("2 duplicate entries").
"""

from __future__ import annotations

from collections.abc import Sequence

from notebook_app.core.doctor.model import Finding

_COUNTED = {
    "hygiene.duplicate": ("duplicate entry", "duplicate entries"),
    "hygiene.near-duplicate": ("near-duplicate entry", "near-duplicate entries"),
    "hygiene.conflict": ("conflicting entry", "conflicting entries"),
    "hygiene.empty-entry": ("empty bullet", "empty bullets"),
    "hygiene.mixed-dialect": ("place mixing entry dialects", "places mixing entry dialects"),
    "security.secret": ("secret", "secrets"),
    "security.secret-history": ("secret in the history", "secrets in the history"),
    "security.secret-git": ("secret in git history", "secrets in git history"),
    "security.injection": ("line of prompt-injection phrasing", "lines of prompt-injection phrasing"),
    "security.hidden-markup": ("hidden HTML comment or element", "hidden HTML comments or elements"),
    "security.bidi": ("line with bidirectional controls", "lines with bidirectional controls"),
    "security.tag-chars": ("line with tag characters", "lines with tag characters"),
    "security.invisible": ("line with invisible characters", "lines with invisible characters"),
    "security.mixed-script": ("word mixing scripts", "words mixing scripts"),
    "load.temp-file": ("leftover temp file", "leftover temp files"),
}


def headline(problems: Sequence[Finding], limit: int = 3) -> str:
    """Up to ``limit`` phrases, worst first, joined by `` · ``; empty when there is nothing wrong."""
    ordered = sorted(problems, key=lambda f: -f.severity.rank)
    phrases: list[str] = []
    counted: dict[str, int] = {}
    places: set[tuple[str, str | None, int | None, str | None]] = set()
    for item in ordered:
        if item.rule in _COUNTED:
            place = (item.rule, item.file, item.line, item.record)
            if place in places:
                continue  # two findings of one rule on one line count once
            places.add(place)
            counted[item.rule] = counted.get(item.rule, 0) + 1
            if counted[item.rule] == 1:
                phrases.append(item.rule)
        else:
            phrases.append(item.message.split(": ", 1)[0])
    words = []
    for phrase in phrases:
        if phrase in _COUNTED:
            count = counted[phrase]
            one, many = _COUNTED[phrase]
            article = "an" if one[0] in "aeiou" else "a"
            words.append(f"{article} {one}" if count == 1 else f"{count:,} {many}")
        else:
            words.append(phrase)
    shown = words[:limit]
    if len(words) > limit:
        shown.append(f"{len(words) - limit} more")
    return " · ".join(dict.fromkeys(shown))
