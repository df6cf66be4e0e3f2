"""Our Claude Code loader against the goldens each proven release's own binary produced (``make hosts``).

Every release in ``claude-code-releases.toml`` has a folder of goldens, and every folder a release. Each
case of the corpus is built again in a temporary folder; the
``<system-reminder>`` block :func:`claude_code_load` renders, and each of its
entries (path, kind, text), must equal what the real ``claude -p`` sent the
model on the same home, and the memory folder must be the one its system
prompt named. Rules folders are read in directory order, as Claude Code reads
them; ext4 lists a folder in an order of its own hash seed, so the golden's
entries of one rules folder are put in the order this machine lists it before
they are compared (where the machines agree, that changes nothing).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import host_corpus
from notebook_app.core.hosts.claude_code.load import claude_code_load, proven_releases, rules

sys.path.insert(0, str(Path(__file__).parent / "drivers"))
from claude_code import entries  # noqa: E402  (the driver's own parser of the block)

ALL_GOLDENS = Path(__file__).parent / "goldens"
RELEASES = [str(r["version"]) for r in proven_releases()]
CASES = {case.name: case for case in host_corpus.cases("claude-code")}
UNQUOTED = "2.1.332"
"""A release that sends MEMORY.md's kept text as it is: the cut's tests read it there (2.1.337 sends the same text
quoted, which its own goldens prove), and the panes keep the file's own lines, as this text has them."""


def _listing(folder: Path) -> list[Path]:
    """Every file under ``folder`` in the order a walk by ``os.listdir`` meets it, as Claude Code walks."""
    found: list[Path] = []
    for name in os.listdir(folder):
        path = folder / name
        found.extend(_listing(path) if path.is_dir() else [path])
    return found


def _in_listing_order(entries: list[dict], case: Path) -> list[dict]:
    """The golden's entries with each rules folder's run of entries in this machine's listing order."""
    out = list(entries)
    for rules_dir in {e["path"].split("/rules/")[0] + "/rules" for e in entries if "/rules/" in e["path"]}:
        spots = [i for i, e in enumerate(out) if e["path"].startswith(rules_dir + "/")]
        order = [str(p).replace(str(case), "{case}") for p in _listing(Path(rules_dir.replace("{case}", str(case))))]
        run = sorted((out[i] for i in spots), key=lambda e: order.index(e["path"]))
        for i, entry in zip(spots, run, strict=True):
            out[i] = entry
    return out


def _golden(version: str, name: str) -> dict:
    return json.loads((ALL_GOLDENS / f"claude-code@{version}" / f"{name}.json").read_text(encoding="utf-8"))


def test_every_proven_release_has_goldens_and_every_golden_folder_a_proven_release():
    assert sorted(p.name for p in ALL_GOLDENS.glob("claude-code@*")) == sorted(f"claude-code@{v}" for v in RELEASES)


@pytest.mark.parametrize("version", RELEASES)
def test_every_corpus_case_has_a_claude_code_golden_and_every_golden_a_case(version):
    folder = ALL_GOLDENS / f"claude-code@{version}"
    assert sorted(p.stem for p in folder.glob("*.json")) == sorted(CASES)


def _built(name: str, tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    host_corpus.build(tmp_path, [name])
    case = (tmp_path / name).resolve()
    root_rel, cwd_rel = host_corpus.claude_dirs(name)
    (case / host_corpus.CLAUDE_USER).mkdir(exist_ok=True)
    return case, case / root_rel, case / cwd_rel, case / host_corpus.CLAUDE_USER


@pytest.mark.parametrize("version", RELEASES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_claude_code_loads_what_its_own_binary_sent_on_the_same_home(version, name, tmp_path):
    golden = _golden(version, name)
    assert golden["version"] == rules(version)["version"] == version
    assert golden["installed"] == f"@anthropic-ai/claude-code-linux-x64@{version}"
    assert golden["exit"] == 0 and golden["requests"] >= 1, "the binary did not finish its turn against the recorder"
    case, root, cwd, user = _built(name, tmp_path)
    before = host_corpus.tree(tmp_path)
    load = claude_code_load(root, cwd=cwd, home=user, version=version)
    assert load.version == version
    assert host_corpus.tree(tmp_path) == before, "reading a project as Claude Code loads it wrote to it"
    slug = host_corpus.claude_slug(str(root))

    def named(text: str) -> str:
        return text.replace(slug, "{slug}").replace(str(case), "{case}")

    assert named(load.memory_dir) == golden["memory_dir"]
    reminder = named(load.reminder) if load.reminder is not None else None
    assert host_corpus.summary(reminder, "\0") == golden["reminder"]
    ours = [
        {
            "path": named(p.path),
            "kind": str(rules(version)["kinds"][p.kind]).strip(" ()"),  # type: ignore[index]
            "text": host_corpus.summary(named(p.injected), "\0"),
        }
        for p in load.loaded
    ]
    assert ours == _in_listing_order(golden["entries"], case)
    assert golden["files"] == {"created": [], "changed": [], "removed": []}, "Claude Code wrote into the project"


def test_the_driver_parses_the_block_our_loader_renders(tmp_path):
    """The golden's entries come from the driver's parser; it must split our own block back into our parts."""
    _, root, cwd, user = _built("cc-user", tmp_path)
    load = claude_code_load(root, cwd=cwd, home=user)
    assert [e["text"] for e in entries(load.reminder or "")] == [p.injected for p in load.loaded]
    assert len(load.loaded) == 5


@pytest.mark.parametrize("name, cut_at", [("cc-memory-201-lines", 200), ("cc-memory-multibyte-cut", 143)])
def test_memory_md_is_cut_where_claude_code_cuts_it_in_lines(name, cut_at, tmp_path):
    """The issue's claim: 150 lines of 173 characters (169 'é') keep 143 lines (UTF-16 units), not 72 (bytes)."""
    _, root, cwd, user = _built(name, tmp_path)
    memory = next(
        p for p in claude_code_load(root, cwd=cwd, home=user, version=UNQUOTED).parts if p.name == "MEMORY.md"
    )
    assert memory.status == "cut" and memory.injected is not None
    kept = memory.injected.split("\n\n> WARNING: ")[0]
    assert kept.count("\n") + 1 == cut_at
    assert f"starting at line {cut_at + 1}" in memory.markers[0]


@pytest.mark.parametrize("name", sorted(n for n in CASES if n.startswith("cc-memory-")))
def test_the_apps_claude_code_profile_keeps_of_memory_md_what_claude_code_kept(name, tmp_path):
    """The profile the app and the doctor compose with (a home's MEMORY.md) gives what the proven loader, and so
    Claude Code, sends: cut in UTF-16 units at a line end, its WARNING after the cut."""
    from notebook_app.core.home.soul import compose
    from notebook_app.core.hosts.choice import resolve_host

    _, root, cwd, user = _built(name, tmp_path)
    load = claude_code_load(root, cwd=cwd, home=user, version=UNQUOTED)
    flat = tmp_path / "flat-home"
    flat.mkdir()
    (flat / "MEMORY.md").write_bytes(Path(load.memory_dir, "MEMORY.md").read_bytes())
    composition = compose(flat, host=resolve_host("claude-code").profile)
    memory = next((p for p in load.parts if p.name == "MEMORY.md"), None)
    if memory is None:  # cc-memory-empty: Claude Code sends no entry for it, and no section is composed
        assert composition.file("MEMORY.md") is None and composition.soul == ""
        return
    body, load = composition.file("MEMORY.md").body, composition.load("MEMORY.md")
    assert body == memory.injected and load.truncated == (memory.status == "cut")
    if load.truncated:
        assert (
            memory.markers[0].find(f"starting at line {load.cut_line}") > 0 or "line 1 was cut off" in memory.markers[0]
        )


@pytest.mark.parametrize(
    "line, sent",
    [
        ("> > double", "> double"),
        ("> > > triple", "> triple"),
        (">> tight", "> >> tight"),
        (">no space", "> >no space"),
        ("", "> "),
        ("  > indented", ">   > indented"),
    ],
)
def test_claude_code_2_1_337_quotes_each_line_of_the_memory_once(line, sent):
    """The rule its goldens show (cc-memory-quote-*), on one line each, with the paragraph before them."""
    from notebook_app.core.hosts.claude_code.load import quoted

    r = rules("2.1.337")
    assert quoted(f"- first\n{line}", r) == f"{r['memory_preface']}\n\n> - first\n{sent}"
    assert quoted(f"- first\n{line}", rules("2.1.336")) == f"- first\n{line}"
