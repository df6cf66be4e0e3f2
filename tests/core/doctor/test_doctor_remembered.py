"""``host.remembered``: the doctor names a host remembered for a folder its layout does not fit, and its fix
forgets it in the user's state, never writing the home (issue 34, data item 1's clean-up)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from host_corpus import tree
from notebook_app.core.doctor.check import Doctor
from notebook_app.core.doctor.repair import RepairPreview
from notebook_app.core.doctor.rules.remembered import ForgetHostFix, remembered_findings
from notebook_app.core.home.refusals import Rejection
from notebook_app.core.home.remembered import remember_host, remembered_host
from notebook_app.core.record.log.actor import NOTEBOOK


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(tmp_path / "no-openclaw.json"))
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    return tmp_path / "xdg-state" / "persona-notebook"


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / "MEMORY.md").write_text("- tn entry\n")
    return home


def test_a_remembered_host_the_layout_does_not_fit_is_a_warning_with_a_fix_that_forgets_it_and_writes_no_home(
    plain: Path, state: Path
) -> None:
    assert remember_host(plain, "hermes") is None
    report = Doctor().check(plain)
    found = [f for f in report.findings if f.rule == "host.remembered"]
    assert len(found) == 1 and found[0].severity.fails and found[0].file is None
    fix = found[0].fix
    assert isinstance(fix, ForgetHostFix)
    before = tree(plain)
    preview = fix.preview(plain)
    assert isinstance(preview, RepairPreview) and "Hermes is forgotten" in preview.words
    assert remembered_host(plain) is not None  # the dry run writes nothing
    done = fix.apply(plain, by=NOTEBOOK)
    assert not done.is_error, done.output
    assert remembered_host(plain) is None
    assert tree(plain) == before  # the home is not written, not even its .notebook
    assert json.loads((state / "hosts.json").read_text()) == {}
    assert [f for f in Doctor().check(plain).findings if f.rule == "host.remembered"] == []


def test_the_fix_refuses_when_the_choice_changed_since_the_doctor_read_it(plain: Path, state: Path) -> None:
    remember_host(plain, "hermes")
    (found,) = remembered_findings(plain)
    assert found.fix is not None
    remember_host(plain, "toolnexus")  # a person chose again meanwhile
    assert isinstance(found.fix.preview(plain), Rejection)
    done = found.fix.apply(plain, by=NOTEBOOK)
    assert done.is_error and "no longer" in done.output
    assert remembered_host(plain) is not None and remembered_host(plain).host == "toolnexus"  # type: ignore[union-attr]


@pytest.mark.parametrize("host", ["toolnexus"])
def test_a_remembered_host_the_layout_fits_is_no_finding(plain: Path, state: Path, host: str) -> None:
    remember_host(plain, host)
    assert remembered_findings(plain) == []


def test_a_hermes_home_remembered_as_hermes_is_no_finding_and_as_openclaw_is_one(tmp_path: Path, state: Path) -> None:
    home = tmp_path / "hermes"
    (home / "memories").mkdir(parents=True)
    (home / "config.yaml").write_text("memory: {}\n")
    remember_host(home, "hermes", "0.19.0")
    assert remembered_findings(home) == []
    remember_host(home, "openclaw")
    (found,) = remembered_findings(home)
    assert found.message.startswith("OpenClaw is remembered for this folder since ")
    assert "its layout is Hermes's (the folder has memories/ and config.yaml)" in found.message


def test_nothing_remembered_is_no_finding_and_the_check_writes_no_state(plain: Path, state: Path) -> None:
    assert remembered_findings(plain) == []
    Doctor().check(plain)
    assert not (state / "hosts.json").exists()
