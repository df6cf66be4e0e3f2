"""What ``soul`` and ``doctor`` print today, per host and corpus case: characterization tests for the Host refactor.

Issue 35 folds ``cli/soul_hermes.py``, ``cli/soul_claude.py`` and ``cli/soul_openclaw.py`` into ``cli/soul.py``
behind one ``Host`` per host. Nothing a user sees may change, so this module pins it first: for each host
(``toolnexus``, ``openclaw``, ``hermes``, ``claude-code``) and each corpus case that host's goldens hold
(:func:`host_corpus.cases`), it builds the case as that host's golden test lays it out and runs, in process
through :func:`notebook_app.cli.main.main`, ``soul --host H``, ``soul --host H --json``, ``doctor --host H``
and ``doctor --host H --json``. Each run's exit status, stderr and stdout must equal the committed file
``characterization/<host>/<case>.<soul|doctor>.<txt|json>`` (the ``.json`` file holds the run as a JSON
object, stdout parsed). The layouts: the home is ``<case>/home`` (``$HERMES_HOME`` for Hermes, with
``--cwd <case>/home`` for ``soul`` where the case sets ``cwd``); for Claude Code ``--home`` is the project root
and ``soul --cwd`` the working directory of :func:`host_corpus.claude_dirs`, and ``$HOME`` is
``<case>/user-home``. Each run gets XDG config and state folders of its own and an OpenClaw config that is
not there, as :mod:`cli_process` gives a process, so no run sees what another remembered.

Normalized, because it differs from run to run and from machine to machine:

- the case's folder, written ``{tmp}``, and Claude Code's project slug of it (its memory folder under
  ``~/.claude/projects/``), written ``{tmp-slug}``. The folder is not pytest's ``tmp_path``: a host injects
  paths (OpenClaw's ``[MISSING] Expected at: PATH``), so the length of the folder's path shows in character
  and token counts. Each test takes one of ten folders ``/tmp/pn-characterize/slot-N`` of the same length,
  held with a lock for the test, emptied before and after.

Compacted, because the corpus holds souls of 2 and 4 MiB: a stdout (text run) or a JSON string (JSON run)
over 3,000 characters is kept as its length, sha256, first and last 200 characters. The digest pins every
character, so this weakens nothing; only the diff of a failure is shorter.

Nothing else is normalized: a time, a colour code or an order that changed would fail the test. One order is
the filesystem's: Claude Code reads a rules folder in the order ``os.listdir`` gives, and ext4 lists a folder in
an order of its filesystem's hash seed. ``characterization/listing-order.json`` records how the machine that
wrote the expected files listed each ``rules`` folder of the corpus; a case whose folders this machine lists in
another order is skipped, saying so, rather than failed.

The full matrix (351 host × case pairs, 1,404 runs) takes about 75 s of CPU, over three minutes on the shared
2-core machine, so by default every case runs ``soul --host H`` (text) and a representative subset per host
(:data:`SUBSET`: empty, small, each kind of cut, of unreadable file and of link, and each host's own) runs all
four commands. ``CHARACTERIZE_ALL=1`` checks every committed file: run it once before merging a change to
``soul`` or ``doctor``.

To write the expected files (all of them, and the listing order) again, after a change the lead agreed
changes what a user sees (never to make a refactor pass):
``CHARACTERIZE_WRITE=1 .venv/bin/python -m pytest -q tests/cli/test_soul_doctor_characterization.py``,
then read the diff (``git diff tests/cli/characterization``) before committing it.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import host_corpus
from notebook_app.cli.main import main

EXPECTED = Path(__file__).parent / "characterization"
WRITE = os.environ.get("CHARACTERIZE_WRITE") == "1"
ALL = WRITE or os.environ.get("CHARACTERIZE_ALL") == "1"
LISTING = EXPECTED / "listing-order.json"
BIG = 3000
EDGE = 200
HOSTS = {"toolnexus": "toolnexus-py", "openclaw": "openclaw", "hermes": "hermes", "claude-code": "claude-code"}
"""``--host`` -> the name its goldens hold the corpus under."""
MATRIX = [(host, case) for host, corpus in HOSTS.items() for case in host_corpus.cases(corpus)]
_SHARED = (
    "empty-home",
    "small",
    "soul-cap-plus-1",
    "soul-multibyte-cut",
    "soul-invalid-utf8",
    "soul-empty",
    "soul-directory",
    "soul-link-outside",
    "soul-link-dangling",
    "memory-duplicates",
    "memory-over-limit",
    "memory-invalid-utf8",
    "ctx-agents",
    "flat-all-seven",
)
SUBSET = {
    "toolnexus": _SHARED,
    "openclaw": (*_SHARED, "oc-agents-policy", "oc-file-12001", "oc-total-over", "oc-bootstrap", "oc-memory-lower"),
    "hermes": (*_SHARED, "ctx-agents-cap-plus-1", "hermes-config-memory-off", "hermes-config-broken"),
    "claude-code": (*_SHARED, "cc-parents", "cc-imports", "cc-memory-201-lines", "cc-no-git-subdir", "cc-slug-odd"),
}
"""The cases whose four runs are checked by default (every case's ``soul`` text is)."""


SLOTS = Path("/tmp/pn-characterize")


@pytest.fixture
def slot() -> Iterator[Path]:
    """A folder whose path has the same length and the same tokens in every run, held while the test runs."""
    SLOTS.mkdir(parents=True, exist_ok=True)
    for n in range(10):
        lock = (SLOTS / f"slot-{n}.lock").open("w")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            continue
        folder = SLOTS / f"slot-{n}"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        try:
            yield folder
        finally:
            shutil.rmtree(folder, ignore_errors=True)
            lock.close()
        return
    pytest.fail(f"all ten folders of {SLOTS} are held by other runs")


def _compact(text: str) -> object:
    if len(text) <= BIG:
        return text
    return {
        "length": len(text),
        "sha256": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
        "head": text[:EDGE],
        "tail": text[-EDGE:],
    }


def _compact_json(data: object) -> object:
    if isinstance(data, str):
        return _compact(data)
    if isinstance(data, list):
        return [_compact_json(item) for item in data]
    if isinstance(data, dict):
        return {key: _compact_json(value) for key, value in data.items()}
    return data


def _layout(host: str, case: host_corpus.Case, tmp: Path) -> tuple[list[str], list[str], Path]:
    """``soul``'s and ``doctor``'s arguments after the verb, and ``$HOME``, as the host's golden test lays it out."""
    host_corpus.build(tmp, [case.name])
    base = (tmp / case.name).resolve()
    user = base / host_corpus.CLAUDE_USER
    user.mkdir(exist_ok=True)
    if host == "claude-code":
        root_rel, cwd_rel = host_corpus.claude_dirs(case.name)
        home = ["--host", host, "--home", str(base / root_rel)]
        return [*home, "--cwd", str(base / cwd_rel)], home, user
    home = ["--host", host, "--home", str(base / "home")]
    cwd = ["--cwd", str(base / "home")] if host == "hermes" and case.cwd else []
    return [*home, *cwd], home, user


def _run(
    argv: list[str], tmp: Path, user: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    own = tmp / "xdg" / str(len(list((tmp / "xdg").glob("*"))) if (tmp / "xdg").exists() else 0)
    for name, value in {
        "XDG_CONFIG_HOME": own / "config",
        "XDG_STATE_HOME": own / "state",
        "XDG_DATA_HOME": own / "data",
        "XDG_CACHE_HOME": own / "cache",
        "OPENCLAW_CONFIG_PATH": tmp / "no-openclaw.json",
        "GIT_CEILING_DIRECTORIES": tmp,
        "HOME": user,
    }.items():
        monkeypatch.setenv(name, str(value))
    for name in ("HERMES_HOME", "OPENCLAW_STATE_DIR", "OPENCLAW_PROFILE", "NO_COLOR", "TEXTUAL_THEME"):
        monkeypatch.delenv(name, raising=False)
    own.mkdir(parents=True)
    capsys.readouterr()
    status = main(argv)
    said = capsys.readouterr()
    return status, said.out, said.err


def _normalized(text: str, tmp: Path) -> str:
    for path in sorted({str(tmp.resolve()), str(tmp)}, key=len, reverse=True):
        text = text.replace(host_corpus.claude_slug(path), "{tmp-slug}").replace(path, "{tmp}")
    return text


def _text_record(argv: list[str], status: int, out: str, err: str) -> str:
    shown = _compact(out)
    body = out if isinstance(shown, str) else json.dumps(shown, ensure_ascii=False, indent=1) + "\n"
    return f"$ persona-notebook {' '.join(argv)}\nexit {status}\n--- stderr\n{err}--- stdout\n{body}"


def _json_record(argv: list[str], status: int, out: str, err: str) -> str:
    try:
        stdout: object = _compact_json(json.loads(out))
    except ValueError:
        stdout = {"not json": _compact(out)}
    record = {"argv": argv, "exit": status, "stderr": err.splitlines(), "stdout": stdout}
    return json.dumps(record, ensure_ascii=False, indent=1) + "\n"


def _listings(case: host_corpus.Case, tmp: Path) -> dict[str, list[str]]:
    """Each folder under a ``rules`` folder of the built case -> its entries in this filesystem's order."""
    base = tmp / case.name
    out: dict[str, list[str]] = {}
    for dirpath, _, _ in os.walk(base):
        rel = Path(dirpath).relative_to(base)
        if "rules" in rel.parts:
            out[str(rel)] = os.listdir(dirpath)
    return out


def _same_listing_order(case: host_corpus.Case, tmp: Path) -> None:
    here = _listings(case, tmp)
    if not here:
        return
    if WRITE:
        recorded = json.loads(LISTING.read_text(encoding="utf-8")) if LISTING.exists() else {}
        recorded[case.name] = here
        LISTING.parent.mkdir(parents=True, exist_ok=True)
        LISTING.write_text(json.dumps(dict(sorted(recorded.items())), indent=1) + "\n", encoding="utf-8")
        return
    recorded = json.loads(LISTING.read_text(encoding="utf-8")).get(case.name)
    if recorded != here:
        pytest.skip(f"this filesystem lists {case.name}'s rules folders {here}, the expected files' machine {recorded}")


def _check(path: Path, got: str) -> None:
    if WRITE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(got, encoding="utf-8", newline="\n")
        return
    assert path.exists(), f"{path} is missing: CHARACTERIZE_WRITE=1 writes it"
    expected = path.read_bytes().decode("utf-8")  # not read_text: a CR the soul holds stays a CR
    assert got == expected, f"{path.relative_to(EXPECTED)} changed"


@pytest.mark.parametrize(("host", "case"), MATRIX, ids=[f"{host}-{case.name}" for host, case in MATRIX])
def test_soul_and_doctor_print_what_they_printed_before_the_host_refactor(
    host: str,
    case: host_corpus.Case,
    slot: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    tmp_path = slot
    soul, doctor, user = _layout(host, case, tmp_path)
    _same_listing_order(case, tmp_path)
    full = ALL or case.name in SUBSET[host]
    for verb, args in (("soul", soul), ("doctor", doctor)) if full else (("soul", soul),):
        for json_run in (False, True) if full else (False,):
            argv = [verb, *args, *(["--json"] if json_run else [])]
            status, out, err = _run(argv, tmp_path, user, monkeypatch, capsys)
            shown = [_normalized(a, tmp_path) for a in argv]
            out, err = _normalized(out, tmp_path), _normalized(err, tmp_path)
            record = (_json_record if json_run else _text_record)(shown, status, out, err)
            _check(EXPECTED / host / f"{case.name}.{verb}.{'json' if json_run else 'txt'}", record)


def test_every_expected_file_belongs_to_a_case_of_the_matrix() -> None:
    """A case dropped from the corpus leaves no expected file behind that nothing checks."""
    wanted = {
        f"{host}/{case.name}.{verb}.{ext}"
        for host, case in MATRIX
        for verb in ("soul", "doctor")
        for ext in ("txt", "json")
    }
    present = {str(p.relative_to(EXPECTED)) for p in EXPECTED.rglob("*.*") if p != LISTING}
    assert present <= wanted, sorted(present - wanted)
