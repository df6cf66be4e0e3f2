"""A host's installed release, read from its files alone (issue 36): each layout, the cache, the odd layouts
that answer None, and where the host stands from it (:mod:`notebook_app.core.hosts.standing`)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from fake_installs import claude_native, hermes_install, npm_global

from notebook_app.core.hostbase.installed import CACHE_FILE, DETECT_OFF, Deadline, package_version
from notebook_app.core.hostbase.registry import host
from notebook_app.core.hosts.standing import Source, standing
from notebook_app.core.hosts.versions import ranges_in_words


@pytest.fixture
def state(tmp_path: Path) -> Path:
    """The user's state folder the cache is kept in (conftest points ``XDG_STATE_HOME`` at the test's own)."""
    return tmp_path / "xdg-state" / "persona-notebook"


def env_of(*folders: Path) -> dict[str, str]:
    return {"PATH": ":".join(str(folder) for folder in folders)}


def newest(name: str) -> str:
    return str(host(name).proven_releases()[-1]["version"])


def test_claude_codes_native_layout_names_the_version_file_and_is_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "RAN"
    bin_folder = claude_native(tmp_path / "user", "2.1.338", marker)
    found = host("claude-code").find_installed(env_of(bin_folder))
    assert found is not None
    assert (found.host, found.version, found.executable) == ("claude-code", "2.1.338", bin_folder / "claude")
    versions = tmp_path / "user" / ".local" / "share" / "claude" / "versions"
    assert found.source == f"the native installer's version file {versions / '2.1.338'}"
    assert not marker.exists()


def test_each_hosts_npm_or_python_layout_is_read(tmp_path: Path) -> None:
    marker = tmp_path / "RAN"
    claude = npm_global(tmp_path / "a", "@anthropic-ai/claude-code", "2.1.300", "claude", "cli.js", marker)
    openclaw = npm_global(tmp_path / "b", "openclaw", "2026.9.6", "openclaw", "openclaw.mjs", marker)
    hermes = hermes_install(tmp_path / "user", "0.21.3", marker)
    found = [
        host(name).find_installed(env_of(claude, openclaw, hermes)) for name in ("claude-code", "openclaw", "hermes")
    ]
    assert [(one.host, one.version) if one else None for one in found] == [
        ("claude-code", "2.1.300"),
        ("openclaw", "2026.9.6"),
        ("hermes", "0.21.3"),
    ]
    assert found[1] is not None and found[1].source.endswith("openclaw/package.json (npm package openclaw)")
    assert found[2] is not None and "hermes_agent-0.21.3.dist-info/METADATA" in found[2].source
    assert not marker.exists()


def test_a_package_of_another_name_is_not_the_host(tmp_path: Path) -> None:
    bin_folder = npm_global(tmp_path / "npm", "claude-lookalike", "9.9.9", "claude", "cli.js", tmp_path / "RAN")
    assert host("claude-code").find_installed(env_of(bin_folder)) is None


def test_detection_is_off_with_the_variable_and_for_a_host_without_releases(tmp_path: Path) -> None:
    bin_folder = claude_native(tmp_path / "user", "2.1.338", tmp_path / "RAN")
    assert host("claude-code").find_installed({**env_of(bin_folder), DETECT_OFF: "1"}) is None
    assert host("toolnexus").find_installed(env_of(bin_folder)) is None


def test_the_cache_is_read_while_the_executable_is_unchanged_and_again_when_its_time_changes(
    tmp_path: Path, state: Path
) -> None:
    bin_folder = npm_global(tmp_path / "npm", "openclaw", "2026.9.6", "openclaw", "openclaw.mjs", tmp_path / "RAN")
    package = tmp_path / "npm" / "lib" / "node_modules" / "openclaw" / "package.json"
    first = host("openclaw").find_installed(env_of(bin_folder))
    assert first is not None and first.version == "2026.9.6"
    assert list(json.loads((state / CACHE_FILE).read_text()).values())[0]["version"] == "2026.9.6"
    package.write_text(json.dumps({"name": "openclaw", "version": "2030.1.1"}))  # the executable untouched
    again = host("openclaw").find_installed(env_of(bin_folder))
    assert again is not None and again.version == "2026.9.6"  # from the cache: the package was not read
    script = package.parent / "openclaw.mjs"
    stat = script.stat()
    os.utime(script, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # an update rewrote it
    updated = host("openclaw").find_installed(env_of(bin_folder))
    assert updated is not None and updated.version == "2030.1.1"


def test_a_cache_that_cannot_be_written_or_read_changes_nothing(tmp_path: Path, state: Path) -> None:
    bin_folder = claude_native(tmp_path / "user", "2.1.338", tmp_path / "RAN")
    state.parent.mkdir(parents=True)
    state.write_text("a file where the folder should be")
    found = host("claude-code").find_installed(env_of(bin_folder))
    assert found is not None and found.version == "2.1.338"
    state.unlink()
    state.mkdir()
    (state / CACHE_FILE).write_text("{not json")
    found = host("claude-code").find_installed(env_of(bin_folder))
    assert found is not None and found.version == "2.1.338"


def test_a_link_loop_answers_none(tmp_path: Path) -> None:
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "claude").symlink_to(bin_folder / "loop")
    (bin_folder / "loop").symlink_to(bin_folder / "claude")
    assert host("claude-code").find_installed(env_of(bin_folder)) is None


@pytest.mark.parametrize("odd", ["fifo", "folder", "not json", "no version"])
def test_a_package_json_that_cannot_be_read_answers_none_without_waiting(tmp_path: Path, odd: str) -> None:
    bin_folder = npm_global(tmp_path / "npm", "openclaw", "2026.9.6", "openclaw", "openclaw.mjs", tmp_path / "RAN")
    package = tmp_path / "npm" / "lib" / "node_modules" / "openclaw" / "package.json"
    package.unlink()
    if odd == "fifo":
        os.mkfifo(package)  # a reader that opened it plainly would wait for a writer forever
    elif odd == "folder":
        package.mkdir()
    elif odd == "not json":
        package.write_text("{")
    else:
        package.write_text(json.dumps({"name": "openclaw", "version": "latest"}))
    assert host("openclaw").find_installed(env_of(bin_folder)) is None


def test_a_walk_past_its_deadline_answers_none(tmp_path: Path) -> None:
    npm_global(tmp_path / "npm", "openclaw", "2026.9.6", "openclaw", "openclaw.mjs", tmp_path / "RAN")
    start = tmp_path / "npm" / "lib" / "node_modules" / "openclaw" / "openclaw.mjs"
    assert package_version(start, "openclaw", Deadline(60)) == ("2026.9.6", start.parent)
    assert package_version(start, "openclaw", Deadline(-1)) is None


def test_hermes_with_no_metadata_reads_its_install_folder(tmp_path: Path) -> None:
    bin_folder = hermes_install(tmp_path / "user", "0.21.3", tmp_path / "RAN")
    checkout = tmp_path / "user" / ".hermes" / "hermes-agent"
    site = checkout / "venv" / "lib" / "python3.11" / "site-packages"
    (site / "hermes_agent-0.21.3.dist-info" / "METADATA").unlink()
    (checkout / "pyproject.toml").write_text('[project]\nname = "hermes-agent"\nversion = "0.20.1"\n')
    found = host("hermes").find_installed(env_of(bin_folder))
    assert found is not None and found.version == "0.20.1"
    assert found.source == f"{checkout / 'pyproject.toml'} (the hermes-agent install folder)"


def test_where_a_host_stands_named_then_installed_then_newest(tmp_path: Path) -> None:
    bin_folder = claude_native(tmp_path / "user", "2.1.338", tmp_path / "RAN")
    cc, env = host("claude-code"), env_of(bin_folder)
    installed = standing(cc, None, env)
    assert installed is not None and not isinstance(installed, str)
    assert (installed.source, installed.rules, installed.proven, installed.load_version) == (
        Source.INSTALLED,
        newest("claude-code"),
        False,
        newest("claude-code"),
    )
    said = f"your Claude Code 2.1.338 is newer than the newest proven, {newest('claude-code')}: "
    assert installed.sentence == installed.said_here == said + f"shown as {newest('claude-code')} loads it"
    named = standing(cc, "2.1.339", env)
    assert named is not None and not isinstance(named, str)
    assert (named.source, named.proven, named.said_here) == (Source.NAMED, False, None)
    assert named.sentence is not None and named.sentence.startswith("Claude Code 2.1.339 is newer")
    assert named.to_json() == {"installed": "2.1.338", "rules": newest("claude-code"), "proven": False}
    none = standing(cc, None, {})
    assert none is not None and not isinstance(none, str)
    assert (none.installed, none.rules, none.proven, none.sentence, none.load_version) == (
        None,
        newest("claude-code"),
        True,
        None,
        None,
    )
    assert standing(cc, "1.0", env) == "claude-code@1.0 is in no proven range; proven Claude Code releases: " + (
        ranges_in_words(cc.proven_releases())
    )
    assert standing(host("toolnexus"), None, env) is None


def test_an_installed_release_older_than_the_oldest_proven_is_shown_as_the_oldest(tmp_path: Path) -> None:
    bin_folder = hermes_install(tmp_path / "user", "0.1.0", tmp_path / "RAN")
    found = standing(host("hermes"), None, env_of(bin_folder))
    oldest = str(host("hermes").proven_releases()[0]["version"])
    assert found is not None and not isinstance(found, str)
    assert (found.rules, found.proven) == (oldest, False)
    assert found.sentence == f"your Hermes 0.1.0 is older than the oldest proven, {oldest}: shown as {oldest} loads it"


def test_each_fake_install_would_leave_its_marker_if_run(tmp_path: Path) -> None:
    """The other tests' "never ran" can fail: run once, each fake executable leaves its marker."""
    folders = [
        claude_native(tmp_path / "a", "2.1.338", tmp_path / "a.ran"),
        npm_global(tmp_path / "b", "openclaw", "2026.9.6", "openclaw", "openclaw.mjs", tmp_path / "b.ran"),
        hermes_install(tmp_path / "c", "0.21.3", tmp_path / "c.ran"),
    ]
    for folder, command in zip(folders, ("claude", "openclaw", "hermes"), strict=True):
        subprocess.run([str(folder / command)], check=True, timeout=30)
    assert sorted(p.name for p in tmp_path.glob("*.ran")) == ["a.ran", "b.ran", "c.ran"]
