"""Keeping the notebook's own files out of a home's git: which are not ignored, the lines to add, the answer kept.

OpenClaw puts its workspace in git itself: it runs ``git init`` in a brand-new
workspace when git is there (``src/agents/workspace.ts``, ``ensureGitRepo``, called
by ``ensureAgentWorkspace``), and the notebook keeps its history (``.notebook/``)
and its intent journal (``.memory.journal``) there (issue 22, item 6). Asking git is read-only: ``git rev-parse`` and
``git check-ignore`` as subprocesses with a timeout; no git, no work tree, a
timeout or any failure means there is nothing to ask. :func:`add_to_gitignore`
is the only write, made only after a person's yes: it appends to the home's
``.gitignore`` (its old bytes kept as they were, its newline style kept) and
creates it only when it is missing. A person's no is kept per user
(``<state dir>/persona-notebook/gitignore.json``, keyed by the folder's real
path), as the host chosen for a folder is.
"""

from __future__ import annotations

import errno
import os
import stat
import subprocess
from enum import Enum
from pathlib import Path

from notebook_app.core.fs.state_dir import STATE_DIR
from notebook_app.core.home.reading import JOURNAL_NAME
from notebook_app.core.home.remembered import read_choice, remember_choice
from notebook_app.core.hostbase.registry import host as registered

OUR_PATHS = (f"{STATE_DIR}/", JOURNAL_NAME)
"""What the notebook keeps in a home, as ``.gitignore`` lines (the folder with its slash: git matches it as one)."""
GITIGNORE = ".gitignore"
ANSWERS_FILE = "gitignore.json"
GIT_TIMEOUT = 3.0
"""Seconds a git call may take before it counts as no answer: a hung git never hangs the app."""
_HEAD = 65536  # bytes of an old .gitignore read to learn its newline style


class GitAnswer(Enum):
    """What the notebook was told about a home's ``.gitignore``, kept per user."""

    DECLINED = "declined"
    """The person said no: never asked again for this folder."""
    HINTED = "hinted"
    """The CLI said its hint once for this folder."""


def run_git(
    home: Path, *args: str, timeout: float, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str] | None:
    """``git -C home ARGS`` (``env`` added to ours); None when git is missing, not runnable or too slow."""
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C", **(env or {})}  # a look never takes the index lock
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(name, None)  # the home's own repository, not one the caller's shell points at
    try:
        return subprocess.run(
            ["git", "-C", str(home), *args],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            env=env,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.SubprocessError, ValueError):
        return None  # no git, not runnable, too slow: nothing to ask


def in_work_tree(home: Path, *, timeout: float = GIT_TIMEOUT) -> bool:
    """Whether ``home`` is inside a git work tree (not a bare repository, not its ``.git``)."""
    done = run_git(home, "rev-parse", "--is-inside-work-tree", timeout=timeout)
    return done is not None and done.returncode == 0 and done.stdout.strip() == "true"


def not_ignored(home: Path, *, timeout: float = GIT_TIMEOUT) -> tuple[str, ...]:
    """Which of :data:`OUR_PATHS` git would not ignore in ``home``; () when it is in no work tree or git cannot say.

    Asks git's ignore rules only (``--no-index``): a line added makes the path ignored, so the question is not
    asked again; one already committed stays tracked, which is the person's own call (``git rm --cached``).
    """
    if not in_work_tree(home, timeout=timeout):
        return ()
    done = run_git(home, "check-ignore", "--no-index", "--", *OUR_PATHS, timeout=timeout)
    if done is None or done.returncode not in (0, 1):  # 1: none ignored; 128: git failed
        return ()
    ignored = {line.strip() for line in done.stdout.splitlines()}
    return tuple(p for p in OUR_PATHS if p not in ignored)


def to_ask(home: Path, host: str | None, *, state: Path | None = None, timeout: float = GIT_TIMEOUT) -> tuple[str, ...]:
    """What to offer to add to the home's ``.gitignore`` when it opens: () for a host that keeps no home in git
    (:attr:`.Host.offers_git`), a folder whose person said no, or one where git already ignores our files (or
    cannot say)."""
    if not registered(host).offers_git or git_answer(home, state) is GitAnswer.DECLINED:
        return ()
    return not_ignored(home, timeout=timeout)


def git_hint(home: Path, host: str | None, *, state: Path | None = None) -> str | None:
    """The CLI's one line after it wrote to such a home, said once per folder (then kept); None: nothing to say."""
    if not registered(host).offers_git or git_answer(home, state) is not None:
        return None
    missing = not_ignored(home)
    if not missing:
        return None
    remember_git_answer(home, GitAnswer.HINTED, state=state)  # not kept: said again next time, no harm
    return (
        f"hint: this workspace is in git and {' and '.join(missing)} are not ignored; "
        f"add {'them' if len(missing) > 1 else 'it'} to its .gitignore (the app offers to)"
    )


def add_to_gitignore(home: Path, paths: tuple[str, ...]) -> str | None:
    """Append ``paths`` as lines to ``home/.gitignore``; None, or why nothing was written.

    Append only: the old bytes stay as they were, a last line without its newline gets one first, and the
    new lines end as the file's do (``\\r\\n`` when it has them). A missing file is created; a link, a
    folder, a FIFO or anything but a regular file is refused in words, and nothing is written.
    """
    if not paths:
        return None
    try:
        folder = os.open(home, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as error:
        return f"{home} cannot be opened ({error.strerror or error})"
    try:
        return _append(folder, paths)
    finally:
        os.close(folder)


def _append(folder: int, paths: tuple[str, ...]) -> str | None:
    flags = os.O_RDWR | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    created = False
    try:
        fd = os.open(GITIGNORE, flags, dir_fd=folder)
    except FileNotFoundError:
        try:
            fd = os.open(GITIGNORE, flags | os.O_CREAT | os.O_EXCL, 0o644, dir_fd=folder)
            created = True
        except OSError as error:
            return f"{GITIGNORE} cannot be created ({error.strerror or error})"
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.EMLINK):
            return f"{GITIGNORE} is a symbolic link: it is left as it is"
        return f"{GITIGNORE} cannot be opened ({error.strerror or error})"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return f"{GITIGNORE} is not a regular file: it is left as it is"
        head = b"" if created else os.pread(fd, _HEAD, 0)
        last = os.pread(fd, 1, info.st_size - 1) if info.st_size else b""
        newline = b"\r\n" if b"\r\n" in head else b"\n"
        data = (newline if last and last != b"\n" else b"") + b"".join(p.encode() + newline for p in paths)
        os.write(fd, data)
        os.fsync(fd)
    except OSError as error:
        return f"{GITIGNORE} was not written ({error.strerror or error})"
    finally:
        os.close(fd)
    return None


def git_answer(home: Path, state: Path | None = None) -> GitAnswer | None:
    """What was said for the folder at ``home`` before (no, or the CLI's hint), or None."""
    value = read_choice(ANSWERS_FILE, home, state)
    return next((a for a in GitAnswer if a.value == value), None)


def remember_git_answer(home: Path, answer: GitAnswer, *, state: Path | None = None) -> str | None:
    """Keep ``answer`` for the folder at ``home`` in the user's state; None, or why it could not be kept."""
    return remember_choice(ANSWERS_FILE, home, answer.value, state=state)
