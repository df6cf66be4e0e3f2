"""``host.unproven``: the doctor says, as an ``info`` finding, that the installed release has no proven rules
(issue 36); a proven one, a version named, or no install says nothing, and the exit status never changes."""

from __future__ import annotations

from pathlib import Path

from fake_installs import claude_native

from notebook_app.core.doctor.check import Doctor
from notebook_app.core.doctor.model import Severity
from notebook_app.core.hostbase.registry import host
from notebook_app.core.hosts.standing import Standing, standing


def _standing(found: Standing | str | None) -> Standing:
    assert isinstance(found, Standing)
    return found


def test_an_installed_release_with_no_proven_rules_is_an_info_finding_in_the_standings_words(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "MEMORY.md").write_text("- tea\n")
    env = {"PATH": str(claude_native(tmp_path / "user", "2.1.338", tmp_path / "RAN"))}
    cc = host("claude-code")
    installed = _standing(standing(cc, None, env))
    report = Doctor().check(home, standing=installed)
    (found,) = [f for f in report.findings if f.rule == "host.unproven"]
    assert (found.severity, found.file, found.message) == (Severity.INFO, None, installed.sentence)
    assert found.message is not None and found.message.startswith("your Claude Code 2.1.338 is newer than")
    assert report.exit_status == Doctor().check(home).exit_status == 0
    quiet = [_standing(standing(cc, "2.1.338", env)), _standing(standing(cc, None, {})), None]
    for one in quiet:
        assert [f for f in Doctor().check(home, standing=one).findings if f.rule == "host.unproven"] == []
