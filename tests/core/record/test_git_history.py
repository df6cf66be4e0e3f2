"""What the home's git history still holds: the redaction says so, the doctor finds its secrets, each write's commit.

Every test runs the real ``git`` command on real temporary repositories (issue 26).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import threading
import time
from pathlib import Path

import pytest
from real_git import git, plain_git

from notebook_app.core.doctor.check import Doctor
from notebook_app.core.doctor.rules import git_secrets
from notebook_app.core.history.admin import redact
from notebook_app.core.history.query import history
from notebook_app.core.memory.edits.guarded_splice import delete_entry
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.record.git import commit as git_commit
from notebook_app.core.record.git import history as git_history
from notebook_app.core.record.git.mode import git_on
from notebook_app.core.record.log.actor import CLI, NOTEBOOK

KEY = "sk-ant-api03-" + "Qx7vT2mN9pL4rK8sW1yZ3bH6" * 2
GIT = shutil.which("git")
pytestmark = pytest.mark.skipif(GIT is None, reason="these tests run the real git command")


@pytest.fixture(autouse=True)
def no_user_git_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain_git(monkeypatch, tmp_path)
    git_commit.take_notes()


def home_on(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    assert not git_on(home, by=CLI, add_ignore=True).is_error
    return home


def key_added_then_deleted(home: Path) -> str:
    """A write puts a key in MEMORY.md (and so in its commit), a person deletes it: the file is clean, git is not."""
    tool = memory_tool(home, by=CLI)
    tool.call({"action": "add", "text": "likes tide tables"})
    assert not tool.call({"action": "add", "text": f"deploy key {KEY}"}).is_error
    assert not delete_entry(home, "MEMORY.md", 2, f"- deploy key {KEY}", by=NOTEBOOK).is_error
    assert KEY not in (home / "MEMORY.md").read_text()
    adds = [e for e in history(home, file="MEMORY.md") if e.action == "add"]
    return next(e.id for e in adds if e.args.get("text", "").startswith("deploy"))


def test_redacting_a_record_says_which_commit_still_holds_the_text_and_that_git_is_never_rewritten(
    tmp_path: Path,
) -> None:
    home = home_on(tmp_path)
    record = key_added_then_deleted(home)
    commits_before = git(home, "rev-list", "--all")
    added = next(line.split()[0] for line in git(home, "log", "--format=%h %s").splitlines() if record in line)
    for dry_run in (True, False):
        result = redact(home, record, dry_run=dry_run)
        assert not result.is_error, result.output
        assert f"git history still holds it: commit {added} (MEMORY.md)" in result.output
        assert "never rewrites git history" in result.output and "git filter-repo --replace-text" in result.output
        assert KEY not in result.output and KEY[13:] not in result.output
        assert result.git is not None and result.git.to_json()["commits"][0] == {"commit": added, "file": "MEMORY.md"}
    assert git(home, "rev-list", "--all") == commits_before  # nothing of git was rewritten
    assert KEY in git(home, "show", f"{added}:MEMORY.md")


def test_redacting_in_a_home_git_knows_nothing_of_says_nothing_of_git(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    record = key_added_then_deleted(home)
    result = redact(home, record)
    assert not result.is_error and result.git is None and "git" not in result.output


def test_with_git_on_and_no_commit_holding_it_the_redaction_says_git_was_read(tmp_path: Path) -> None:
    home = home_on(tmp_path)
    (home / ".git" / "hooks" / "pre-commit").write_text("#!/bin/sh\nexit 1\n")
    (home / ".git" / "hooks" / "pre-commit").chmod(0o755)  # no write is committed: git never saw the key
    record = key_added_then_deleted(home)
    result = redact(home, record)
    assert "none of the home's commits holds it" in result.output and "still holds" not in result.output


def test_a_home_inside_a_work_tree_whose_commits_hold_the_text_is_warned_with_git_off(tmp_path: Path) -> None:
    outer = tmp_path / "project"
    home = outer / "agent"
    home.mkdir(parents=True)
    git(outer, "init", "--quiet")
    record = key_added_then_deleted_by_hand_commit(outer, home)
    result = redact(home, record)
    assert "git history still holds it: commit" in result.output and "(MEMORY.md)" in result.output


def key_added_then_deleted_by_hand_commit(outer: Path, home: Path) -> str:
    """The owner commits the home by hand (git off for the notebook) while the key is in the file."""
    tool = memory_tool(home, by=CLI)
    tool.call({"action": "add", "text": f"deploy key {KEY}"})
    git(outer, "add", "agent/MEMORY.md")
    git(outer, "-c", "user.name=owner", "-c", "user.email=o@x", "commit", "--quiet", "-m", "by hand")
    assert not delete_entry(home, "MEMORY.md", 1, f"- deploy key {KEY}", by=NOTEBOOK).is_error
    return history(home, file="MEMORY.md")[-1].id


def test_the_doctor_finds_a_secret_git_still_holds_by_commit_file_and_line_never_its_text(tmp_path: Path) -> None:
    home = home_on(tmp_path)
    record = key_added_then_deleted(home)
    added = next(line.split()[0] for line in git(home, "log", "--format=%h %s").splitlines() if record in line)
    found = [f for f in Doctor().check(home).findings if f.rule == "security.secret-git"]
    assert len(found) == 1, [f.message for f in found]
    message = found[0].message
    assert f"commit {added} put an Anthropic API key in MEMORY.md at line 2" in message
    assert "the file no longer holds it" in message and "never rewrites git history" in message
    assert KEY[:12] not in message and found[0].severity.value == "error" and found[0].fix is None


def test_the_doctor_reads_only_what_new_commits_brought(tmp_path: Path) -> None:
    home = home_on(tmp_path)
    doctor = Doctor()
    key_added_then_deleted(home)
    doctor.check(home)
    read = doctor.git.read
    assert read >= 3  # each content of MEMORY.md a commit brought
    doctor.check(home)
    assert doctor.git.read == read  # HEAD unchanged: nothing read again
    memory_tool(home, by=CLI).call({"action": "add", "text": "one more"})
    assert len([f for f in doctor.check(home).findings if f.rule == "security.secret-git"]) == 1
    assert doctor.git.read == read + 1


def test_a_home_git_knows_nothing_of_runs_no_git_for_the_doctor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    key_added_then_deleted(home)

    def no_git(*args: object, **kwargs: object) -> None:
        raise AssertionError("git was run for a home outside git")

    monkeypatch.setattr(git_history, "run_git", no_git)
    monkeypatch.setattr(git_commit, "run_git", no_git)
    assert [f for f in Doctor().check(home).findings if "git" in f.rule] == []


def test_the_git_scan_is_bounded_and_says_when_it_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = home_on(tmp_path)
    key_added_then_deleted(home)
    monkeypatch.setattr(git_history, "SCAN_COMMITS", 1)
    rules = [f.rule for f in Doctor().check(home).findings if "git" in f.rule]
    assert rules == ["security.git-scan-limit"]  # the key's commit is older than the one commit read


def test_each_write_maps_to_its_commit(tmp_path: Path) -> None:
    home = home_on(tmp_path)
    memory_tool(home, by=CLI).call({"action": "add", "text": "tea at 4"})
    memory_tool(home, by=CLI).call({"action": "add", "target": "user", "text": "name is Muthu"})
    writes = [e.id for e in history(home) if e.is_write and e.action != "setting"]
    mapping = git_history.commits_of_writes(home)
    subjects = dict(line.split(" ", 1) for line in git(home, "log", "--format=%h %s").splitlines())
    assert len(writes) == 2
    for write in writes:
        assert write in subjects[mapping[write]]
    plain = tmp_path / "plain"
    plain.mkdir()
    memory_tool(plain, by=CLI).call({"action": "add", "text": "no git"})
    assert git_history.commits_of_writes(plain) == {}


def test_a_write_whose_commit_failed_maps_to_the_commit_that_carried_it_later(tmp_path: Path) -> None:
    home = home_on(tmp_path)
    hook = home / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)
    memory_tool(home, by=CLI).call({"action": "add", "text": "refused once"})
    memory_tool(home, by=CLI).call({"action": "add", "text": "refused twice"})
    assert len(git_commit.take_notes()) == 2
    hook.unlink()
    memory_tool(home, by=CLI).call({"action": "add", "target": "user", "text": "carries them"})
    writes = [e.id for e in history(home) if e.is_write and e.action == "add"]
    mapping = git_history.commits_of_writes(home)
    head = git(home, "log", "-1", "--format=%h").strip()
    assert [mapping.get(write) for write in writes] == [head, head, head]
    assert git_commit.pending_files(home) == []


def test_a_pending_list_written_before_it_named_the_writes_is_still_committed(tmp_path: Path) -> None:
    home = home_on(tmp_path)
    memory_tool(home, by=CLI).call({"action": "add", "text": "one"})
    (home / "MEMORY.md").write_text("- one\n- by hand, no record\n")  # an outside change, and a list without ids
    (home / ".notebook" / "git-pending").write_text("MEMORY.md\n")
    assert git_commit.pending_files(home) == ["MEMORY.md"]
    memory_tool(home, by=CLI).call({"action": "add", "target": "user", "text": "two"})
    assert "with the earlier write(s) whose commit had failed: MEMORY.md" in git(home, "log", "-1", "--format=%b")
    assert git_commit.pending_files(home) == []


def test_in_a_home_that_is_its_own_repository_the_doctor_says_whether_the_file_still_holds_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    git(home, "init", "--quiet")
    (home / "MEMORY.md").write_text(f"- tea\n- deploy key {KEY}\n")
    git(home, "add", "MEMORY.md")
    git(home, "-c", "user.name=owner", "-c", "user.email=o@x", "commit", "--quiet", "-m", "by hand")
    doctor = Doctor()

    def words() -> str:
        (found,) = [f for f in doctor.check(home).findings if f.rule == "security.secret-git"]
        return found.message

    assert "in MEMORY.md at line 2; the file still holds it" in words()
    (home / "MEMORY.md").write_text("- tea\n")  # git off: HEAD stays where it was
    assert "the file no longer holds it" in words()
    assert doctor.git.read == 1


def test_thousands_of_contents_are_read_in_one_pass_without_the_pipes_filling(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "--quiet")
    files = []
    for i in range(3000):
        path = tmp_path / "c" / f"{i}.md"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"- entry {i}\n" + "x" * 1000 + "\n")
        files.append(str(path))
    made = subprocess.run(
        ["git", "-C", str(repo), "hash-object", "-w", "--stdin-paths"],
        input="\n".join(files) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    answer: list[tuple[dict[str, bytes], bool]] = []
    reading = threading.Thread(target=lambda: answer.append(git_history.blob_contents(repo, made)), daemon=True)
    reading.start()
    reading.join(60)
    assert answer, "the read hung: the ids written and the contents read wait on each other's pipe"
    contents, complete = answer[0]
    assert complete and len(contents) == 3000
    assert contents[made[2999]].startswith(b"- entry 2999\n")


@pytest.mark.serial  # measures time: the doctor answers within 15 s of a 1 s scan budget, with no other test beside
def test_a_git_whose_cat_file_never_answers_is_killed_at_the_scan_deadline_and_the_doctor_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A partial clone's ``cat-file`` may fetch missing objects over the network and wait there: the time budget is
    the scan's whole bound, not a check between contents (a ``git`` first on PATH runs the real one for everything
    but ``cat-file``, which never answers)."""
    home = home_on(tmp_path)
    key_added_then_deleted(home)
    shim = tmp_path / "shim"
    shim.mkdir()
    asked = tmp_path / "asked"
    (shim / "git").write_text(
        "#!/bin/sh\nfor arg; do\n"
        f'  [ "$arg" = cat-file ] && echo "$GIT_NO_LAZY_FETCH $GIT_TERMINAL_PROMPT" >> {asked} && exec sleep 300\n'
        f'done\nexec {GIT} "$@"\n'
    )
    (shim / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim}:{os.environ['PATH']}")
    monkeypatch.setattr(git_history, "SCAN_SECONDS", 1.0)
    answer: list[list[str]] = []
    started = time.monotonic()
    checking = threading.Thread(
        target=lambda: answer.append([f.rule for f in Doctor().check(home).findings if "git" in f.rule]), daemon=True
    )
    checking.start()
    checking.join(20)
    assert answer, "the doctor waited on a git that never answered"
    assert time.monotonic() - started < 15
    assert answer[0] == ["security.git-scan-limit"]
    assert set(asked.read_text().splitlines()) == {"1 0"}  # never fetches a missing content, never prompts


def test_a_fifo_put_in_place_of_a_file_while_the_doctor_reads_git_never_blocks_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The git rule asks whether the file still holds each secret: a FIFO put there between a look and a read (and
    one there from the start) is no file to read, never a read that waits for a writer."""
    home = home_on(tmp_path)
    key_added_then_deleted(home)
    memory = home / "MEMORY.md"
    armed: list[bool] = []
    scan = git_secrets.GitScan._scan

    def scan_then_arm(self: git_secrets.GitScan, *args: Path) -> object:
        found = scan(self, *args)
        armed.append(True)  # the rule now asks what the file holds: the next look at it is swapped
        return found

    looked = Path.is_file

    def look_then_swap(path: Path) -> bool:
        answer = looked(path)
        if armed and armed.pop() and path == memory and answer:
            memory.unlink()
            os.mkfifo(memory)
        return answer

    monkeypatch.setattr(git_secrets.GitScan, "_scan", scan_then_arm)
    monkeypatch.setattr(Path, "is_file", look_then_swap)
    doctor = Doctor()
    answers: list[str] = []

    def check() -> None:
        for _ in range(2):  # the swap while the rule looks; then the FIFO there from the start
            (found,) = [f for f in doctor.check(home).findings if f.rule == "security.secret-git"]
            answers.append(found.message)
            if not stat.S_ISFIFO(os.lstat(memory).st_mode):
                memory.unlink()
                os.mkfifo(memory)

    checking = threading.Thread(target=check, daemon=True)
    checking.start()
    checking.join(20)
    if checking.is_alive():  # let the blocked read end, then fail
        os.close(os.open(memory, os.O_WRONLY | os.O_NONBLOCK))
    assert len(answers) == 2, "the doctor waited on a FIFO put in place of MEMORY.md"
    assert all("the file no longer holds it" in answer for answer in answers)
