"""Every kind of secret a well-kept scanner knows is found by the doctor, and its fix removes all of it (issue 34).

The corpus (``tests/secret_corpus.py``) is built from fragments at test time; the other side holds too: the demo
persona, the host corpus and notes full of the words secrets are named by give no finding.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from secret_corpus import PROSE, corpus

import host_corpus
from notebook_app.core.doctor.check import check_home
from notebook_app.core.doctor.rules.secrets import secret_findings
from notebook_app.core.record.log.actor import NOTEBOOK
from notebook_app.core.text.file_text import FileText
from notebook_app.core.text.secrets import find_secrets, secret_lines, secrets_in

DEMO = Path(__file__).resolve().parents[3] / "notebook_app" / "demo_home"
REPO = Path(__file__).resolve().parents[3]
SOURCE = REPO / "tests" / "secret_corpus.py"


def pieces(secret: str, width: int = 10) -> list[str]:
    """Every run of ``width`` characters of ``secret``: none may be left once it is redacted (no head, no tail)."""
    return [secret[i : i + width] for i in range(0, max(1, len(secret) - width + 1))]


def committed_texts() -> dict[str, str]:
    """Every text file under tests/ and benchmarks/, by its path from the repository (caches and bytes left out)."""
    texts = {}
    for folder in ("tests", "benchmarks"):
        for path in sorted((REPO / folder).rglob("*")):
            if not path.is_file() or any(part.startswith(".") or part == "__pycache__" for part in path.parts):
                continue
            try:
                texts[path.relative_to(REPO).as_posix()] = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
    return texts


def test_the_corpus_holds_25_kinds_or_more_and_none_is_written_whole_in_the_source() -> None:
    cases = corpus()
    source = SOURCE.read_text(encoding="utf-8")
    assert len({case.kind for case in cases}) >= 25
    assert [case.kind for case in cases if case.secret in source or case.text in source] == []
    assert all(case.secret in case.text for case in cases)
    everywhere = committed_texts()
    assert [(path, case.kind) for path, text in everywhere.items() for case in cases if case.secret in text] == []


def test_no_file_under_tests_or_benchmarks_holds_a_secret_whole() -> None:
    """Issue 34 (decided): a fake secret in a test is assembled from fragments at test time, never committed whole,
    so the project's own finder, asked about each committed file of tests/ and benchmarks/, finds none."""
    found = [
        f"{path}:{number}: {kind}" for path, text in committed_texts().items() for number, kind in secret_lines(text)
    ]
    assert found == []


def test_the_doctor_finds_every_kind_and_its_fix_redacts_each_whole(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    cases = corpus()
    (home / "MEMORY.md").write_text("".join(f"- {case.text}\n" for case in cases), encoding="utf-8")
    found = [f for f in check_home(home).findings if f.rule == "security.secret"]
    assert [f.line for f in found] == list(range(1, len(cases) + 1))
    for finding, case in zip(found, cases, strict=True):
        assert case.secret not in finding.message and case.secret[-10:] not in finding.message, case.kind
    while fixes := [f.fix for f in check_home(home).findings if f.rule == "security.secret" and f.fix]:
        assert not fixes[0].apply(home, by=NOTEBOOK).is_error
    left = (home / "MEMORY.md").read_text(encoding="utf-8")
    assert left.count("[redacted]") >= len(cases)
    assert [case.kind for case in cases if any(piece in left for piece in pieces(case.secret))] == []


def test_a_long_key_is_redacted_to_its_end_not_32_characters() -> None:
    """detect-secrets' Stripe shape names ``sk_live_`` and 24 characters; a real key runs on (issue 34, Data 3)."""
    stripe = next(case for case in corpus() if case.kind == "stripe live key, long")
    (hit,) = find_secrets(stripe.text)
    assert stripe.text[hit.start : hit.end] == stripe.secret and len(stripe.secret) > 100


def test_aws_secret_keys_are_found_by_their_names_and_beside_their_key_id() -> None:
    for kind in ("aws secret by env name", "aws secret beside its id", "aws credentials file line"):
        case = next(c for c in corpus() if c.kind == kind)
        hits = find_secrets(case.text)
        assert [(h.kind, case.text[h.start : h.end]) for h in hits if h.kind == "AWS secret access key"] == [
            ("AWS secret access key", case.secret)
        ], kind


def test_text_already_masked_is_no_secret() -> None:
    """What the guard and a redaction leave (the marker, ``[redacted]``) and how the notebook shows a secret."""
    for text in (
        "router password: " + "*" * 14,
        "AWS_SECRET_ACCESS_KEY=" + "*" * 40,
        "api_token: [redacted]",
        "password = hun… (14 characters)",
        "- stripe " + "*" * 107,
    ):
        assert secrets_in(text) == [], text


def test_notes_full_of_secret_words_the_demo_and_the_host_corpus_give_no_finding(tmp_path: Path) -> None:
    assert secrets_in(PROSE) == []
    demo = tmp_path / "demo"
    shutil.copytree(DEMO, demo)
    assert [f for f in check_home(demo).findings if f.rule.startswith("security.secret")] == []
    host_corpus.build(tmp_path / "hosts")
    files = [p for p in sorted((tmp_path / "hosts").rglob("*")) if p.is_file() and not p.is_symlink()]
    assert len(files) > 100
    found = {str(p): secret_findings(FileText(p.name, p.read_bytes(), p.stat().st_size)) for p in files}
    assert {path: [f.message for f in hits] for path, hits in found.items() if hits} == {}


def test_a_private_key_block_over_many_lines_is_found_and_redacted_line_by_line(tmp_path: Path) -> None:
    """The key is its body, not its BEGIN line: every line up to END is the secret (issue 34, Data 3)."""
    from secret_corpus import BASE64, chars

    home = tmp_path / "home"
    home.mkdir()
    body = [chars(BASE64, 64, f"pem-{n}") for n in range(5)]
    block = ["-----BEGIN RSA " + "PRIVATE KEY-----", *body, "-----END RSA " + "PRIVATE KEY-----"]
    (home / "SOUL.md").write_text("You are Kip.\n" + "\n".join(block) + "\nBe brief.\n", encoding="utf-8")
    found = [f for f in check_home(home).findings if f.rule == "security.secret"]
    assert [f.line for f in found] == list(range(2, 9))
    while fixes := [f.fix for f in check_home(home).findings if f.rule == "security.secret" and f.fix]:
        assert not fixes[0].apply(home, by=NOTEBOOK).is_error
    left = (home / "SOUL.md").read_text(encoding="utf-8")
    assert left == "You are Kip.\n" + "[redacted]\n" * 7 + "Be brief.\n"
