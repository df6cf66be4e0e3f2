"""Times on the command line, in a zone that is not UTC: words say the local time with its offset, and
``--json`` keeps the log's UTC (issue 34: ``blame`` and ``pending`` printed UTC with no zone at all)."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from cli_process import run

from notebook_app.core.record.log.actor import Actor
from notebook_app.core.memory.review.decisions import propose

ZONE = {"TZ": "Asia/Kolkata"}
"""+05:30 all year round (no daylight saving): an offset that cannot pass for UTC, nor for a whole hour."""


@pytest.fixture
def in_kolkata() -> Iterator[None]:
    """This process in the same zone as the CLI it runs, so the expected words are computed as the CLI's are."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = ZONE["TZ"]
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


def said(moment: str) -> str:
    """The log's UTC ISO time as the words must say it here: ``2026-12-07 21:26:47 +05:30``."""
    return f"{datetime.fromisoformat(moment).astimezone():%Y-%m-%d %H:%M:%S} +05:30"


def test_history_blame_and_pending_say_local_time_with_its_offset_and_json_keeps_utc(
    tmp_path: Path, in_kolkata: None
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    assert run("memory", "add", "tide tables at dawn", "--home", str(home), tmp=tmp_path, env=ZONE).returncode == 0
    propose(home, {"action": "add", "text": "kelp survey on Fridays"}, by=Actor.mcp("s-1", "kip-host", "1.0"))

    records = json.loads(run("history", "--home", str(home), "--json", tmp=tmp_path, env=ZONE).stdout)
    written = next(r for r in records if r["action"] == "add")
    assert written["time"].endswith("+00:00")  # --json: the log's UTC, as it is
    history = run("history", "--home", str(home), tmp=tmp_path, env=ZONE).stdout
    line = next(line for line in history.splitlines() if line.startswith(written["id"]))
    assert f"{written['id']}  {said(written['time'])}  MEMORY.md" in line

    blame_json = json.loads(run("blame", "MEMORY.md", "--home", str(home), "--json", tmp=tmp_path, env=ZONE).stdout)
    assert blame_json["lines"][0]["time"] == written["time"]
    blame = run("blame", "MEMORY.md", "--home", str(home), tmp=tmp_path, env=ZONE).stdout
    assert blame.startswith(f"{written['id']}  {said(written['time'])}  cli")

    [queued] = json.loads(run("pending", "--home", str(home), "--json", tmp=tmp_path, env=ZONE).stdout)
    assert queued["time"].endswith("+00:00")
    pending = run("pending", "--home", str(home), tmp=tmp_path, env=ZONE).stdout
    assert f"{queued['id']}  pending   {said(queued['time'])}  mcp:kip-host 1.0" in pending

    every = re.findall(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:Z| [+-]\d\d:\d\d)?", history + blame + pending)
    assert every and all(moment.endswith(" +05:30") for moment in every)  # no time without its zone


def test_an_undo_refusal_names_its_record_at_local_time(tmp_path: Path, in_kolkata: None) -> None:
    home = tmp_path / "home"
    home.mkdir()
    assert run("memory", "add", "alpha", "--home", str(home), tmp=tmp_path).returncode == 0
    assert run("memory", "replace", "alpha", "--with", "beta", "--home", str(home), tmp=tmp_path).returncode == 0
    records = json.loads(run("history", "--home", str(home), "--json", tmp=tmp_path).stdout)
    added = next(r for r in records if r["action"] == "add")
    refused = run("undo", added["id"], "--home", str(home), tmp=tmp_path, env=ZONE)
    assert refused.returncode == 1
    assert f"(replace by cli, {said(records[0]['time'])})" in refused.stderr


def test_the_rule_says_the_offset_in_iso_form_and_the_date_only_on_other_days(in_kolkata: None) -> None:
    from datetime import UTC, timedelta

    from notebook_app.core.text.times import clock_time, local_time

    moment = datetime(2026, 11, 30, 20, 53, 23, tzinfo=UTC)
    assert local_time(moment) == "2026-12-01 02:23:23 +05:30"
    assert clock_time(moment, moment + timedelta(minutes=5)) == "02:23:23 +05:30"
    assert clock_time(moment, moment + timedelta(days=7)) == "2026-12-01 02:23 +05:30"
