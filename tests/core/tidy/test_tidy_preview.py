"""The preview of a tidy is the apply's own cut: what a person looks at is what is then written, byte for byte."""

from __future__ import annotations

import itertools
from pathlib import Path

from home_bytes import files_of
from test_tidy_apply import planted

from notebook_app.core.home.layout import hermes_files
from notebook_app.core.record.log.actor import CLI
from notebook_app.core.tidy.apply import apply_tidy, tidied_texts
from notebook_app.core.tidy.propose import tidy


def test_every_subset_of_hunks_previews_exactly_the_bytes_its_apply_writes(home: Path, tmp_path: Path) -> None:
    planted(home)
    proposal = tidy(home)
    assert len(proposal.hunks) >= 4
    for size in (1, 2, len(proposal.hunks)):
        for ids in itertools.islice(itertools.combinations([h.id for h in proposal.hunks], size), 6):
            texts = tidied_texts(home, proposal, ids)
            assert isinstance(texts, dict) and texts
            before = files_of(home)
            result = apply_tidy(home, ids, by=CLI)
            assert not result.is_error, result.output
            assert {name: (home / name).read_bytes() for name in texts} == texts
            for name, data in before.items():  # back to the planted home for the next subset
                (home / name).write_bytes(data)
            for extra in set(files_of(home)) - set(before):
                (home / extra).unlink()


def test_a_hermes_store_previews_as_hermes_writes_it(home: Path) -> None:
    store = home / "memories"
    store.mkdir()
    (store / "USER.md").write_text("likes green tea\n§\nname: Ana\n§\nlikes green tea\n§\nLikes green tea a lot")
    files = hermes_files()
    proposal = tidy(home, files)
    texts = tidied_texts(home, proposal, [h.id for h in proposal.hunks], files=files)
    result = apply_tidy(home, [h.id for h in proposal.hunks], files=files, by=CLI)
    assert not result.is_error, result.output
    assert texts == {"USER.md": (store / "USER.md").read_bytes()}


def test_the_preview_writes_nothing_and_a_changed_line_is_said_in_words(home: Path) -> None:
    planted(home)
    proposal = tidy(home)
    before = files_of(home)
    (home / "MEMORY.md").write_text((home / "MEMORY.md").read_text().replace("timezone: UTC", "timezone: PST"))
    changed = files_of(home)
    ids = [h.id for h in proposal.hunks if h.kind.code == "superseded"]
    said = tidied_texts(home, proposal, ids)
    assert isinstance(said, str) and "no longer reads as proposed" in said
    assert files_of(home) == changed != before
