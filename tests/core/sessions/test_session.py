"""Sessions: a frozen current snapshot, a live preview, the diff, advance()."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import pytest

from notebook_app.core.home.soul import MAX_FILE_BYTES, compose, compose_soul
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.sessions.snapshot import Session, diff_compositions, diff_lines


def make_home(home: Path) -> None:
    (home / "SOUL.md").write_text("You are Kip.\n")
    (home / "MEMORY.md").write_text("- timezone: UTC\n- likes tea\n")


def test_current_snapshot_is_frozen_while_the_preview_follows_disk(home: Path) -> None:
    make_home(home)
    session = Session(home)
    frozen = session.current.soul
    memory_tool(home).call({"action": "add", "text": "always reply tersely"})
    assert session.current.soul == frozen
    assert "always reply tersely" not in session.current.soul
    assert "always reply tersely" in session.preview().soul


def test_snapshot_records_number_files_sizes_and_time(home: Path) -> None:
    make_home(home)
    session = Session(home)
    snap = session.current
    assert snap.number == 1
    assert snap.found == ["SOUL.md", "MEMORY.md"]
    memory_file = snap.composition.file("MEMORY.md")
    assert memory_file is not None
    assert memory_file.size == len(b"- timezone: UTC\n- likes tea\n")
    assert not memory_file.truncated
    assert snap.compose_seconds >= 0
    assert snap.taken_at.tzinfo is not None
    assert session.preview().number == 2


def test_a_snapshot_names_the_files_that_did_not_load(home: Path) -> None:
    make_home(home)
    (home / "USER.md").mkdir()
    snap = Session(home).current
    assert snap.found == ["SOUL.md", "MEMORY.md"]
    assert [(s.name, s.status.name) for s in snap.skipped] == [("USER.md", "DIRECTORY")]


def test_truncation_is_recorded_per_file(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"z" * (MAX_FILE_BYTES + 100))
    file = Session(home).current.composition.file("MEMORY.md")
    assert file is not None and file.truncated and file.dropped_bytes == 100


def test_in_sync_until_a_write_then_the_diff_names_file_and_lines(home: Path) -> None:
    make_home(home)
    session = Session(home)
    assert session.diff().in_sync
    assert session.diff().change_count == 0

    memory_tool(home).call({"action": "replace", "text": "UTC", "with": "IST"})
    memory_tool(home).call({"action": "add", "target": "user", "text": "name is Muthu"})
    diff = session.diff()

    assert [f.name for f in diff.files] == ["USER.md", "MEMORY.md"]
    user = diff.file("USER.md")
    assert user is not None and user.status == "added"
    assert user.added == ((0, "- name is Muthu"),) and user.removed == ()
    memory = diff.file("MEMORY.md")
    assert memory is not None and memory.status == "changed"
    assert memory.removed == ((0, "- timezone: UTC"),)
    assert memory.added == ((0, "- timezone: IST"),)
    assert diff.change_count == 3


def test_removed_file_shows_as_removed(home: Path) -> None:
    make_home(home)
    session = Session(home)
    (home / "SOUL.md").unlink()
    soul = session.diff().file("SOUL.md")
    assert soul is not None and soul.status == "removed" and soul.removed == ((0, "You are Kip."),)


def test_advance_makes_the_preview_current_and_counts_up(home: Path) -> None:
    make_home(home)
    session = Session(home)
    memory_tool(home).call({"action": "add", "text": "new fact"})
    preview = session.preview()
    current = session.advance(preview)
    assert current is preview and session.current.number == 2
    assert "new fact" in session.current.soul
    assert session.diff().in_sync


def test_diff_lines_finds_a_change_in_the_middle() -> None:
    old = ["a", "b", "c", "d"]
    new = ["a", "B", "c", "d", "e"]
    assert diff_lines(old, new) == ([(1, "b")], [(1, "B"), (4, "e")])


def test_diff_lines_of_two_unrelated_large_files_accounts_for_every_line() -> None:
    old = [f"old {i}" for i in range(30_000)]
    new = [f"new {i}" for i in range(30_000)] + ["old 5"]
    removed, added = diff_lines(old, new)
    assert len(removed) == 29_999 and len(added) == 30_000
    assert (5, "old 5") not in removed


def test_diff_of_two_2mib_souls_with_one_edit_finds_just_that_edit(home: Path) -> None:
    entries = [f"- fact number {i:07d} about the user\n" for i in range(MAX_FILE_BYTES // 37)]
    (home / "MEMORY.md").write_text("".join(entries))
    session = Session(home)
    memory_tool(home).call({"action": "replace", "text": "fact number 0031337", "with": "FACT 31337"})
    started = time.perf_counter()
    diff = session.diff()
    elapsed = time.perf_counter() - started
    memory = diff.file("MEMORY.md")
    assert memory is not None
    assert memory.removed == ((31337, "- fact number 0031337 about the user"),)
    assert memory.added == ((31337, "- FACT 31337 about the user"),)
    print(f"diff of two 2 MiB souls: {elapsed * 1000:.1f} ms")


@pytest.fixture
def sha256_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count sha256 computations, each with the number of bytes hashed."""
    calls: list[int] = []
    real = hashlib.sha256

    def counting(data: bytes = b"", **kwargs: object) -> object:
        calls.append(len(data))
        return real(data, **kwargs)

    monkeypatch.setattr(hashlib, "sha256", counting)
    return calls


def test_composing_a_soul_hashes_nothing(home: Path, sha256_calls: list[int]) -> None:
    make_home(home)
    (home / "USER.md").write_bytes(b"- tea\n" * 400_000)
    compose_soul(home)
    compose(home)
    assert sha256_calls == []


def test_a_digest_is_the_sha256_of_the_loaded_bytes_computed_once_when_asked(
    home: Path, sha256_calls: list[int]
) -> None:
    data = "- café\n".encode() * (MAX_FILE_BYTES // 8 + 1)  # cut inside a character at the cap
    (home / "MEMORY.md").write_bytes(data)
    memory = compose(home).file("MEMORY.md")
    assert memory is not None and memory.truncated
    loaded = data[:MAX_FILE_BYTES]
    loaded = loaded[: len(loaded.decode("utf-8", "ignore").encode())]
    assert memory.digest == hashlib.new("sha256", loaded).hexdigest()
    assert memory.digest == memory.digest
    assert sha256_calls == [len(loaded)]


def test_the_diff_hashes_only_files_whose_body_is_unchanged(home: Path, sha256_calls: list[int]) -> None:
    make_home(home)
    before = compose(home)
    (home / "MEMORY.md").write_text("- timezone: UTC\n- likes coffee\n")
    diff = diff_compositions(before, compose(home))
    assert [f.name for f in diff.files] == ["MEMORY.md"]
    assert sorted(sha256_calls) == sorted([len(b"You are Kip.\n")] * 2)


def test_a_change_that_only_strip_hides_still_counts_as_a_change(home: Path) -> None:
    """Trailing blank lines change the bytes that load, not the body: the digest tells them apart."""
    make_home(home)
    before = compose(home)
    (home / "SOUL.md").write_text("You are Kip.\n\n\n")
    diff = diff_compositions(before, compose(home))
    assert [(f.name, f.removed, f.added) for f in diff.files] == [("SOUL.md", (), ())]


def test_diffing_two_texts_from_their_first_differing_line_gives_what_diffing_every_line_gives() -> None:
    import random

    from notebook_app.core.sessions.snapshot import diff_bodies, diff_lines

    rng = random.Random(9)
    words = ["- a", "- b", "- c", "", "- d\r", "x"]
    cases = [
        ("", ""),
        ("", "- a"),
        ("- a", ""),
        ("- a\n", "- a\n- b\n"),
        ("- a\n- b", "- a\n- bc"),
        ("- a\n- b", "- a\n- b\n- c"),
    ]
    for _ in range(400):
        old = [rng.choice(words) for _ in range(rng.randrange(0, 12))]
        new = list(old)
        for _ in range(rng.randrange(0, 4)):
            at = rng.randrange(0, len(new) + 1)
            if rng.random() < 0.5 or not new:
                new.insert(at, rng.choice(words))
            else:
                del new[min(at, len(new) - 1)]
        cases.append(("\n".join(old) + rng.choice(["", "\n"]), "\n".join(new) + rng.choice(["", "\n"])))
    for old_text, new_text in cases:
        assert diff_bodies(old_text, new_text) == diff_lines(old_text.split("\n"), new_text.split("\n")), (
            old_text,
            new_text,
        )
