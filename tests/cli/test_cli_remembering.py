"""A read never remembers a host; a write aimed with ``--host`` does, with the time, and says so on later writes.

Issue 34, data item 1: ``soul --host hermes`` on a plain home remembered Hermes, and the next plain
``memory add`` made a Hermes store beside the real MEMORY.md. Real processes (tests/cli_process.py), the
state folder pinned in the test's tmp.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import pytest
from cli_process import run

READS = [
    pytest.param(("soul",), id="soul"),
    pytest.param(("doctor",), id="doctor"),
    pytest.param(("history",), id="history"),
    pytest.param(("history", "--file", "MEMORY.md"), id="history-file"),
    pytest.param(("blame", "MEMORY.md"), id="blame"),
    pytest.param(("tidy",), id="tidy-dry-run"),
    pytest.param(("undo", "0000", "--dry-run"), id="undo-dry-run"),
    pytest.param(("pending",), id="pending"),
    pytest.param(("review", "status"), id="review-status"),
    pytest.param(("export", "--to", "openclaw", "DEST"), id="export-plan"),
]

SINCE = re.compile(r"since (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d)")


@pytest.fixture
def user(tmp_path: Path) -> Path:
    path = tmp_path / "user"
    path.mkdir()
    return path


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    """A toolnexus home by its layout: MEMORY.md at the top, no host's folder."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "MEMORY.md").write_text("- tn entry\n")
    return home


def hosts_file(tmp_path: Path) -> Path:
    return tmp_path / "state" / "persona-notebook" / "hosts.json"


def _read(verb: tuple[str, ...], tmp_path: Path) -> tuple[str, ...]:
    return tuple(str(tmp_path / "dest") if word == "DEST" else word for word in verb)


@pytest.mark.parametrize("host", ["hermes", "claude-code"])
@pytest.mark.parametrize("verb", READS)
def test_a_read_with_host_remembers_nothing_and_the_next_plain_write_goes_where_it_went(
    tmp_path: Path, user: Path, plain: Path, verb: tuple[str, ...], host: str
) -> None:
    looked = run(*_read(verb, tmp_path), "--home", str(plain), "--host", host, tmp=tmp_path, home=user)
    assert looked.returncode in (0, 1, 2), looked.stderr
    assert not hosts_file(tmp_path).exists()
    added = run("memory", "add", "after preview", "--home", str(plain), tmp=tmp_path, home=user)
    assert (added.returncode, added.stdout, added.stderr) == (0, "ok (add → MEMORY.md); loads next session\n", "")
    assert (plain / "MEMORY.md").read_text() == "- tn entry\n- after preview\n"
    assert not (plain / "memories").exists()


def test_a_write_aimed_with_host_is_remembered_with_its_time_and_later_writes_say_so_on_stderr_only(
    tmp_path: Path, user: Path, plain: Path
) -> None:
    before = datetime.now().astimezone()
    aimed = run("memory", "add", "as hermes", "--home", str(plain), "--host", "hermes", tmp=tmp_path, home=user)
    assert aimed.returncode == 0, aimed.stderr
    kept = json.loads(hosts_file(tmp_path).read_text())[str(plain.resolve())]
    assert kept["host"] == "hermes"
    assert datetime.fromisoformat(kept["since"].replace("Z", "+00:00")) >= before.replace(microsecond=0)

    later = run("memory", "add", "plain write", "--home", str(plain), tmp=tmp_path, home=user)
    assert later.returncode == 0
    # a write on a Hermes home names its store MEMORY.md, as the doctor and the panes do; its real path is said on
    # the remembered line, beside the toolnexus MEMORY.md, or the two would read as the same file
    assert later.stdout.startswith("ok (add → MEMORY.md)")
    assert (plain / "memories" / "MEMORY.md").read_text().endswith("plain write")
    assert "remembered" not in later.stdout
    lines = later.stderr.splitlines()
    assert len([line for line in lines if "remembered" in line]) == 1
    said = next(line for line in lines if "remembered" in line)
    assert said.startswith("persona-notebook: as Hermes, remembered for this folder since ")
    assert said.endswith(": it writes memories/MEMORY.md; `--host toolnexus` writes MEMORY.md"), said
    since = SINCE.search(said)
    assert since is not None and datetime.fromisoformat(since.group(1)) >= before.replace(second=0, microsecond=0)

    as_json = run("memory", "add", "json write", "--home", str(plain), "--json", tmp=tmp_path, home=user)
    assert "remembered" not in as_json.stdout
    assert json.loads(as_json.stdout)["is_error"] is False
    assert sum("remembered" in line for line in as_json.stderr.splitlines()) == 1

    back = run("memory", "add", "toolnexus again", "--home", str(plain), "--host", "toolnexus", tmp=tmp_path, home=user)
    assert back.stdout.startswith("ok (add → MEMORY.md)")
    assert (plain / "MEMORY.md").read_text() == "- tn entry\n- toolnexus again\n"
    assert json.loads(hosts_file(tmp_path).read_text())[str(plain.resolve())]["host"] == "toolnexus"


def test_a_read_of_a_home_whose_host_is_remembered_says_since_when(tmp_path: Path, user: Path, plain: Path) -> None:
    run("memory", "add", "x", "--home", str(plain), "--host", "openclaw", tmp=tmp_path, home=user)
    soul = run("soul", "--home", str(plain), tmp=tmp_path, home=user)
    assert soul.stderr.splitlines()[0].startswith(
        "persona-notebook: opened as OpenClaw: the host remembered for this folder since "
    )
    assert "remembered" not in soul.stdout


def test_a_write_aimed_with_host_that_is_refused_is_not_remembered(tmp_path: Path, user: Path, plain: Path) -> None:
    refused = run("memory", "add", "x", "--home", str(plain), "--host", "claude-code", tmp=tmp_path, home=user)
    assert refused.returncode == 2 and "does not exist; nothing was written" in refused.stderr
    assert not hosts_file(tmp_path).exists()
    added = run("memory", "add", "after", "--home", str(plain), tmp=tmp_path, home=user)
    assert (added.returncode, added.stderr) == (0, "")


def test_the_doctor_names_a_remembered_host_the_layout_does_not_fit_and_its_fix_forgets_it(
    tmp_path: Path, user: Path, plain: Path
) -> None:
    """What the old rule left: hermes remembered for a plain home by a preview (no time: the old file's shape)."""
    state = hosts_file(tmp_path)
    state.parent.mkdir(parents=True)
    state.write_text(json.dumps({str(plain.resolve()): {"host": "hermes"}}))
    done = run("doctor", "--home", str(plain), "--json", tmp=tmp_path, home=user)
    assert done.returncode == 1
    found = [f for f in json.loads(done.stdout)["findings"] if f["rule"] == "host.remembered"]
    assert len(found) == 1
    assert found[0]["severity"] == "warning"
    assert "Hermes is remembered for this folder" in found[0]["message"]
    assert "no host's layout" in found[0]["message"]
    assert found[0]["fix"] == "forget Hermes for this folder (the per-user state only; the home is not written)"
    text = run("doctor", "--home", str(plain), "--host", "toolnexus", tmp=tmp_path, home=user)
    assert "host.remembered" in text.stdout  # whichever host is in view


def test_the_doctor_says_nothing_of_a_remembered_host_the_layout_fits(tmp_path: Path, user: Path, plain: Path) -> None:
    run("memory", "add", "x", "--home", str(plain), "--host", "toolnexus", tmp=tmp_path, home=user)
    done = run("doctor", "--home", str(plain), "--json", tmp=tmp_path, home=user)
    assert [f for f in json.loads(done.stdout)["findings"] if f["rule"] == "host.remembered"] == []


@pytest.mark.parametrize(
    "verb", [("history",), ("soul",), ("doctor",), ("memory", "add", "named")], ids=["history", "soul", "doctor", "add"]
)
def test_a_hosts_own_home_opened_without_home_is_named_on_stderr(
    tmp_path: Path, user: Path, verb: tuple[str, ...]
) -> None:
    hermes = user / ".hermes"
    (hermes / "memories").mkdir(parents=True)
    done = run(*verb, "--host", "hermes", tmp=tmp_path, home=user)
    assert done.returncode in (0, 1), done.stderr
    assert str(hermes) not in done.stdout or verb[0] == "doctor"  # the doctor's own report names its home
    assert f"persona-notebook: --host hermes: Hermes's default home, {hermes} ($HERMES_HOME is not set)" in (
        done.stderr.splitlines()
    )


def test_an_openclaw_workspace_opened_without_home_is_named_with_its_path(tmp_path: Path, user: Path) -> None:
    work = user / ".openclaw" / "workspace"
    work.mkdir(parents=True)
    config = user / ".openclaw" / "openclaw.json"
    config.write_text("{}")
    done = run(
        "memory", "add", "a note", "--host", "openclaw", "--openclaw-config", str(config), tmp=tmp_path, home=user
    )
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if str(work) in line]
    assert len(said) == 1 and said[0].startswith("persona-notebook: --host openclaw: the workspace of OpenClaw agent")
    assert (work / "MEMORY.md").read_text() == "- a note\n"


def test_a_home_given_is_not_named_again(tmp_path: Path, user: Path, plain: Path) -> None:
    done = run("memory", "add", "x", "--home", str(plain), "--host", "toolnexus", tmp=tmp_path, home=user)
    assert (done.returncode, done.stderr) == (0, "")
