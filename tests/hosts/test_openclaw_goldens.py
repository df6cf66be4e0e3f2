"""Our OpenClaw loader against the goldens each release's own resolveBootstrapContextForRun produced (``make hosts``).

Each corpus case is built again in a temporary folder; for every proven
release and every session kind, the entries :func:`openclaw_load` says
OpenClaw builds must equal the golden's context entries one for one: the
same path, the same content (or, for a big one, its length, digest, markers,
head and tail), in the same order. Reading must write nothing.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import host_corpus
from notebook_app.core.hosts.openclaw.releases import KINDS, openclaw_load, releases

GOLDENS = Path(__file__).parent / "goldens"
CASES = {case.name: case for case in host_corpus.cases("openclaw")}
VERSIONS = [str(r["version"]) for r in releases()]


def _len16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def test_every_proven_release_has_a_golden_for_every_case_and_no_other():
    for version in VERSIONS:
        folder = GOLDENS / f"openclaw@{version}"
        assert sorted(p.stem for p in folder.glob("*.json")) == sorted(CASES), version


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_openclaw_injects_what_its_own_code_injected_on_the_same_workspace(version, name, tmp_path):
    golden = json.loads((GOLDENS / f"openclaw@{version}" / f"{name}.json").read_text(encoding="utf-8"))
    assert golden["version"] == version
    host_corpus.build(tmp_path, [name])
    home = (tmp_path / name / "home").resolve()
    before = host_corpus.tree(tmp_path)
    for kind in KINDS:
        load = openclaw_load(home, version, kind)
        assert not isinstance(load, str), load
        expected = golden["kinds"][kind]["context_files"]
        got = []
        for entry in load.parts:
            text = entry.injected.replace(str(home), "{home}")
            got.append({"path": entry.path.replace(str(home), "{home}"), "length_utf16": _len16(text)})
            if kind == "main":
                got[-1]["content"] = host_corpus.summary(entry.injected, str(home))
            else:
                got[-1]["sha256"] = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        assert got == expected, kind
    assert host_corpus.tree(tmp_path) == before, "reading a workspace as OpenClaw loads it wrote to it"
