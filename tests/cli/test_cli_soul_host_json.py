"""``soul --host H --json`` has one shape of file part for every proven host, with tokens counted and named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import run

from notebook_app.core.text.tokens import count_tokens

PART_KEYS = {"name", "path", "status", "raw_len", "injected", "injected_len", "cut", "markers", "tokens", "note"}


def soul_json(tmp: Path, *args: str) -> dict:
    done = run("soul", *args, "--json", tmp=tmp, home=tmp / "user")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("host", ["hermes", "openclaw", "claude-code"])
def test_every_proven_host_gives_each_file_the_same_keys_and_its_tokens_in_the_named_vocabulary(
    host: str, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    (home / "memories").mkdir(parents=True)
    (tmp_path / "user").mkdir()
    (home / "SOUL.md").write_text("You are Kip, a calm tide-table keeper. 🌊\n")
    (home / "AGENTS.md").write_text("Be brief.\n")
    (home / "CLAUDE.md").write_text("Answer in English.\n")
    (home / "memories" / "MEMORY.md").write_text("likes tide tables\n§\ntimezone: UTC\n")
    data = soul_json(tmp_path, "--host", host, "--home", str(home))
    assert data["tokenizer"] == "o200k_base"
    loaded = [part for part in data["files"] if part["injected"] is not None]
    assert loaded, data["files"]
    for part in data["files"]:
        assert PART_KEYS <= set(part), part
        expected = count_tokens(part["injected"], "o200k_base") if part["injected"] is not None else None
        assert part["tokens"] == expected, part["name"]
    assert data["total"]["tokens"] == sum(part["tokens"] for part in loaded)
