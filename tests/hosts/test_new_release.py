"""A new release proven in one command (``make hosts ARGS="host@V"``) and the watch, without the network.

Each test lays out a copy of the repository's data in ``tmp_path``: the real
``claude-code-releases.toml`` and ``openclaw-releases.toml``, and folders of
golden JSON files as ``make hosts`` writes them. :func:`new_release.prove`
compares a pending folder with its nearest proven release's and records the
release (one line of data, the folder moved) or keeps it pending and names the
cases that differ; the watch's filter is given a version list.
"""

from __future__ import annotations

import json
import shutil
import sys
import tomllib
from pathlib import Path

import pytest

import host_corpus

sys.path.insert(0, str(Path(__file__).parent))
import make_goldens  # noqa: E402
import new_release  # noqa: E402
import watch_releases  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
HOSTS = REPO / "notebook_app" / "core" / "hosts"


def _after(version: str) -> str:
    """The version right after ``version`` (its last part plus one)."""
    *head, last = version.split(".")
    return ".".join([*head, str(int(last) + 1)])


_REAL = new_release.Data(REPO)
NEWEST = str(new_release.proven(_REAL, "claude-code")[-1]["version"])
"""Claude Code's newest proven release (the tests read the repository's own data, as it is when they run)."""
NEWEST_RULES = str(new_release.proven(_REAL, "claude-code")[-1]["rules"])
NEW = _after(NEWEST)
"""A Claude Code release no golden proves."""
RANGE = next(r for r in new_release.proven(_REAL, "openclaw") if r["version"] == "2026.4.27")
"""An OpenClaw release with a gap after its range (the next starts at 2026.6.1)."""
OC_NEW = _after(RANGE["until"])


def _golden(host: str, version: str, case: str, **facts: object) -> dict:
    return {
        "host": host,
        "version": version,
        "installed": f"npm {host}@{version}",
        "case": case,
        "about": f"the case {case}",
        "command": f"make hosts  (driver <fresh copy of case {case}>)",
        **facts,
    }


def _write(folder: Path, goldens: list[dict]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for golden in goldens:
        (folder / f"{golden['case']}.json").write_text(host_corpus.dump(golden), encoding="utf-8")


def _cases(host: str, version: str, quoted: bool = False) -> list[dict]:
    """Three Claude Code-like goldens; ``quoted``: MEMORY.md's lines sent as 2.1.337 sends them."""
    memory = "> note one\n> note two" if quoted else "note one\nnote two"
    return [
        _golden(host, version, "small", reminder=f"Contents of MEMORY.md:\n\n{memory}", exit=0),
        _golden(host, version, "empty-home", reminder="", exit=0),
        _golden(host, version, "nested", entries=[{"path": "{case}/home/CLAUDE.md", "text": "rules"}], exit=0),
    ]


@pytest.fixture
def data(tmp_path: Path) -> new_release.Data:
    """A copy of the repository's release data, with goldens for Claude Code 2.1.337 and OpenClaw 2026.4.27."""
    for package, name in (("claude_code", "claude-code-releases.toml"), ("openclaw", "openclaw-releases.toml")):
        (tmp_path / "notebook_app" / "core" / "hosts" / package).mkdir(parents=True)
        shutil.copy(HOSTS / package / name, tmp_path / "notebook_app" / "core" / "hosts" / package / name)
    found = new_release.Data(tmp_path)
    _write(found.goldens / f"claude-code@{NEWEST}", _cases("claude-code", NEWEST))
    _write(found.goldens / "openclaw@2026.4.27", _cases("openclaw", "2026.4.27"))
    return found


def test_a_release_whose_goldens_equal_its_nearest_is_one_line_of_data_and_its_goldens_move(data):
    _write(data.pending / f"claude-code@{NEW}", _cases("claude-code", NEW))
    toml = data.releases("claude-code")
    before = toml.read_text(encoding="utf-8").splitlines()

    verdict = new_release.prove(data, "claude-code", NEW)

    assert verdict.status == 0, verdict.lines
    after = toml.read_text(encoding="utf-8").splitlines()
    assert len(after) == len(before) + 1
    added = [line for line in after if line not in before]
    assert added == [f'  {{ version = "{NEW}", rules = "{NEWEST_RULES}" }},  # goldens equal {NEWEST}\'s']
    assert [line for line in after if line != added[0]] == before  # every other line, comments too, kept
    releases = tomllib.loads("\n".join(after))["release"]
    assert releases[-1] == {"version": NEW, "rules": NEWEST_RULES}
    assert not (data.pending / f"claude-code@{NEW}").exists()
    moved = data.goldens / f"claude-code@{NEW}"
    assert sorted(p.name for p in moved.iterdir()) == ["empty-home.json", "nested.json", "small.json"]
    assert json.loads((moved / "small.json").read_text())["version"] == NEW


def test_differing_goldens_stay_pending_named_by_case_and_fail(data):
    _write(data.pending / f"claude-code@{NEW}", _cases("claude-code", NEW, quoted=True))
    toml = data.releases("claude-code")
    before = toml.read_text(encoding="utf-8")

    verdict = new_release.prove(data, "claude-code", NEW)

    assert verdict.status != 0
    said = "\n".join(verdict.lines)
    assert f"1 cases differ from claude-code@{NEWEST}'s goldens" in said
    assert "  reminder (1): small" in said  # the differing case, grouped by the field that differs
    assert "empty-home" not in said.split("Rules to write")[1].split("\n\n")[0]
    assert '+ "reminder": "Contents of MEMORY.md:\\n\\n> note one\\n> note two"' in said  # the short diff
    assert toml.read_text(encoding="utf-8") == before
    assert sorted(p.name for p in (data.pending / f"claude-code@{NEW}").iterdir()) == [
        "empty-home.json",
        "nested.json",
        "small.json",
    ]
    assert not (data.goldens / f"claude-code@{NEW}").exists()


def test_a_case_the_pending_folder_lacks_differs(data):
    _write(data.pending / f"claude-code@{NEW}", _cases("claude-code", NEW)[:2])
    assert new_release.differences(data.pending / f"claude-code@{NEW}", data.goldens / f"claude-code@{NEWEST}") == {
        "nested": [f"no golden in claude-code@{NEW}"]
    }


def test_only_the_fields_that_name_the_release_are_ignored(data):
    new, old = data.pending / f"claude-code@{NEW}", data.goldens / f"claude-code@{NEWEST}"
    cases = _cases("claude-code", NEW)
    cases[2]["entries"][0]["text"] = "rules!"
    cases[1]["about"] = "another case"
    _write(new, cases)
    assert new_release.differences(new, old) == {"empty-home": ["about"], "nested": ["entries[0].text"]}
    assert new_release.grouped(new_release.differences(new, old)) == {
        "about": ["empty-home"],
        "entries[].text": ["nested"],
    }


def test_openclaw_covered_moves_its_release_until_on_one_line(data):
    _write(data.pending / f"openclaw@{OC_NEW}", _cases("openclaw", OC_NEW))
    toml = data.releases("openclaw")
    before = toml.read_text(encoding="utf-8").splitlines()

    verdict = new_release.prove(data, "openclaw", OC_NEW)

    assert verdict.status == 0, verdict.lines
    after = toml.read_text(encoding="utf-8").splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert len(changed) == 1
    old_line, new_line = changed[0]
    assert old_line.startswith(f'until = "{RANGE["until"]}"')
    assert new_line == old_line.replace(f'"{RANGE["until"]}"', f'"{OC_NEW}"', 1)  # its comment kept
    release = next(r for r in tomllib.loads("\n".join(after))["release"] if r["version"] == "2026.4.27")
    assert release["until"] == OC_NEW
    assert (data.goldens / f"openclaw@{OC_NEW}" / "small.json").is_file()
    assert not (data.pending / f"openclaw@{OC_NEW}").exists()


def test_the_nearest_is_the_newest_proven_not_newer_and_older_or_proven_ones_are_refused(data):
    claude = new_release.proven(data, "claude-code")
    assert new_release.nearest(claude, _after(NEW))["version"] == NEWEST  # type: ignore[index]
    assert new_release.nearest(claude, "2.1.331") == "2.1.331 is older than the oldest proven release, 2.1.332"
    assert "already proven" in new_release.nearest(claude, "2.1.335")  # type: ignore[operator]
    openclaw = new_release.proven(data, "openclaw")
    assert new_release.nearest(openclaw, OC_NEW)["version"] == "2026.4.27"  # type: ignore[index]
    assert new_release.nearest(openclaw, "2026.5.31")["version"] == "2026.4.27"  # type: ignore[index]
    assert "already proven" in new_release.nearest(openclaw, "2026.9.3")  # type: ignore[operator]


def test_make_hosts_refuses_a_release_older_than_the_oldest_proven_before_installing(data, capsys):
    assert make_goldens.main(["claude-code@2.1.331", f"--root={data.root}"]) == 2
    assert "older than the oldest proven release, 2.1.332" in capsys.readouterr().err
    assert not (data.pending / "claude-code@2.1.331").exists()


def test_the_watch_lists_only_final_releases_newer_than_the_newest_proven():
    published = ["2.1.330", "2.1.337", "2.1.339", "2.1.338", "2.1.340-beta.1", "2.1.4", "latest"]
    assert watch_releases.newer(published, "2.1.337") == ["2.1.338", "2.1.339"]
    assert watch_releases.newer(["2026.9.6", "2026.10.1", "2026.9.10"], "2026.9.6") == ["2026.9.10", "2026.10.1"]
    assert watch_releases.report("hermes", "0.19.0", ["0.18.0", "0.19.0"]) == (
        "hermes: newest proven 0.19.0; no newer release published"
    )
    assert watch_releases.report("openclaw", "2026.9.6", "npm's registry did not answer within 60 s") == (
        "openclaw: newest proven 2026.9.6; npm's registry did not answer within 60 s"
    )


def test_the_watch_counts_an_openclaw_range_as_proven_up_to_its_until(data):
    ranges = [{"version": "2026.8.2", "until": "2026.8.10"}, {"version": "2026.9.6", "until": "2026.9.9"}]
    assert new_release.newest_proven(ranges) == "2026.9.9"
    assert new_release.newest_proven(new_release.proven(data, "claude-code")) == NEWEST


@pytest.mark.parametrize("host", ["openclaw", "hermes"])
def test_every_golden_folder_of_a_covered_release_equals_its_proving_release(host):
    """A release recorded as covered keeps the goldens its own code made: they still equal the goldens of the
    release whose rules cover it (OpenClaw, Hermes; Claude Code's are each compared with the loader)."""
    data = new_release.Data(REPO)
    releases = new_release.proven(data, host)
    own = {str(r["version"]) for r in releases}
    for folder in sorted(data.goldens.glob(f"{host}@*")):
        version = folder.name.split("@")[1]
        if version in own:
            continue
        covering = next(
            r
            for r in releases
            if new_release.key(r["since"]) <= new_release.key(version) <= new_release.key(r["until"])
        )
        assert new_release.differences(folder, data.goldens / f"{host}@{covering['version']}") == {}, folder.name


def test_cases_the_nearest_has_no_golden_of_are_named_and_keep_the_release_pending(data):
    """The corpus grew after the nearest's goldens were made: those cases cannot be compared, so nothing is recorded."""
    _write(data.pending / f"openclaw@{OC_NEW}", [*_cases("openclaw", OC_NEW), _golden("openclaw", OC_NEW, "new")])
    before = data.releases("openclaw").read_text(encoding="utf-8")

    verdict = new_release.prove(data, "openclaw", OC_NEW)

    assert verdict.status == 1
    assert verdict.lines == [
        f"openclaw@{OC_NEW}: 1 cases have no golden of openclaw@2026.4.27 to compare with (new); the goldens stay "
        f"in {data.pending / f'openclaw@{OC_NEW}'}.",
        'Make them first: make hosts ARGS="openclaw@2026.4.27 --keep", then this again.',
    ]
    assert data.releases("openclaw").read_text(encoding="utf-8") == before
    assert (data.pending / f"openclaw@{OC_NEW}" / "new.json").is_file()


def test_the_watch_says_in_words_when_npm_cannot_be_run(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no npm on it: nothing is asked of any registry
    assert watch_releases.npm_versions("openclaw", timeout=5) == "npm is not installed"


def test_a_claude_code_release_between_two_proven_goes_right_after_its_nearest(data):
    toml = data.releases("claude-code")
    toml.write_text(toml.read_text(encoding="utf-8").replace(f'  {{ version = "{NEWEST}"', '  { version = "9.9.9"'))
    before = toml.read_text(encoding="utf-8").splitlines()

    assert new_release.record_claude_code(toml, NEW, NEWEST_RULES, NEWEST) == (
        f"claude-code-releases.toml: no line of {NEWEST} ending in a comma to add after"
    )
    between = _after(str(new_release.proven(data, "claude-code")[-2]["version"]))  # right after the one before 9.9.9
    nearest = str(new_release.proven(data, "claude-code")[-2]["version"])
    assert new_release.record_claude_code(toml, between, "2.1.332", nearest) is None
    after = toml.read_text(encoding="utf-8").splitlines()
    assert len(after) == len(before) + 1
    versions = [str(r["version"]) for r in tomllib.loads("\n".join(after))["release"]]
    assert versions[-3:] == [nearest, between, "9.9.9"]


@pytest.fixture
def hermes_data(data: new_release.Data) -> new_release.Data:
    (data.root / "notebook_app" / "core" / "hosts" / "hermes").mkdir(parents=True)
    shutil.copy(HOSTS / "hermes" / "hermes-0.19.0.toml", data.releases("hermes"))
    _write(data.goldens / "hermes@0.19.0", _cases("hermes", "0.19.0"))
    _write(data.goldens / "hermes@0.19.0" / "ops", [_golden("hermes", "0.19.0", "op-add", after="x")])
    return data


def test_hermes_covered_gains_an_until_line_then_moves_it(hermes_data):
    data = hermes_data
    toml = data.releases("hermes")
    before = toml.read_text(encoding="utf-8").splitlines()
    _write(data.pending / "hermes@0.19.1", _cases("hermes", "0.19.1"))
    _write(data.pending / "hermes@0.19.1" / "ops", [_golden("hermes", "0.19.1", "op-add", after="x")])

    assert new_release.prove(data, "hermes", "0.19.1").status == 0
    after = toml.read_text(encoding="utf-8").splitlines()
    assert [line for line in after if line not in before] == ['until = "0.19.1"  # goldens equal 0.19.0\'s']
    assert tomllib.loads("\n".join(after))["until"] == "0.19.1"
    assert (data.goldens / "hermes@0.19.1" / "ops" / "op-add.json").is_file()

    _write(data.pending / "hermes@0.19.2", _cases("hermes", "0.19.2"))
    _write(data.pending / "hermes@0.19.2" / "ops", [_golden("hermes", "0.19.2", "op-add", after="y")])
    verdict = new_release.prove(data, "hermes", "0.19.2")
    assert verdict.status == 1
    assert "  after (1): ops/op-add" in verdict.lines  # a store operation's golden is compared too

    _write(data.pending / "hermes@0.19.3", _cases("hermes", "0.19.3"))
    _write(data.pending / "hermes@0.19.3" / "ops", [_golden("hermes", "0.19.3", "op-add", after="x")])
    assert new_release.prove(data, "hermes", "0.19.3").status == 0
    final = toml.read_text(encoding="utf-8").splitlines()
    assert len(final) == len(after)
    assert 'until = "0.19.3"  # goldens equal 0.19.0\'s' in final
