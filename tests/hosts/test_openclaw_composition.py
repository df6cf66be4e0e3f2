"""The soul the doctor and the panes show as OpenClaw loads it is the proven loader's, on disk, from a snapshot
and in a dry run.

Each corpus case is built again (``host_corpus``); :func:`openclaw_load` is held
to the goldens by ``test_openclaw_goldens.py``, so here the notebook's
composition is held to it: one section per entry, the same text, the same
total, and cut lines that point at the file's own lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import host_corpus
from notebook_app.core.home.soul import compose
from notebook_app.core.hosts.choice import resolve_host
from notebook_app.core.hosts.loader import as_host
from notebook_app.core.hosts.openclaw.releases import openclaw_load

CASES = [
    "empty-home",
    "small",
    "soul-cap-plus-1",
    "soul-multibyte-cut",
    "soul-astral",
    "soul-2mib-plus-1",
    "soul-invalid-utf8",
    "soul-directory",
    "soul-link-outside",
    "flat-all-seven",
    "oc-agents-policy",
    "oc-user-4001",
    "oc-total-over",
    "oc-total-edge",
    "oc-bootstrap-completed",
    "oc-memory-lower",
]
VERSIONS = ["2026.9.6", "2026.4.27", "2026.1.29"]


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(tmp_path / "no-openclaw.json"))


def openclaw(version: str):
    choice = resolve_host(f"openclaw@{version}")
    assert choice.profile is not None, choice.error
    return choice.profile


def workspace(tmp_path: Path, name: str) -> Path:
    host_corpus.build(tmp_path, [name])
    return (tmp_path / name / "home").resolve()


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", CASES)
def test_the_composed_soul_is_openclaws_entries_one_for_one(tmp_path: Path, name: str, version: str) -> None:
    home = workspace(tmp_path, name)
    load = openclaw_load(home, version)
    assert not isinstance(load, str), load
    composition = compose(home, host=openclaw(version))
    assert composition.host == "openclaw"
    assert [(f.name, f.body) for f in composition.files] == [(p.name, p.injected) for p in load.parts]
    assert composition.soul == "\n\n".join(f"## {p.name}\n\n{p.injected}" for p in load.parts)
    assert [(x.name, x.rendered, x.raw, x.truncated) for x in composition.loads] == [
        (p.name, p.injected_len, p.raw_len or 0, p.status == "cut") for p in load.parts
    ]
    assert sum(x.rendered for x in composition.loads) == load.injected_total
    said = {s.name: s.message for s in composition.skipped}
    assert all(said.get(file) == why for file, why in load.skipped)


CUTS = [("soul-cap-plus-1", version) for version in VERSIONS] + [
    ("oc-file-12001", "2026.4.27"),
    ("memory-over-limit", "2026.9.6"),  # USER.md over its own 4,000
    ("oc-user-4001", "2026.9.6"),
    ("soul-multibyte-cut", "2026.9.6"),  # from 2026.8.2 no cut splits a surrogate pair
]


@pytest.mark.parametrize(("name", "version"), CUTS)
def test_a_cut_points_at_the_files_own_lines_where_the_head_stops_and_the_tail_resumes(
    tmp_path: Path, name: str, version: str
) -> None:
    home = workspace(tmp_path, name)
    composition = compose(home, host=openclaw(version))
    cuts = [load for load in composition.loads if load.truncated]
    assert cuts
    for load in cuts:
        body = composition.file(load.name).body
        lines = (home / load.name).read_text(encoding="utf-8").split("\n")
        head = body[: body.index("\n\n[...truncated, read ")]
        tail = body[body.index(")…\n\n") + 4 :]
        assert head.count("\n") + 1 == load.cut_line
        assert lines[load.cut_line - 1].startswith(head.split("\n")[-1])
        assert lines[load.resume_line - 1].endswith(tail.split("\n")[0])
        assert "\n".join(lines[load.resume_line :]).rstrip() == "\n".join(tail.split("\n")[1:])
        assert load.cut_offset == len(head.encode("utf-8"))


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("changed", ["MEMORY.md", "AGENTS.md", "SOUL.md"])
@pytest.mark.parametrize("name", ["small", "oc-total-over", "oc-total-edge", "soul-directory", "empty-home"])
def test_a_dry_run_is_composing_a_workspace_where_the_file_was_written(
    tmp_path: Path, name: str, version: str, changed: str
) -> None:
    home = workspace(tmp_path, name)
    before = compose(home, host=openclaw(version))
    for text in ("- one short entry\n", "".join(f"- entry {i:05d} é😀\n" for i in range(3000)), ""):
        dry = before.with_text(changed, text)
        if (home / changed).is_dir():
            (home / changed).rmdir()
        (home / changed).write_text(text, encoding="utf-8")
        written = compose(home, host=openclaw(version))
        assert dry == written, (changed, len(text))
        assert dry.loads == written.loads
        assert [(s.name, s.message) for s in dry.skipped] == [(s.name, s.message) for s in written.skipped]
        before = written


SNAPSHOTS = ["small", "soul-cap-plus-1", "soul-multibyte-cut", "soul-2mib-plus-1", "soul-invalid-utf8"] + [
    "soul-directory",
    "oc-user-4001",
    "oc-total-edge",
    "oc-agents-policy",
    "empty-home",
]


@pytest.mark.parametrize(
    ("name", "version"),
    # 2026.1.29 reads a file whole, past the first 2 MiB a snapshot keeps
    [(n, v) for n in SNAPSHOTS for v in VERSIONS if (n, v) != ("soul-2mib-plus-1", "2026.1.29")],
)
def test_current_as_openclaw_from_a_snapshot_is_composing_the_same_bytes_from_disk(
    tmp_path: Path, name: str, version: str
) -> None:
    home = workspace(tmp_path, name)
    snapshot = compose(home)  # the contract's, as a session froze it
    shown = as_host(snapshot, openclaw(version), home=home)
    from_disk = compose(home, host=openclaw(version))
    assert shown == from_disk
    assert shown.loads == from_disk.loads
    assert [(s.name, s.message) for s in shown.skipped] == [(s.name, s.message) for s in from_disk.skipped]
