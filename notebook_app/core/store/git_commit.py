"""With the home's ``git`` setting on, each recorded write also commits the files it changed (issue 26).

:func:`commit_after` runs at the one place every recorded write passes
after it is durable: the end of :func:`.storage.locked_home`, still under
the home's lock. With the setting off (the default) it reads one ``stat``
and spawns nothing. With it on it runs the ``git`` command (the same one
:mod:`..home.git_ignore` asks; no library: git's own hooks, config and index
rules then hold exactly as they do for the user). An outside change the
write recorded first is committed first, authored ``outside``, from a
scratch index (never when it holds a secret). Then ``git add`` of this
write's files only, then ``git commit --only`` of those paths, authored and
committed by ``<actor> <persona-notebook@localhost>`` through the
environment of that one command, never the user's config. It never
rewrites history and never pushes.

A commit that fails (no git, a locked index, a hook that refuses) never
fails the write: its files are kept in ``.notebook/git-pending`` and
committed with the next write, and the failure is said in one sentence
(:func:`take_notes`, which the CLI prints).
"""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
import threading
import tomllib
from pathlib import Path

from notebook_app.core.fs.state_dir import STATE_DIR
from notebook_app.core.home.git_ignore import run_git
from notebook_app.core.record.log.actor import Actor, ActorKind
from notebook_app.core.record.log.ids import ID_PATTERN
from notebook_app.core.text.secrets import secret_spans

EMAIL = "persona-notebook@localhost"
PENDING_NAME = "git-pending"
"""In ``.notebook/``: the files whose commit failed, one per line (then a tab and the writes' event ids);
committed with the next write, whose message names those ids too (the history view finds their commit)."""
SETTINGS_NAME = "settings.toml"
COMMIT_TIMEOUT = 60.0
"""Seconds a git command of a commit may take (a hook may be slow); then the commit counts as failed."""
_LIMIT = 64 * 1024
_notes = threading.local()
_NOTES_KEPT = 16


def git_setting(home: Path) -> tuple[bool, str | None]:
    """Whether ``git = true`` in the home's settings, and its ``git_repo``; one ``stat`` when there are none."""
    path = os.path.join(home, STATE_DIR, SETTINGS_NAME)
    try:
        info = os.stat(path, follow_symlinks=False)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _LIMIT:
            return False, None
        with open(path, "rb") as file:
            data = tomllib.loads(file.read().decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False, None
    repo = data.get("git_repo")
    return data.get("git") is True, repo if isinstance(repo, str) else None


def author(by: Actor) -> str:
    """The author's name for ``by``: its kind (cli, notebook, outside), or an MCP session's client name."""
    if by.kind is ActorKind.MCP and by.client_name:
        return by.client_name
    return by.kind.value


def take_notes() -> list[str]:
    """The sentences this thread's failed commits left since the last call (each said once)."""
    notes: list[str] = getattr(_notes, "said", [])
    _notes.said = []
    return notes


def commit_after(home: Path, changed: dict[str, tuple[str, str, object]], by: Actor) -> str | None:
    """Commit ``changed`` (file -> action, event id, what an outside writer had left) when git is on;
    None, or the sentence saying it failed.

    Never raises: the write has landed, and nothing here may undo or fail it.
    """
    if not changed:
        return None
    on, repo = git_setting(home)
    if not on:
        return None
    try:
        problem = _commit(home, changed, by, repo)
    except Exception as error:  # a commit never fails the write it follows
        problem = f"{type(error).__name__}: {error}"
    if problem is None:
        return None
    waiting = _pending_ids(home)
    for name, (_, event_id, _) in changed.items():
        waiting.setdefault(name, []).append(event_id)
    _keep_pending(home, waiting)
    note = f"The write landed, but its git commit failed ({problem}); it is committed with the next write."
    _notes.said = [*getattr(_notes, "said", [])[-(_NOTES_KEPT - 1) :], note]  # a server never takes them: bounded
    return note


def repo_root(home: Path) -> tuple[Path | None, str | None]:
    """The top of the work tree ``home`` is in (None: none), or why git could not say."""
    done = run_git(home, "rev-parse", "--show-toplevel", timeout=COMMIT_TIMEOUT)
    if done is None:
        return None, "git could not be run (is it on PATH?)"
    if done.returncode != 0:
        return None, None
    return Path(done.stdout.strip()), None


def _commit(home: Path, changed: dict[str, tuple[str, str, object]], by: Actor, repo: str | None) -> str | None:
    root, problem = repo_root(home)
    if root is None:
        return problem or f"{home} is not in a git work tree"
    expected = Path(repo) if repo and repo != "." else home  # ".": the home is its repository's top
    if os.path.realpath(root) != os.path.realpath(expected):
        return f"{home} is in the repository {root}, not {expected}; nothing was committed there"
    earlier = _pending_ids(home)
    pending = [name for name in earlier if name not in changed]
    real_home = os.path.realpath(home)
    paths = [os.path.relpath(os.path.join(real_home, name), os.path.realpath(root)) for name in [*pending, *changed]]
    gone = [path for path in paths if not os.path.lexists(os.path.join(root, path))]
    if gone:  # a removed file is committed only if git tracks it: one never committed has nothing to remove
        tracked = run_git(root, "ls-files", "-z", "--", *gone, timeout=COMMIT_TIMEOUT)
        known = set(tracked.stdout.split("\0")) if tracked is not None and tracked.returncode == 0 else set()
        paths = [path for path in paths if path not in gone or path in known]
    if not paths:
        _keep_pending(home, {})
        return None
    real_root = os.path.realpath(root)
    for name, (_, _, found) in changed.items():
        if found != 0 and not (isinstance(found, bytes) and secret_spans(found)):  # a secret is never committed
            path = os.path.relpath(os.path.join(real_home, name), real_root)
            if (problem := _commit_outside(root, path, found if isinstance(found, bytes) else None)) is not None:
                return problem
    lines = [f"{action} {name} ({event_id})" for name, (action, event_id, _) in changed.items()]
    subject = lines[0] if len(lines) == 1 else f"{lines[0].split()[0]}: {len(lines)} files"
    body = "\n".join(lines if len(lines) > 1 else [])
    if earlier:
        named = [name + "".join(f" ({event_id})" for event_id in ids) for name, ids in earlier.items()]
        body += ("\n" if body else "") + "with the earlier write(s) whose commit had failed: " + ", ".join(named)
    problem = commit_paths(root, paths, author(by), subject + (f"\n\n{body}" if body else ""))
    if problem is None:
        _keep_pending(home, {})
    return problem


def commit_paths(root: Path, paths: list[str], who: str, message: str) -> str | None:
    """``git add`` then ``git commit --only`` of ``paths`` (from ``root``), by ``who``; None, or why it failed.

    Author and committer go in this command's environment only; nothing else in the index is committed.
    """
    env = {"GIT_AUTHOR_NAME": who, "GIT_AUTHOR_EMAIL": EMAIL, "GIT_COMMITTER_NAME": who, "GIT_COMMITTER_EMAIL": EMAIL}
    added = run_git(root, "add", "-A", "--", *paths, timeout=COMMIT_TIMEOUT, env=env)
    if (problem := _failed(added, "git add")) is not None:
        return problem
    staged = run_git(root, "diff", "--cached", "--quiet", "HEAD", "--", *paths, timeout=COMMIT_TIMEOUT)
    if staged is not None and staged.returncode == 0:
        return None  # the files are as the last commit has them: nothing to commit
    done = run_git(root, "commit", "--quiet", "--only", "-m", message, "--", *paths, timeout=COMMIT_TIMEOUT, env=env)
    return _failed(done, "git commit")


def _commit_outside(root: Path, path: str, content: bytes | None) -> str | None:
    """Commit what an outside writer left in ``path`` (None: removed it), authored ``outside``, before our write.

    The work tree holds our write by now, so the outside content is committed from a scratch index (HEAD
    plus that one file): nothing of the user's index or work tree is touched, and their hooks still run.
    """
    env = {"GIT_AUTHOR_NAME": "outside", "GIT_AUTHOR_EMAIL": EMAIL, "GIT_COMMITTER_NAME": "outside"}
    env["GIT_COMMITTER_EMAIL"] = EMAIL
    head = run_git(root, "rev-parse", "--verify", "--quiet", f"HEAD:{path}", timeout=COMMIT_TIMEOUT)
    committed = head.stdout.strip() if head is not None and head.returncode == 0 else None
    blob = None
    if content is not None:
        made = _run_input(root, content, "hash-object", "-w", "--stdin", f"--path={path}")
        if made is None:
            return "git hash-object failed"
        blob = made
    if blob == committed or (blob is None and committed is None):
        return None  # the last commit already holds it
    git_dir = run_git(root, "rev-parse", "--absolute-git-dir", timeout=COMMIT_TIMEOUT)
    if git_dir is None or git_dir.returncode != 0:
        return "git rev-parse failed"
    scratch = os.path.join(git_dir.stdout.strip(), "persona-notebook-outside.index")
    env["GIT_INDEX_FILE"] = scratch
    try:
        has_head = run_git(root, "rev-parse", "--verify", "--quiet", "HEAD", timeout=COMMIT_TIMEOUT)
        steps = (
            [["read-tree", "HEAD"]] if has_head is not None and has_head.returncode == 0 else [["read-tree", "--empty"]]
        )
        steps.append(
            ["update-index", "--add", "--cacheinfo", f"100644,{blob},{path}"]
            if blob is not None
            else ["update-index", "--force-remove", "--", path]
        )
        steps.append(["commit", "--quiet", "-m", f"outside {path}: changed outside the notebook since the last commit"])
        for step in steps:
            if (
                problem := _failed(run_git(root, *step, timeout=COMMIT_TIMEOUT, env=env), f"git {step[0]}")
            ) is not None:
                return problem
    finally:
        with contextlib.suppress(OSError):
            os.unlink(scratch)
    return None


def _run_input(root: Path, data: bytes, *args: str) -> str | None:
    """``git ARGS`` with ``data`` on stdin; its first line of output, or None when it failed."""
    env = {**os.environ, "LC_ALL": "C"}
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(name, None)  # the home's repository, as run_git asks it
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            input=data,
            capture_output=True,
            timeout=COMMIT_TIMEOUT,
            check=False,
            env=env,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.decode("ascii", "replace").strip() if done.returncode == 0 else None


def _failed(done: object, what: str) -> str | None:
    if done is None:
        return f"{what} could not be run"
    code = getattr(done, "returncode", 1)
    if code == 0:
        return None
    said = (getattr(done, "stderr", "") or getattr(done, "stdout", "") or "").strip().splitlines()
    return f"{what} exited {code}" + (f": {said[0]}" if said else "")


def pending_files(home: Path) -> list[str]:
    """The files whose commit failed and waits for the next write."""
    return _pending(home)


def _pending(home: Path) -> list[str]:
    return list(_pending_ids(home))


def _pending_ids(home: Path) -> dict[str, list[str]]:
    """Each file whose commit failed → the ids of the writes it waits with (a list without ids: none known)."""
    try:
        text = Path(home, STATE_DIR, PENDING_NAME).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        name, _, ids = line.partition("\t")
        if name and not name.startswith(("/", "..")):
            found.setdefault(name, []).extend(i for i in ids.split() if ID_PATTERN.fullmatch(i))
    return found


def _keep_pending(home: Path, names: dict[str, list[str]]) -> None:
    """Write (or clear) the pending list; under the lock, so no other writer races it. Best effort."""
    path = Path(home, STATE_DIR, PENDING_NAME)
    try:
        if not names:
            if path.exists():
                path.unlink()
            return
        if not Path(home, STATE_DIR).is_dir():
            return
        lines = [f"{name}\t{' '.join(dict.fromkeys(ids))}\n" for name, ids in names.items()]
        path.write_text("".join(lines), encoding="utf-8")
    except OSError:
        pass
