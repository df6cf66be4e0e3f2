"""The doctor's rules cost what the file's length costs, on any line (issue 34).

One line of 2 MiB with no space made the lookalike rule try each of its
characters as a word's start and read on to the line's end (quadratic: hours);
``<p`` repeated did the same to the hidden-markup rule, and JWT- or npm-like
runs to the secret formats. No timing here: the formats' repetitions are
checked bounded by their structure, and the doctor on a home of such lines
must finish under a generous deadline that a quadratic rule misses by hours.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from notebook_app.core.doctor.rules.security import mixed_script_findings
from notebook_app.core.text import secret_shapes, secrets
from notebook_app.core.text.file_text import FileText
from tests.pathological_homes import pathological_home

try:  # Python 3.11+
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_parse  # type: ignore[no-redef]


def _unbounded(tree: object) -> list[str]:
    """Each repetition in a parsed expression with no upper bound."""
    found: list[str] = []
    for op, arg in tree:  # type: ignore[attr-defined]
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, inner = arg
            if high == sre_parse.MAXREPEAT:
                found.append(f"{{{low},}} over {list(inner)[:2]}")
            found += _unbounded(inner)
        elif name == "SUBPATTERN":
            found += _unbounded(arg[-1])
        elif name == "BRANCH":
            for branch in arg[1]:
                found += _unbounded(branch)
        elif name in ("ASSERT", "ASSERT_NOT"):
            found += _unbounded(arg[1])
        elif name == "ATOMIC_GROUP":
            found += _unbounded(arg)
    return found


def test_every_repetition_in_the_secret_formats_is_bounded() -> None:
    expression, kinds = secret_shapes.combined()
    assert _unbounded(sre_parse.parse(expression.pattern, expression.flags)) == []
    for _, alone in kinds.values():  # each shape asked again alone, for the secret inside its frame
        assert _unbounded(sre_parse.parse(alone.pattern, alone.flags)) == [], alone.pattern


def test_the_bounded_formats_still_find_what_they_found() -> None:
    assert secret_shapes.bounded(r"eyJ[A-Za-z0-9-_=]+\.[a-z+*]*?x{3,}\+\*") == (
        r"eyJ[A-Za-z0-9-_=]{1,512}\.[a-z+*]{0,512}?x{3,512}\+\*"
    )
    token = "ghp_" + "A1b2C3d4E5" * 3 + "f6G7h8"
    line = "- the token " + token + " is here"
    assert [hit.kind for hit in secrets.find_secrets(line)] == ["GitHub Token"]


def test_each_shape_searched_alone_finds_what_the_one_expression_finds() -> None:
    """The finder asks each shape where it next matches and the one expression only there (issue 34): asked at every
    character, the alternation of every shape cost many seconds on a 2 MiB line of token characters. The matches,
    their kinds and their order are the expression's own."""
    from secret_corpus import corpus

    expression, kinds = secret_shapes.combined()
    shapes = [pattern for _, pattern in kinds.values()]
    texts = [case.text for case in corpus()]
    texts += ["  ".join(texts), "\n".join(texts), "- " + "eyJ1" * 3000, "- " + "://1" * 3000, "- " + "Ab9_" * 3000]
    texts += ["x" * n + "".join(texts[:12]) for n in (0, 1, 7, 513)]
    for text in texts:
        for pos, endpos in ((0, len(text)), (3, len(text) - 5), (len(text) // 3, len(text))):
            expected = [(m.span(), m.lastgroup) for m in expression.finditer(text, pos, endpos)]
            found = [(m.span(), m.lastgroup) for m in secret_shapes.leftmost(expression, shapes, text, pos, endpos)]
            assert found == expected, (text[:60], pos, endpos)
    assert sum(len(list(expression.finditer(text))) for text in texts) > 100
    for kind, pattern in kinds.values():  # a shape skipped where its needle is missing could never match there
        if kind in secret_shapes.NEEDLES:
            assert not pattern.flags & re.IGNORECASE
            assert secret_shapes.NEEDLES[kind] in re.sub(r"\\(.)", r"\1", pattern.pattern), kind
    assert set(secret_shapes.NEEDLES) <= {kind for kind, _ in kinds.values()}


def test_a_long_line_is_read_whole_in_windows_and_a_secret_across_a_window_edge_is_found_whole() -> None:
    token = "ghp_" + "A1b2C3d4E5" * 3 + "f6G7h8"
    for at in (0, secrets.WINDOW - 10, secrets.WINDOW * 3 + 7, 50_000):
        line = "x " * (at // 2) + token + " y" * 30_000
        hits = secrets.find_secrets(line)
        assert [line[hit.start : hit.end] for hit in hits] == [token], at


def test_the_lookalike_rule_reads_a_word_once_and_still_finds_lookalikes() -> None:
    text = "- pay \u0440aypal now\n" + "y" * 300_000 + "\u0430\n"
    file = FileText("MEMORY.md", text.encode(), len(text.encode()))
    found = mixed_script_findings(file)
    assert [f.line for f in found] == [1]
    assert re.search("Cyrillic", found[0].message)


def test_the_doctor_on_two_mib_lines_that_were_quadratic_finishes(tmp_path: Path) -> None:
    """Each of these lines took the old rules hours (and the exact token count of one of them too);
    the doctor, a real process, finishes far inside 5 minutes."""
    home = pathological_home(tmp_path / "home")
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "OPENCLAW_CONFIG_PATH": str(tmp_path / "no-openclaw.json"),
        "GIT_CEILING_DIRECTORIES": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-m", "notebook_app", "doctor", "--home", str(home), "--json", "--tokens"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr[-2000:]
    assert '"security.invisible"' in done.stdout
    assert '"security.hidden-markup"' not in done.stdout
    tokens = json.loads(done.stdout)["budget"]["tokens"]
    assert isinstance(tokens, int) and tokens > 0  # counted too: byte-pair encoding of one long run was quadratic


def test_the_hidden_character_rule_looks_at_a_bounded_number_of_them(monkeypatch) -> None:
    """2 MiB of zero-width spaces took the rule 13 s, one look in Python each: it stops past MAX_HIDDEN and says so."""
    from notebook_app.core.doctor.rules import security

    looked: list[int] = []
    real = security.iter_hidden

    def counting(text: str):
        for item in real(text):
            looked.append(1)
            yield item

    monkeypatch.setattr(security, "iter_hidden", counting)
    text = "- a\u200bb\n" + ("- x" + "\u200b" * 1000 + "y\n") * 50
    file = FileText("MEMORY.md", text.encode(), len(text.encode()))
    found = security.hidden_findings(file)
    assert len(looked) <= 2 * security.MAX_HIDDEN + 2  # of 50,001; each line named is read once more for its fix
    assert found[0].line == 1 and found[0].fix is not None
    last = found[-1]
    assert last.message == (
        "MEMORY.md holds more than 10,000 hidden characters: the doctor named those up to line 11 and looked no further"
    )
