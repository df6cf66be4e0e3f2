"""``pending``, ``approve`` and ``reject`` on the command line: exit 0 done, 1 refused with the reason, 2 usage."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from notebook_app.cli.main import main
from notebook_app.core.record.log.actor import Actor
from notebook_app.core.memory.review.decisions import propose

AGENT = Actor.mcp("s-1", "client", "1.0")


def queue(home: Path, args: dict[str, str]) -> str:
    found = re.search(r"id (p-[0-9a-z]+)\)", propose(home, args, by=AGENT).output)
    assert found
    return found.group(1)


def test_pending_json_lists_each_proposal_with_its_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "MEMORY.md").write_text("alpha\n")
    pid = queue(tmp_path, {"action": "replace", "text": "alpha", "with": "beta"})
    assert main(["pending", "--home", str(tmp_path), "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert {k: row[k] for k in ("id", "status", "action", "target", "text", "with")} == {
        "id": pid,
        "status": "pending",
        "action": "replace",
        "target": "self",
        "text": "alpha",
        "with": "beta",
    }
    assert row["by"]["session"] == "s-1"


def test_approve_by_prefix_applies_and_a_second_approve_exits_1_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "MEMORY.md").write_text("alpha\n")
    pid = queue(tmp_path, {"action": "replace", "text": "alpha", "with": "beta"})
    assert main(["approve", pid[:8], "--home", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"approved {pid}: ok (replace → MEMORY.md); loads next session\n"
    assert (tmp_path / "MEMORY.md").read_text() == "beta\n"
    assert main(["approve", pid, "--home", str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"{pid} is not pending: it was approved\n"
    assert main(["pending", "--all", "--home", str(tmp_path)]) == 0
    assert " approved " in capsys.readouterr().out


def test_an_approval_that_now_misses_exits_1_with_not_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "MEMORY.md").write_text("alpha\n")
    pid = queue(tmp_path, {"action": "remove", "text": "alpha"})
    (tmp_path / "MEMORY.md").write_text("omega\n")
    assert main(["approve", "--all", "--home", str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"{pid} failed: not found: alpha\n"
    assert (tmp_path / "MEMORY.md").read_text() == "omega\n"


def test_reject_keeps_the_reason_and_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pid = queue(tmp_path, {"action": "add", "text": "gamma"})
    assert main(["reject", pid, "--reason", "not true", "--home", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"rejected {pid}: not true\n"
    assert not (tmp_path / "MEMORY.md").exists()
    assert main(["pending", "--home", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "no proposals pending\n"


def test_an_unknown_id_exits_1_and_a_missing_id_is_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["approve", "p-zzzz", "--home", str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"persona-notebook: no proposal p-zzzz in {tmp_path.resolve()}\n"
    assert main(["reject", "--home", str(tmp_path)]) == 2
    assert "give one proposal ID, or --all" in capsys.readouterr().err


def test_the_mcp_docs_quote_the_review_sentence_and_messages_word_for_word() -> None:
    from notebook_app.core.memory.review.decisions import REVIEW_SENTENCE, queued_message

    page = " ".join((Path(__file__).parents[2] / "docs" / "mcp.md").read_text(encoding="utf-8").split())
    assert f'"{REVIEW_SENTENCE}"' in page
    assert queued_message("p-1m8q4p3z616b7") in page
    for message in (
        "is not pending: it was approved",
        "failed: not found:",
        "give one proposal ID, or --all",
        "no proposals pending",
    ):
        assert message in page


def test_racing_approvals_of_one_proposal_apply_it_once(tmp_path: Path) -> None:
    import subprocess
    import sys

    pid = queue(tmp_path, {"action": "add", "text": "only once"})
    repo = Path(__file__).parents[2]
    racers = [
        subprocess.Popen(
            [sys.executable, "-m", "notebook_app", "approve", pid, "--home", str(tmp_path)],
            cwd=repo,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    finished = [racer.communicate() + (racer.returncode,) for racer in racers]
    assert sorted(code for _, _, code in finished) == [0] + [1] * 5, finished
    assert all(err == f"{pid} is not pending: it was approved\n" for _, err, code in finished if code == 1)
    assert (tmp_path / "MEMORY.md").read_text().count("only once") == 1


def test_history_names_the_agent_and_its_approver(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pid = queue(tmp_path, {"action": "add", "text": "gamma"})
    assert main(["approve", pid, "--home", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["history", "--limit", "1", "--home", str(tmp_path)]) == 0
    assert "approved      mcp:client 1.0 approved by cli" in capsys.readouterr().out


def test_review_on_off_status_change_and_show_the_homes_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from notebook_app.core.history.query import history

    assert main(["review", "status", "--home", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "review is not set (off)\n"
    assert main(["review", "on", "--home", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("review is on: servers started from now queue")
    assert main(["review", "status", "--home", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"review": True, "problems": []}
    (tmp_path / ".notebook" / "settings.toml").write_text("review = [\n")
    assert main(["review", "off", "--home", str(tmp_path)]) == 1
    assert "is not valid TOML" in capsys.readouterr().err
    assert [e.by.kind.value for e in history(tmp_path) if e.action == "setting"] == ["cli"]


def test_an_edited_approval_is_listed_as_written_and_marked_edited(tmp_path: Path) -> None:
    from notebook_app.core.record.log.actor import CLI, Actor
    from notebook_app.core.memory.review.decisions import approve, propose

    (tmp_path / "MEMORY.md").write_text("- drafts go out on Fridays\n")
    agent = Actor.mcp("20261130-210000-0000abcd", "kip-host", "1.4")
    pid = propose(tmp_path, {"action": "replace", "text": "Fridays", "with": "Mondays"}, by=agent).output.split("(id ")[
        1
    ][:15]
    assert approve(
        tmp_path, pid, by=CLI, edited_args={"action": "replace", "text": "Fridays", "with": "Wednesdays"}
    ).done
    text = subprocess.run(
        [sys.executable, "-m", "notebook_app", "pending", "--all", "--home", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert text.returncode == 0, text.stderr
    assert "'Fridays' → 'Wednesdays'" in text.stdout and "(edited; the agent proposed 'Mondays')" in text.stdout
    out = subprocess.run(
        [sys.executable, "-m", "notebook_app", "pending", "--all", "--json", "--home", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    [listed] = json.loads(out.stdout)
    assert (listed["status"], listed["text"], listed["with"], listed["edited"]) == (
        "approved",
        "Fridays",
        "Wednesdays",
        True,
    )
    assert listed["proposed"] == {"text": "Fridays", "with": "Mondays"}


def test_an_approval_that_misses_by_a_hidden_character_names_the_near_match(tmp_path: Path) -> None:
    """approve's ``not found`` is followed by the near match the memory verb shows (issue 34): the hidden character
    named, on stderr, and as ``"near"`` in ``--json``."""
    from cli_process import run

    home = tmp_path / "home"
    home.mkdir()
    (home / "MEMORY.md").write_text("# Notes\n- teaat 4 on Fridays\n")
    pid = queue(home, {"action": "remove", "text": "teaat 4"})
    again = queue(home, {"action": "remove", "text": "teaat 4 on"})
    (home / "MEMORY.md").write_text("# Notes\n- tea\u200bat 4 on Fridays\n")
    done = run("approve", pid, "--home", str(home), tmp=tmp_path)
    assert done.returncode == 1
    first, second = done.stderr.splitlines()
    assert first == f"{pid} failed: not found: teaat 4"
    assert "line 2 of MEMORY.md" in second and "tea∙at 4" in second, second
    assert "U+200B ZERO WIDTH SPACE" in second and "in the file" in second
    as_json = json.loads(run("approve", again, "--home", str(home), "--json", tmp=tmp_path).stdout)
    assert as_json[0]["message"] == "not found: teaat 4 on" and "U+200B ZERO WIDTH SPACE" in as_json[0]["near"]
    assert (home / "MEMORY.md").read_text() == "# Notes\n- tea\u200bat 4 on Fridays\n"
