"""How a time is said to a person: one rule for every verb, view and message (issue 34).

The log keeps UTC (ISO 8601, what ``--json`` prints as it is). Words for a
person say the local time with its offset, so a reader in any zone can tell
which moment it was: ``2026-11-30 21:53:23 +01:00``. The app's lists say only
the clock for today (``21:53:23 +01:00``); the date joins it on other days.
"""

from __future__ import annotations

from datetime import UTC, datetime


def offset(moment: datetime) -> str:
    """``+01:00``, ``-05:30``, ``+00:00``: the UTC offset of an aware ``moment`` (ISO 8601's form)."""
    delta = moment.utcoffset()
    minutes = round(delta.total_seconds() / 60) if delta is not None else 0
    sign = "-" if minutes < 0 else "+"
    hours, minutes = divmod(abs(minutes), 60)
    return f"{sign}{hours:02d}:{minutes:02d}"


def _local(moment: datetime) -> datetime:
    """``moment`` in the local zone; a naive one is taken as UTC (the log's times never are naive)."""
    return (moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)).astimezone()


def local_time(moment: datetime) -> str:
    """``2026-11-30 21:53:23 +01:00``: the time of ``moment`` here, with its offset."""
    local = _local(moment)
    return f"{local:%Y-%m-%d %H:%M:%S} {offset(local)}"


def local_date(moment: datetime) -> str:
    """``2026-11-30``: the day ``moment`` fell on here."""
    return f"{_local(moment):%Y-%m-%d}"


def clock_time(moment: datetime, now: datetime | None = None) -> str:
    """``21:53:23 +01:00`` today; with the date when it is not today (an agent session from last week)."""
    local = _local(moment)
    today = _local(now or datetime.now(UTC)).date()
    shown = f"{local:%H:%M:%S}" if local.date() == today else f"{local:%Y-%m-%d %H:%M}"
    return f"{shown} {offset(local)}"
