"""Loading rules: whether each bootstrap file loads at all, and whole.

They read what the one read path (:func:`...home.files.read_file`) already says
about a file; the cut at a cap is the budget rules' business, since where a
file is cut depends on the host.
"""

from __future__ import annotations

import codecs
import os
from pathlib import Path

from notebook_app.core.doctor.model import Finding, finding
from notebook_app.core.doctor.repair import Utf8Fix, bad_runs
from notebook_app.core.fs.home_pin import moved, read_only
from notebook_app.core.fs.state_dir import state_problem
from notebook_app.core.home.files import FileRead, FileStatus
from notebook_app.core.home.reading import is_temp_file
from notebook_app.core.text.file_text import FileText, line_of_byte


def status_findings(read: FileRead) -> list[Finding]:
    """What is wrong with the file itself, before any of its bytes: a link, a FIFO, no permission."""
    name, status = read.name, read.status
    if status is FileStatus.UNREADABLE:
        return [finding("load.unreadable", name, None, f"{read.describe()}; the session does not load it")]
    if status in (FileStatus.DIRECTORY, FileStatus.SPECIAL):
        return [finding("load.not-regular", name, None, f"{read.describe()}; the session does not load it")]
    if status in (FileStatus.DANGLING_LINK, FileStatus.LINK_LOOP):
        return [finding("load.broken-link", name, None, f"{read.describe()}; the session does not load it")]
    if status is FileStatus.LINK:
        return [
            finding(
                "load.link",
                name,
                None,
                f"{name} is a symbolic link to {read.link_target}: a session loads whatever it points to, "
                "and the memory tool refuses to edit it",
            )
        ]
    return []


def content_findings(file: FileText, *, complete: bool) -> list[Finding]:
    """Bytes that are not UTF-8 (each run named, with the fix that repairs them), and a file with nothing in it."""
    found = []
    try:
        codecs.getincrementaldecoder("utf-8")().decode(file.data, final=complete)
    except UnicodeDecodeError as error:
        found.append(_not_utf8(file, error.start, error.end, complete=complete))
    if not file.text.strip():
        found.append(finding("load.empty", file.name, None, f"{file.name} is empty: it loads as an empty section"))
    return found


def _not_utf8(file: FileText, start: int, end: int, *, complete: bool) -> Finding:
    """The finding for a file whose bytes are not all UTF-8;
    each bad run, and the repair, when the whole file was read."""
    first = " ".join(f"0x{byte:02x}" for byte in file.data[start:end])
    where = f"{file.name} is not UTF-8 at byte {start:,} ({first})"
    runs = bad_runs(file.data) if complete else None
    if runs is not None and runs.count > 1:
        where += f" and in {runs.count - 1:,} more place{'s' if runs.count > 2 else ''}"
    bad = f". Bad bytes: {runs.words()}" if runs is not None else ""
    return finding(
        "load.not-utf8",
        file.name,
        line_of_byte(file.data, start),
        f"{where}: a session loads U+FFFD in its place, and the memory tool refuses to edit the file{bad}",
        Utf8Fix(file.name, file.digest, runs.count) if runs is not None else None,
    )


def scan_limit_finding(file: FileText, limit: int) -> Finding | None:
    if file.size <= len(file.data):
        return None
    return finding(
        "load.scan-limit",
        file.name,
        None,
        f"{file.name} is {file.size:,} bytes; the doctor read the first {limit:,} and says nothing about the rest",
    )


def temp_file_findings(home: Path, *, limit: int = 100) -> list[Finding]:
    """Temp files of a rewrite whose writer was killed before its rename.

    Each is a whole copy of a file's new text under a hidden name; the next
    write through the core removes it. At most ``limit`` are named.
    """
    found: list[Finding] = []
    try:
        with os.scandir(home) as entries:
            for entry in entries:
                if is_temp_file(entry.name):
                    found.append(
                        finding(
                            "load.temp-file",
                            entry.name,
                            None,
                            f"{entry.name} is a temp file left by a writer that was killed before it finished; "
                            "no session loads it, and the next write through the notebook, the CLI or the memory tool "
                            "removes it",
                        )
                    )
                    if len(found) >= limit:
                        break
    except OSError:
        return found
    return sorted(found, key=lambda f: f.file or "")


def home_findings(home: Path) -> list[Finding]:
    """What stops a write, or its record, before any file is looked at: the words every write would give."""
    gone = moved(home)
    if gone is not None:
        return [
            finding("home.moved", None, None, gone.replace("; nothing was written", ": every write to it is refused"))
        ]
    found = []
    locked = read_only(home)
    if locked is not None:
        found.append(
            finding(
                "home.read-only",
                None,
                None,
                f"{locked}; every write is refused (the home cannot hold a journal or a temp file for a safe rewrite)",
            )
        )
    unkept = state_problem(home)
    if unkept is not None:
        found.append(finding("home.history-link", None, None, unkept))
    return found
