"""Reading a home's git history back: which commit holds a text, which commit is each write's (issue 26).

Read only, and bounded: the last :data:`SCAN_COMMITS` commits reachable from
``HEAD`` that touched the home's files, at most :data:`SCAN_BYTES` of their
contents, within :data:`SCAN_SECONDS`; a scan cut short says so
(:attr:`BlobScan.complete`). It runs the ``git`` command as the commits are
made (:mod:`.git_commit`): ``git log --raw`` for the contents each commit
brought, then one ``git cat-file --batch`` that reads them all. The time
budget bounds the whole scan, not only the gaps between contents: each git
command is given what is left of it, and ``cat-file`` is killed at the
deadline (with its process group) even in the middle of a read. Git never
fetches here (``GIT_NO_LAZY_FETCH``: a partial clone's missing contents count
as not read, never as a download) and never asks for a password. A text looked
for is never put on a command line (where ``ps`` would show it): the contents
are searched here. Nothing here writes to the home or to the repository.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from notebook_app.core.fs.state_dir import STATE_DIR
from notebook_app.core.home.git_ignore import run_git
from notebook_app.core.record.log.ids import ID_PATTERN
from notebook_app.core.record.git.commit import COMMIT_TIMEOUT, git_setting, repo_root

SCAN_COMMITS = 500
"""The newest commits touching the home that a scan reads (the doctor and ``history --redact``)."""
SCAN_BYTES = 64 * 1024 * 1024
"""File contents a scan reads at most, all commits together."""
SCAN_SECONDS = 10.0
"""Seconds a scan may take; then it stops and says it was cut short."""
MAP_COMMITS = 2000
"""The newest commits read for the history view's commit of each write."""
_EMPTY = "0" * 40
_NO_FETCH = {"GIT_NO_LAZY_FETCH": "1", "GIT_TERMINAL_PROMPT": "0"}
"""A scan reads what the repository holds: a partial clone never fetches a missing content, nothing prompts."""
_WRITE_ID = re.compile(rf"\(({ID_PATTERN.pattern})\)")


@dataclass(frozen=True)
class GitBlob:
    """A file's content as one commit brought it."""

    commit: str
    """The commit's full id."""
    short: str
    """Its short id, as ``git log`` shows it."""
    path: str
    """The file, relative to the home."""
    blob: str


@dataclass
class BlobScan:
    """The contents the scanned commits brought to the home's files, newest commit first."""

    root: Path
    blobs: list[GitBlob] = field(default_factory=list)
    complete: bool = True
    """False: the commit limit, the byte budget or the time budget cut the scan short."""
    commits: int = 0
    deadline: float = field(default_factory=lambda: time.monotonic() + SCAN_SECONDS)
    """When the scan must end (``time.monotonic()``): :func:`blob_contents` is given what is left."""


def scanned_repo(home: Path, *, any_work_tree: bool = False) -> Path | None:
    """The repository whose commits hold the home's files: when git is on, or the home is its repository's top
    (``any_work_tree``: any work tree it is in). None, without running git, for a home git knows nothing of."""
    on, _ = git_setting(home)
    if not on and not any_work_tree and not os.path.lexists(os.path.join(home, ".git")):
        return None
    top, _problem = repo_root(home)
    if top is None:
        return None
    if not on and not any_work_tree and os.path.realpath(top) != os.path.realpath(home):
        return None
    return top


def head_commit(root: Path) -> str | None:
    """The commit ``HEAD`` names (None: no commit yet, or git cannot say)."""
    done = run_git(root, "rev-parse", "--verify", "--quiet", "HEAD", timeout=SCAN_SECONDS, env=_NO_FETCH)
    return done.stdout.strip() if done is not None and done.returncode == 0 else None


def home_blobs(home: Path, root: Path, *, limit: int | None = None) -> BlobScan:
    """Each content the last ``limit`` (:data:`SCAN_COMMITS`) commits touching ``home`` brought to its files."""
    limit = SCAN_COMMITS if limit is None else limit
    scan = BlobScan(root)
    real_home, real_root = os.path.realpath(home), os.path.realpath(root)
    where = os.path.relpath(real_home, real_root)
    done = run_git(
        root,
        "log", "-z", "--raw", "--no-abbrev", "--no-renames", "--diff-filter=AM", "--format=%x01%H",
        f"-n{limit + 1}", "HEAD", "--", where,
        timeout=_left(scan.deadline), env=_NO_FETCH,
    )  # fmt: skip
    if done is None or done.returncode != 0:
        scan.complete = head_commit(root) is None  # no commit yet: nothing to read
        return scan
    chunks = [chunk for chunk in done.stdout.split("\x01") if chunk]
    if len(chunks) > limit:
        chunks, scan.complete = chunks[:limit], False
    scan.commits = len(chunks)
    shorts = _short_ids(root, where, len(chunks), scan.deadline)
    for chunk in chunks:
        commit, _, rest = chunk.partition("\0")
        commit = commit.strip()
        short = shorts.get(commit, commit[:7])
        fields = rest.split("\0")
        for meta, path in zip(fields[0::2], fields[1::2], strict=False):
            parts = meta.strip().split()
            if len(parts) < 5 or parts[3] == _EMPTY or parts[0] == ":160000":  # a submodule is no file
                continue
            name = os.path.relpath(os.path.join(real_root, path), real_home)
            if name.startswith(("..", STATE_DIR + os.sep)):
                continue
            scan.blobs.append(GitBlob(commit, short, name, parts[3]))
    return scan


def _left(deadline: float) -> float:
    """Seconds left before ``deadline`` (a little, never none: a timeout of 0 would wait for ever)."""
    return max(deadline - time.monotonic(), 0.001)


def _short_ids(root: Path, where: str, count: int, deadline: float) -> dict[str, str]:
    """Each of the newest ``count`` commits touching ``where`` → its short id as ``git log`` shows it (``%h``)."""
    done = run_git(
        root, "log", "--format=%H %h", f"-n{count}", "HEAD", "--", where, timeout=_left(deadline), env=_NO_FETCH
    )
    if done is None or done.returncode != 0:
        return {}
    return dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)


def blob_contents(
    root: Path, blobs: list[str], *, max_bytes: int = SCAN_BYTES, deadline: float | None = None
) -> tuple[dict[str, bytes], bool]:
    """The contents of ``blobs`` (each once), read by one ``git cat-file --batch``; and whether all were read.

    Ends by ``deadline`` (``time.monotonic()``; default :data:`SCAN_SECONDS` from now) whatever git does.
    """
    wanted = list(dict.fromkeys(blobs))
    if not wanted:
        return {}, True
    deadline = time.monotonic() + SCAN_SECONDS if deadline is None else deadline
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C", **_NO_FETCH}
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(name, None)
    found: dict[str, bytes] = {}
    try:
        sizes = _sizes(root, wanted, env, deadline)
    except (OSError, subprocess.SubprocessError):
        return found, False  # no git, or the deadline came first (run() killed it)
    budget, chosen = max_bytes, []
    for blob in wanted:
        size = sizes.get(blob)
        if size is None or size > budget:
            continue
        budget -= size
        chosen.append(blob)
    complete = len(chosen) == len(wanted)
    try:
        with subprocess.Popen(
            ["git", "-C", str(root), "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=True,  # its own group: the deadline kills whatever git started too
        ) as process:
            assert process.stdin is not None and process.stdout is not None
            stop = threading.Timer(_left(deadline), _kill_group, args=(process,))
            stop.daemon = True
            stop.start()  # a read that blocks (git waits on a disk, a lock, a network) ends at the deadline
            try:
                feeding = threading.Thread(target=_feed, args=(process.stdin, chosen), daemon=True)
                feeding.start()  # written while the contents are read: neither pipe fills and waits on the other
                complete = _read_batch(process.stdout, chosen, found, deadline) and complete
            finally:
                stop.cancel()
                _kill_group(process)
    except (OSError, ValueError, subprocess.SubprocessError):
        return found, False
    return found, complete


def _read_batch(out: IO[bytes], chosen: list[str], found: dict[str, bytes], deadline: float) -> bool:
    """Each of ``chosen`` from ``cat-file --batch``'s output into ``found``; whether all came whole in time."""
    for blob in chosen:
        header = out.readline().split()
        if len(header) != 3 or time.monotonic() > deadline:
            return False  # a missing content, or git was killed at the deadline
        size = int(header[2])
        data = out.read(size)
        if len(data) != size:
            return False  # cut in the middle of a content: it counts as not read
        found[blob] = data
        out.read(1)  # the newline after each content
    return True


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:
        process.kill()


def _feed(pipe: IO[bytes], blobs: list[str]) -> None:
    try:
        pipe.write("".join(f"{blob}\n" for blob in blobs).encode("ascii"))
        pipe.close()
    except (OSError, ValueError):
        pass  # git stopped reading (killed at the deadline): nothing more to give it


def _sizes(root: Path, blobs: list[str], env: dict[str, str], deadline: float) -> dict[str, int]:
    done = subprocess.run(
        ["git", "-C", str(root), "cat-file", "--batch-check"],
        input="".join(f"{blob}\n" for blob in blobs).encode("ascii"),
        capture_output=True,
        env=env,
        timeout=_left(deadline),
        check=False,
    )
    sizes = {}
    for line in done.stdout.decode("ascii", "replace").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] == "blob":
            sizes[parts[0]] = int(parts[2])
    return sizes


@dataclass(frozen=True)
class GitHolding:
    """Which commits of the home's git history hold a text (none found: ``commits`` is empty)."""

    root: Path
    commits: tuple[tuple[str, str], ...]
    """(short commit id, file relative to the home), newest first; one per commit."""
    complete: bool
    git_on: bool

    def to_json(self) -> dict[str, object]:
        return {
            "repo": str(self.root),
            "commits": [{"commit": commit, "file": path} for commit, path in self.commits],
            "scanned_all": self.complete,
        }


def commits_holding(home: Path, texts: list[bytes]) -> GitHolding | None:
    """The commits whose contents of the home's files hold any of ``texts``; None when the home is in no git."""
    root = scanned_repo(home, any_work_tree=True)
    if root is None or not texts:
        return None
    on, _ = git_setting(home)
    scan = home_blobs(home, root)
    contents, read_all = blob_contents(root, [blob.blob for blob in scan.blobs], deadline=scan.deadline)
    held: dict[str, str] = {}
    for blob in scan.blobs:
        data = contents.get(blob.blob)
        if data is not None and blob.short not in held and any(text in data for text in texts):
            held[blob.short] = blob.path
    return GitHolding(root, tuple(held.items()), scan.complete and read_all, on)


def commits_of_writes(home: Path, *, limit: int = MAP_COMMITS) -> dict[str, str]:
    """Each write's event id → its commit's short id, from the commit messages (``add MEMORY.md (w-…)``).

    Empty when git is off and the home is not its own repository. Reads only; run it off the event loop.
    """
    root = scanned_repo(home)
    if root is None:
        return {}
    where = os.path.relpath(os.path.realpath(home), os.path.realpath(root))
    done = run_git(
        root, "log", "-z", "--format=%h%x00%B", f"-n{limit}", "HEAD", "--", where, timeout=COMMIT_TIMEOUT, env=_NO_FETCH
    )
    if done is None or done.returncode != 0:
        return {}
    mapping: dict[str, str] = {}
    fields = done.stdout.split("\0")
    for commit, message in zip(fields[0::2], fields[1::2], strict=False):
        for event_id in _WRITE_ID.findall(message):
            mapping.setdefault(event_id, commit.strip())
    return mapping
