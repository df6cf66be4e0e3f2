"""Secrets in the home's git history: a key a write put in a file stays in its commit after the file loses it.

Asked only when the home's ``git`` setting is on or the home is its own
repository's top (a ``.git`` there): a home git knows nothing of runs no git
process. The scan is bounded (:mod:`...store.git_history`: the last 500 commits
touching the home, 64 MiB of contents, 10 seconds) and read with the secret
rule's own finder. A :class:`GitScan` keeps what each content held (git names
a content by its digest, so each is read once) and the findings for the
``HEAD`` it last saw: a check after a write reads only the contents new
commits brought. A finding names the commit, the file and the line, and the
kind of secret; never its text, not even its first characters (git keeps it;
the notebook never rewrites git history).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import NamedTuple

from notebook_app.core.doctor.model import Finding, finding
from notebook_app.core.home.files import FileStatus, read_file
from notebook_app.core.record.git.history import SCAN_COMMITS, blob_contents, head_commit, home_blobs, scanned_repo
from notebook_app.core.text.secrets import secret_spans

RULE = "security.secret-git"
_FILE_LIMIT = 64 * 1024 * 1024
"""A file larger than this is not read to say whether it still holds a secret."""


class _Secret(NamedTuple):
    kind: str
    line: int
    digest: bytes
    """sha256 of the secret's bytes: the same secret in two contents is one finding; its text is never kept."""


_Scanned = tuple[dict[tuple[str, bytes], tuple[str, str, int]], dict[tuple[str, bytes], set[str]], bool]
"""(file, secret digest) → (short commit, kind, line) where it first came; → every commit holding it; all read."""


class GitScan:
    """What the home's git contents were found to hold, kept across checks (one per doctor)."""

    def __init__(self) -> None:
        self._held: dict[str, tuple[_Secret, ...]] = {}
        self._last: tuple[Path, str, _Scanned] | None = None
        """The home and HEAD last scanned, and what the scan found."""
        self.read = 0
        """Contents read from git so far: for tests and the curious."""

    def findings(self, home: Path) -> tuple[Finding, ...]:
        """A finding for each secret the home's files hold in its commits; never writes, never raises."""
        try:
            return self._findings(home)
        except (OSError, ValueError):
            return ()

    def _findings(self, home: Path) -> tuple[Finding, ...]:
        root = scanned_repo(home)
        top = head_commit(root) if root is not None else None
        if root is None or top is None:
            return ()
        if self._last is None or self._last[:2] != (home, top):
            self._last = (home, top, self._scan(home, root))
        first, holding, complete = self._last[2]
        found = []
        current: dict[str, set[bytes]] = {}  # read each time: the file may lose a secret while HEAD stays
        for (path, digest), (commit, kind, line) in first.items():
            if path not in current:
                current[path] = _digests(home / path)
            still = "the file still holds it" if digest in current[path] else "the file no longer holds it"
            later = len(holding[(path, digest)]) - 1
            article = "an" if kind[0].lower() in "aeiou" else "a"
            where = "" if os.path.realpath(root) == os.path.realpath(home) else f" in {root}"
            message = (
                f"commit {commit} put {article} {kind} in {path} at line {line}"
                + (f", and {later} later commit{'s' if later != 1 else ''} keep it" if later else "")
                + f"; {still}, git keeps it{where} (the notebook never rewrites git history; "
                "git filter-repo --replace-text can)"
            )
            found.append(finding(RULE, None, None, message, commit=commit))
        if not complete:
            found.append(
                finding(
                    "security.git-scan-limit",
                    None,
                    None,
                    f"the git scan for secrets read only the last {SCAN_COMMITS} commits touching the home "
                    "(or stopped at its byte or time budget): older commits were not read",
                )
            )
        return tuple(found)

    def _scan(self, home: Path, root: Path) -> _Scanned:
        """Where each secret the scanned commits hold first came (oldest commit), and every commit holding it."""
        scan = home_blobs(home, root)
        new = [blob.blob for blob in scan.blobs if blob.blob not in self._held]
        contents, read_all = blob_contents(root, new, deadline=scan.deadline)
        self.read += len(contents)
        for blob, data in contents.items():
            self._held[blob] = tuple(_secrets(data))
        first: dict[tuple[str, bytes], tuple[str, str, int]] = {}
        holding: dict[tuple[str, bytes], set[str]] = {}
        for blob in scan.blobs:  # newest commit first: the last one seen is the oldest that brought it
            for secret in self._held.get(blob.blob, ()):
                key = (blob.path, secret.digest)
                first[key] = (blob.short, secret.kind, secret.line)
                holding.setdefault(key, set()).add(blob.commit)
        return first, holding, scan.complete and read_all


def _secrets(data: bytes) -> list[_Secret]:
    found = []
    for kind, start, length in secret_spans(data):
        line = data.count(b"\n", 0, start) + 1
        found.append(_Secret(kind, line, hashlib.sha256(data[start : start + length]).digest()))
    return found


def _digests(path: Path) -> set[bytes]:
    """The digests of the secrets ``path`` holds now (empty when it cannot be read as a plain file).

    One open that never waits (:func:`...home.read_file`): a FIFO put where the file was, even between a look
    and a read, is no file, never a read that waits for a writer.
    """
    read = read_file(path, limit=_FILE_LIMIT)
    if read.status is not FileStatus.REGULAR or not read.complete:
        return set()  # a link, a FIFO or device, a directory, gone, unreadable, or past the limit
    return {secret.digest for secret in _secrets(read.data)}
