"""Turning a home's review setting on or off is a recorded write: atomic, in the one log, other settings kept."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

from notebook_app.core.history.query import history
from notebook_app.core.record.log.actor import CLI, NOTEBOOK
from notebook_app.core.record.settings import load_settings, set_review


def settings_file(home: Path) -> Path:
    return home / ".notebook" / "settings.toml"


def test_review_on_then_off_is_read_back_and_each_change_is_an_event(tmp_path: Path) -> None:
    result = set_review(tmp_path, True, by=NOTEBOOK)
    assert not result.is_error and result.output.startswith("review is on")
    assert load_settings(tmp_path).review is True
    assert set_review(tmp_path, False, by=CLI).output.startswith("review is off")
    assert load_settings(tmp_path).review is False
    assert settings_file(tmp_path).read_text() == "review = false\n"
    changes = [e for e in history(tmp_path) if e.action == "setting"]
    assert [(e.args, e.by.kind.value, e.extra.get("was")) for e in changes] == [
        ({"review": False}, "cli", True),
        ({"review": True}, "notebook", None),
    ]
    assert oct(settings_file(tmp_path).stat().st_mode & 0o777) == "0o600"


def test_a_change_whose_record_was_lost_is_recorded_as_found_before_the_next_change(tmp_path: Path) -> None:
    """The torn state "file replaced, record never appended" (a writer killed between the two), built by hand."""
    set_review(tmp_path, True, by=NOTEBOOK)
    settings_file(tmp_path).write_text(
        "review = false\n"
    )  # what the killed writer's rename left, with no event after it
    assert not set_review(tmp_path, True, by=CLI).is_error
    changes = [e for e in history(tmp_path) if e.action == "setting"]
    assert [(e.args, e.by.kind.value, e.extra.get("was")) for e in changes] == [
        ({"review": True}, "cli", False),
        ({"review": False}, "outside", True),
        ({"review": True}, "notebook", None),
    ]
    assert "found off on disk" in changes[1].output


def test_a_review_line_written_by_hand_before_any_record_is_named_as_outside(tmp_path: Path) -> None:
    settings_file(tmp_path).parent.mkdir()
    settings_file(tmp_path).write_text("review = true\n")
    assert not set_review(tmp_path, False, by=CLI).is_error
    changes = [e for e in history(tmp_path) if e.action == "setting"]
    assert [(e.args, e.by.kind.value) for e in changes] == [({"review": False}, "cli"), ({"review": True}, "outside")]


def test_only_the_review_line_changes_the_guard_and_comments_stay(tmp_path: Path) -> None:
    settings_file(tmp_path).parent.mkdir()
    settings_file(tmp_path).write_text("# this home is shared\nguard = true\nreview = false  # for now\n")
    assert not set_review(tmp_path, True, by=CLI).is_error
    assert settings_file(tmp_path).read_text() == "# this home is shared\nguard = true\nreview = true\n"
    assert (load_settings(tmp_path).guard, load_settings(tmp_path).review) == (True, True)


def test_a_settings_file_that_cannot_be_used_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    settings_file(tmp_path).parent.mkdir()
    settings_file(tmp_path).write_text("guard = [\n")
    result = set_review(tmp_path, True, by=CLI)
    assert result.is_error and "is not valid TOML" in result.output and "not changed" in result.output
    assert settings_file(tmp_path).read_text() == "guard = [\n"
    assert history(tmp_path) == [] and not (tmp_path / ".notebook" / "events.jsonl").exists()


def test_a_review_key_inside_a_table_is_refused_not_duplicated(tmp_path: Path) -> None:
    settings_file(tmp_path).parent.mkdir()
    settings_file(tmp_path).write_text("[other]\nreview = 1\n")
    result = set_review(tmp_path, True, by=CLI)
    assert result.is_error and settings_file(tmp_path).read_text() == "[other]\nreview = 1\n"
    assert not (tmp_path / ".notebook" / "events.jsonl").exists()  # a refusal leaves no log behind


def test_a_record_that_cannot_be_written_is_said_truthfully_and_recorded_as_found_next(
    tmp_path: Path, monkeypatch
) -> None:
    from notebook_app.core.record.log import store as event_store

    set_review(tmp_path, False, by=CLI)
    real = event_store.LogWriter.append

    def full(self, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(event_store.LogWriter, "append", full)
    result = set_review(tmp_path, True, by=CLI)
    assert result.is_error and "review is now on" in result.output and "could not be written" in result.output
    assert load_settings(tmp_path).review is True
    monkeypatch.setattr(event_store.LogWriter, "append", real)
    assert not set_review(tmp_path, True, by=NOTEBOOK).is_error
    changes = [e for e in history(tmp_path) if e.action == "setting"]
    assert [(e.args, e.by.kind.value) for e in changes] == [
        ({"review": True}, "notebook"),
        ({"review": True}, "outside"),
        ({"review": False}, "cli"),
    ]


def test_a_temp_file_a_killed_writer_left_is_cleared_by_the_next_change(tmp_path: Path) -> None:
    set_review(tmp_path, True, by=CLI)
    left = tmp_path / ".notebook" / ".settings-tmp-abc"
    left.write_text("review = fal")
    set_review(tmp_path, False, by=CLI)
    assert not left.exists() and load_settings(tmp_path).review is False


def test_a_writer_killed_at_any_moment_leaves_a_whole_settings_file(tmp_path: Path) -> None:
    child = (
        "import sys\nfrom notebook_app.core.record.log.actor import CLI\n"
        "from notebook_app.core.record.settings import set_review\n"
        "on = True\nprint('go', flush=True)\nwhile True:\n    set_review(sys.argv[1], on, by=CLI)\n    on = not on\n"
    )
    for round_ in range(12):
        process = subprocess.Popen([sys.executable, "-c", child, str(tmp_path)], stdout=subprocess.PIPE)
        assert process.stdout is not None and process.stdout.readline() == b"go\n"
        time.sleep(0.01 + 0.007 * round_)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        if settings_file(tmp_path).exists():
            assert tomllib.loads(settings_file(tmp_path).read_text())["review"] in (True, False)
    assert not set_review(tmp_path, True, by=CLI).is_error
    assert [p.name for p in (tmp_path / ".notebook").iterdir() if p.name.startswith(".settings-tmp-")] == []
    assert load_settings(tmp_path).review is True
