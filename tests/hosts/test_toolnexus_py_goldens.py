"""Our toolnexus-py@0.21.0 profile against the goldens the Python package's own ``compose_soul`` produced.

Where it composed a soul, the contract's composition of the same home is that
soul, file for file; where it raised, :func:`starts_no_session` names the same
file (and byte) and says no session starts.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import host_corpus
from notebook_app.core.home.soul import compose
from notebook_app.core.hosts.choice import resolve_host
from notebook_app.core.hosts.toolnexus.python import starts_no_session

GOLDENS = Path(__file__).parent / "goldens" / "toolnexus-py@0.21.0"
CASES = {case.name: case for case in host_corpus.cases("toolnexus-py")}


def test_every_corpus_case_has_a_toolnexus_py_golden():
    assert sorted(p.stem for p in GOLDENS.glob("*.json")) == sorted(CASES)


def test_the_toolnexus_py_profile_composes_as_the_contract():
    assert resolve_host("toolnexus-py").profile.is_contract


@pytest.mark.parametrize("name", sorted(CASES))
def test_toolnexus_py_loads_what_its_own_compose_soul_returned_on_the_same_home(name, tmp_path):
    golden = json.loads((GOLDENS / f"{name}.json").read_text(encoding="utf-8"))
    assert golden["version"] == "0.21.0"
    host_corpus.build(tmp_path, [name])
    home = (tmp_path / name / "home").resolve()
    composition = compose(home)
    refused = starts_no_session(composition)
    if "raised" in golden:
        assert refused is not None and refused.startswith("toolnexus (Python) 0.21.0 starts no session: ")
        file = re.search(r"'\{home\}/([A-Z]+\.md)'", golden["message"])
        byte = re.search(r"in position (\d+)", golden["message"])
        if byte:
            assert refused.endswith(f"is not valid UTF-8 at byte {byte.group(1)}")
        else:
            assert file and refused.endswith(f"{file.group(1)} is a directory")
    else:
        assert refused is None
        assert composition.found == golden["found"]
        assert host_corpus.summary(composition.soul, str(home)) == golden["soul"]
