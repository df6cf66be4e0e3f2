"""The 2 MiB cap cuts bytes, not characters: a character it splits is dropped whole, wherever the cut falls in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from notebook_app.core.home.soul import MAX_FILE_BYTES, TRUNCATION_NOTICE, compose, compose_soul

SPLITS = [(char, kept) for char in ("é", "€", "😀") for kept in range(1, len(char.encode()))]


@pytest.mark.parametrize(
    ("char", "kept"), SPLITS, ids=[f"{len(c.encode())}-byte-char-{k}-bytes-kept" for c, k in SPLITS]
)
def test_a_character_the_cap_splits_after_any_of_its_bytes_loads_without_it_and_without_an_error(
    home: Path, char: str, kept: int
) -> None:
    prefix = b"a" * (MAX_FILE_BYTES - kept)  # the cap falls after ``kept`` bytes of the character
    (home / "MEMORY.md").write_bytes(prefix + char.encode() + b" and more\n")
    soul, found = compose_soul(home)
    assert found == ["MEMORY.md"]
    assert soul == "## MEMORY.md\n\n" + "a" * (MAX_FILE_BYTES - kept) + "\n" + TRUNCATION_NOTICE
    assert "\ufffd" not in soul
    loaded = compose(home).file("MEMORY.md")
    assert loaded is not None and loaded.decode_error is None and loaded.truncated
