"""Secrets on the command line: every kind found by the doctor, export's plan and ``pending``; never printed whole
by any verb; a write holding one says so; a redaction covers all of it (issue 34). Real processes throughout."""

from __future__ import annotations

import json
import re
import zlib
from pathlib import Path

from cli_process import run
from secret_corpus import Case, corpus

from notebook_app.core.record.log.actor import Actor
from notebook_app.core.memory.review.decisions import propose

AGENT = Actor.mcp("s-1", "client", "1.0")


def pieces(secret: str, width: int = 10) -> list[str]:
    """Every run of ``width`` characters of ``secret``: printing or keeping any of them shows too much of it."""
    return [secret[i : i + width] for i in range(0, max(1, len(secret) - width + 1))]


def shown(cases: list[Case], said: str) -> list[str]:
    """The kinds whose secret is (in part) in ``said``."""
    return [case.kind for case in cases if any(piece in said for piece in pieces(case.secret))]


def corpus_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / "SOUL.md").write_text("You are Kip.\n", encoding="utf-8")
    (home / "MEMORY.md").write_text("".join(f"- {case.text}\n" for case in corpus()), encoding="utf-8")
    return home


def kept_by_history(home: Path) -> str:
    """Every byte the history keeps, snapshots decompressed."""
    data = (home / ".notebook" / "events.jsonl").read_bytes()
    for snap in sorted((home / ".notebook" / "snapshots").glob("*.z")):
        data += zlib.decompress(snap.read_bytes())
    return data.decode("utf-8", "replace")


def test_the_doctor_names_every_kind_by_its_line_and_shows_none(tmp_path: Path) -> None:
    home = corpus_home(tmp_path)
    result = run("doctor", "--home", str(home), "--json", tmp=tmp_path)
    assert result.returncode == 1, result.stderr
    found = [f for f in json.loads(result.stdout)["findings"] if f["rule"] == "security.secret"]
    assert [f["line"] for f in found] == list(range(1, len(corpus()) + 1))
    text = run("doctor", "--home", str(home), tmp=tmp_path)
    assert shown(corpus(), result.stdout + result.stderr + text.stdout + text.stderr) == []


def test_exports_plan_names_every_kind_and_refuses_to_carry_them(tmp_path: Path) -> None:
    home = corpus_home(tmp_path)
    dest = tmp_path / "dest"
    plan = run("export", "--home", str(home), "--to", "openclaw", str(dest), "--json", tmp=tmp_path)
    secrets = json.loads(plan.stdout)["plan"]["secrets"] if plan.stdout else None
    assert secrets is not None, plan.stderr
    assert sorted({s["line"] for s in secrets if s["file"] == "MEMORY.md"}) == list(range(1, len(corpus()) + 1))
    words = run("export", "--home", str(home), "--to", "openclaw", str(dest), tmp=tmp_path)
    applied = run("export", "--home", str(home), "--to", "openclaw", str(dest), "--apply", tmp=tmp_path)
    assert applied.returncode == 1 and not dest.exists()
    said = plan.stdout + plan.stderr + words.stdout + words.stderr + applied.stdout + applied.stderr
    assert shown(corpus(), said) == []


def test_pending_marks_every_proposal_holding_a_secret_and_shows_none_whole(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "MEMORY.md").write_text("- prefers metric units\n", encoding="utf-8")
    cases = corpus()
    for case in cases:
        assert not propose(home, {"action": "add", "text": case.text}, by=AGENT).is_error
    listed = run("pending", "--home", str(home), tmp=tmp_path)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert len(lines) == len(cases)
    assert [case.kind for case, line in zip(cases, lines, strict=True) if "⚠ holds" not in line] == []
    assert shown(cases, listed.stdout + listed.stderr) == []
    assert json.loads(run("pending", "--home", str(home), "--json", tmp=tmp_path).stdout)[0]["text"] == cases[0].text
    rejected = run("reject", "--all", "--home", str(home), tmp=tmp_path)
    assert rejected.returncode == 0, rejected.stderr
    assert shown(cases, kept_by_history(home)) == []  # a rejected proposal keeps only where its secret was


def stripe(tmp_path: Path) -> tuple[Path, Case]:
    home = tmp_path / "home"
    home.mkdir()
    (home / "MEMORY.md").write_text("- prefers metric units\n", encoding="utf-8")
    return home, next(case for case in corpus() if case.kind == "stripe live key, long")


def test_a_cli_write_holding_a_secret_says_so_and_no_answer_prints_it_whole(tmp_path: Path) -> None:
    home, case = stripe(tmp_path)
    added = run("memory", "add", case.text, "--home", str(home), tmp=tmp_path)
    assert added.returncode == 0 and added.stdout.startswith("ok (add → MEMORY.md)")
    assert "⚠ what was written holds a Stripe Access Key: sk_live_" in added.stderr
    missed = run("memory", "remove", f"{case.secret} again", "--home", str(home), tmp=tmp_path)
    assert missed.returncode == 1 and missed.stderr.startswith("not found: sk_live_")
    as_json = run("memory", "remove", f"{case.secret} again", "--home", str(home), "--json", tmp=tmp_path)
    assert json.loads(as_json.stdout)["output"].startswith("not found: sk_live_")
    assert shown([case], added.stdout + added.stderr + missed.stdout + missed.stderr + as_json.stdout) == []


def test_history_redact_masks_a_long_key_to_its_end(tmp_path: Path) -> None:
    home, case = stripe(tmp_path)
    assert run("memory", "add", case.text, "--home", str(home), tmp=tmp_path).returncode == 0
    records = json.loads(run("history", "--home", str(home), "--json", tmp=tmp_path).stdout)
    record = next(r["id"] for r in records if r.get("action") == "add")
    redacted = run("history", "--redact", record, "--home", str(home), tmp=tmp_path)
    assert redacted.returncode == 0, redacted.stderr
    assert shown([case], kept_by_history(home)) == []
    assert re.search(r"\*{107}", kept_by_history(home))


def test_views_of_content_keep_the_bytes_and_mark_the_secret(tmp_path: Path) -> None:
    """``soul``, ``blame`` and ``history`` show a file's content as it is (issue 34, Decided): the secret is marked
    ⚠ beside it, and --json stays exact."""
    home, case = stripe(tmp_path)
    assert run("memory", "add", case.text, "--home", str(home), tmp=tmp_path).returncode == 0
    soul = run("soul", "--home", str(home), tmp=tmp_path)
    assert case.text in soul.stdout
    assert "⚠ line 4 of the soul holds a Stripe Access Key; the doctor names where" in soul.stderr
    assert case.secret in json.loads(run("soul", "--home", str(home), "--json", tmp=tmp_path).stdout)["soul"]
    blame = run("blame", "MEMORY.md", "--home", str(home), tmp=tmp_path).stdout.splitlines()
    assert blame[0].endswith(" 1 │ - prefers metric units") and blame[1].endswith(f" 2⚠│ - {case.text}")
    listed = run("history", "--home", str(home), tmp=tmp_path).stdout.splitlines()
    assert listed[0].endswith("⚠ holds a Stripe Access Key") and case.text[:40] in listed[0]


def test_a_tidy_plan_names_the_entries_it_moves_without_their_secrets(tmp_path: Path) -> None:
    home, case = stripe(tmp_path)
    (home / "MEMORY.md").write_text(f"- ok\n- {case.text}\n- {case.text}\n", encoding="utf-8")
    planned = run("tidy", "--home", str(home), tmp=tmp_path)
    assert planned.returncode == 0, planned.stderr
    assert "line 3: - stripe sk_live_… (107 characters)" in planned.stdout
    assert shown([case], planned.stdout + planned.stderr) == []


def test_an_approval_that_writes_a_secret_says_so(tmp_path: Path) -> None:
    home, case = stripe(tmp_path)
    assert not propose(home, {"action": "add", "text": case.text}, by=AGENT).is_error
    approved = run("approve", "--all", "--home", str(home), tmp=tmp_path)
    assert approved.returncode == 0, approved.stderr
    assert "⚠ what was written holds a Stripe Access Key: sk_live_" in approved.stderr
    assert shown([case], approved.stdout + approved.stderr) == [] and case.text in (home / "MEMORY.md").read_text()
