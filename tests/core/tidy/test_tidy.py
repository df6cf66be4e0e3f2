"""Tidy's proposal on real homes: each planted problem found, in words, with its evidence; nothing written."""

from __future__ import annotations

from hashlib import sha256
from pathlib import Path

from home_bytes import files_of

from notebook_app.core.home.layout import hermes_files
from notebook_app.core.hosts.choice import resolve_host
from notebook_app.core.tidy.model import Kind, archive_for, to_json
from notebook_app.core.tidy.propose import tidy

REPO = Path(__file__).resolve().parents[3]
DEMO = REPO / "notebook_app" / "demo_home"

PLANTED = (
    "# notes\n"
    "\n"
    "- prefers tea\n"
    "- Prefers tea, in the morning with milk\n"
    "- timezone: UTC\n"
    "- prefers tea\n"
    "-\n"
    "\n"
    "\n"
    "\n"
    "some prose\n"
    "- Timezone: IST\n"
    "- server port is 8080\n"
    "- server port is 8081\n"
    "- see https://example.com\n"
    "- see https://example.org\n"
    "- lights on at dusk\n"
    "- lights off at dusk\n"
)


def _hex(number: int) -> str:
    """A word no other entry has: distinct entries that are no one's near duplicate."""
    return sha256(str(number).encode()).hexdigest()


def kinds(proposal) -> dict[Kind, list[list[int]]]:
    found: dict[Kind, list[list[int]]] = {}
    for hunk in proposal.hunks:
        found.setdefault(hunk.kind, []).append([entry.line for entry in hunk.entries])
    return found


def test_the_shipped_demo_gives_no_hunks() -> None:
    proposal = tidy(DEMO)
    assert proposal.hunks == ()
    assert proposal.looked_at == ("MEMORY.md", "USER.md")


def test_each_planted_problem_is_one_hunk_and_nothing_else_is(home: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    assert kinds(tidy(home)) == {
        Kind.NEAR_DUPLICATE: [[3]],
        Kind.SUPERSEDED: [[5]],
        Kind.EXACT_DUPLICATE: [[6]],
        Kind.EMPTY: [[7], [9, 10]],
    }


def test_tidy_writes_nothing_in_the_home(home: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    before = files_of(home)
    tidy(home)
    assert files_of(home) == before
    assert sorted(p.name for p in home.iterdir()) == ["MEMORY.md"]


def test_a_hunk_says_what_stays_and_where_the_rest_goes(home: Path) -> None:
    (home / "MEMORY.md").write_text(PLANTED)
    by_kind = {hunk.kind: hunk for hunk in tidy(home).hunks}
    near = by_kind[Kind.NEAR_DUPLICATE]
    assert near.reason == (
        "line 3 of MEMORY.md says what line 4 says, in nearly the same words (token set ratio 100): "
        "line 4 is kept, it moves to memory/ARCHIVE.md"
    )
    assert dict(near.evidence) == {"ratio": "100", "kept": "line 4: Prefers tea, in the morning with milk"}
    old = by_kind[Kind.SUPERSEDED]
    assert dict(old.evidence)["key"] == "timezone" and "the later line" in old.reason
    assert old.entries[0].text == "timezone: UTC"
    exact = by_kind[Kind.EXACT_DUPLICATE]
    assert exact.reason == "line 6 of MEMORY.md repeats line 3 word for word: the later copy is removed"


def test_lines_that_are_not_entries_are_reported_grouped_never_proposed(home: Path) -> None:
    (home / "MEMORY.md").write_text("# notes\nprose one\n\nprose two\n- an entry\nmore prose\n")
    proposal = tidy(home)
    assert proposal.hunks == ()
    assert [(s.first, s.last, s.count, s.sample) for s in proposal.strays] == [
        (1, 4, 3, "# notes"),
        (6, 6, 1, "more prose"),
    ]


def test_a_hunk_id_is_the_digest_of_its_bytes_and_changes_when_they_do(home: Path) -> None:
    memory = home / "MEMORY.md"
    memory.write_text("- a fact\n- something else entirely\n- a fact\n")
    first = tidy(home).hunks[0].id
    assert len(first) == 12 and int(first, 16) >= 0
    memory.write_text("- new line above\n- a fact\n- something else entirely\n- a fact\n")
    assert tidy(home).hunks[0].id == first  # the same bytes on another line: the same hunk
    memory.write_text("- a fact\n- something else entirely\n- a fact\r\n")
    assert tidy(home).hunks[0].id != first  # its bytes changed (the line ending): a stale id


def test_a_superseded_fact_needs_a_short_key_and_a_different_value(home: Path) -> None:
    key = "k" * 41
    (home / "MEMORY.md").write_text(
        f"- {key}: one\n- {key}: two\n- editor: vim\n- Editor:  Vim\n- see: https://a.example\n- see: b\n"
    )
    assert kinds(tidy(home)).get(Kind.SUPERSEDED) == [[5]]  # the long key's pair and the same value's: not


def test_a_url_is_not_a_key(home: Path) -> None:
    (home / "MEMORY.md").write_text("- https://one.example/a\n- https://two.example/b\n")
    assert tidy(home).hunks == ()


def test_over_the_contracts_cap_the_earliest_entries_move_until_the_file_is_at_the_target(home: Path) -> None:
    lines = [f"- {_hex(i)}\n" for i in range(34_000)]  # 2.2 MB, over the 2 MiB cap
    (home / "MEMORY.md").write_text("".join(lines))
    (hunk,) = tidy(home, target=0.5).hunks
    assert hunk.kind is Kind.OVER_BUDGET
    moved = len(hunk.entries)
    assert [e.line for e in hunk.entries] == list(range(1, moved + 1))
    left = sum(len(line) for line in lines[moved:])
    assert left <= 2 * 1024 * 1024 * 0.5 < left + len(lines[moved - 1])  # at the target, not one entry past it
    assert "2,097,152 bytes" in hunk.reason and "memory/ARCHIVE.md" in hunk.reason


def test_hermes_limit_is_its_meter_and_entries_are_its_sections(home: Path) -> None:
    store = home / "memories"
    store.mkdir()
    entries = [f"{_hex(i)} {_hex(-i)[:30]}" for i in range(30)]  # about 2,900 characters, over 2,200
    (store / "MEMORY.md").write_text("\n§\n".join(entries))
    (hunk,) = tidy(home, hermes_files()).hunks
    assert hunk.kind is Kind.OVER_BUDGET and "2,200 characters" in hunk.reason
    kept = entries[len(hunk.entries) :]
    assert len("\n§\n".join(kept)) <= 2200 * 0.9 < len("\n§\n".join(entries[len(hunk.entries) - 1 :]))
    assert hunk.entries[0].line == 1 and hunk.entries[1].line == 3  # a section per separator line
    assert "memories/ARCHIVE.md" in hunk.reason


def test_hermes_repeats_and_rewordings_are_found_in_its_sections(home: Path) -> None:
    store = home / "memories"
    store.mkdir()
    (store / "USER.md").write_text("likes green tea\n§\nname: Ana\n§\nlikes green tea\n§\nLikes green tea a lot")
    found = kinds(tidy(home, hermes_files()))
    assert found == {Kind.NEAR_DUPLICATE: [[1]], Kind.EXACT_DUPLICATE: [[5]]}


def test_claude_codes_line_cap_is_a_budget(home: Path) -> None:
    (home / "MEMORY.md").write_text("".join(f"- {_hex(i)[:20]}\n" for i in range(250)))
    profile = resolve_host("claude-code").profile
    (hunk,) = tidy(home, profile=profile).hunks
    assert hunk.kind is Kind.OVER_BUDGET and "200 lines" in hunk.reason
    assert len(hunk.entries) == 250 - 180


def test_a_file_that_cannot_be_read_is_named_and_left_out(home: Path) -> None:
    import os

    os.mkfifo(home / "MEMORY.md")
    (home / "USER.md").write_text("- a\n§\nb\n")
    proposal = tidy(home)
    assert proposal.hunks == ()
    assert [u.file for u in proposal.untidied] == ["MEMORY.md", "USER.md"]
    assert "FIFO" in proposal.untidied[0].reason
    assert "both '- ' lines and Hermes's '§'-separated entries" in proposal.untidied[1].reason


def test_bad_utf8_is_shown_replaced_and_its_bytes_kept_in_the_id(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- caf\xe9\n- caf\xe9\n")
    (hunk,) = tidy(home).hunks
    assert hunk.entries[0].text == "caf\ufffd"
    (home / "MEMORY.md").write_bytes(b"- caf\xe8\n- caf\xe8\n")
    assert tidy(home).hunks[0].id != hunk.id


def test_the_archive_names_are_the_specs(home: Path) -> None:
    assert {name: archive_for(name) for name in ("toolnexus", "openclaw", "hermes", "claude-code")} == {
        "toolnexus": "memory/ARCHIVE.md",
        "openclaw": "memory/ARCHIVE.md",
        "hermes": "memories/ARCHIVE.md",
        "claude-code": "ARCHIVE.md",
    }


def test_the_json_shape(home: Path) -> None:
    (home / "MEMORY.md").write_text("- a fact\n- a fact\n")
    data = to_json(tidy(home))
    assert data["schema"] == 1 and data["dry_run"] is True and data["host"] == "toolnexus"
    (hunk,) = data["hunks"]
    assert set(hunk) == {"id", "kind", "file", "removes", "moves_to", "reason", "entries", "evidence"}
    assert hunk["kind"] == "exact-duplicate" and hunk["removes"] is True and hunk["moves_to"] is None
    assert hunk["entries"] == [{"file": "MEMORY.md", "line": 2, "text": "a fact"}]
