"""How far a doctor read a home's log, remembered across runs in the user's state folder (never in the home).

A fresh ``persona-notebook doctor`` would otherwise scan the whole log each
time (the first pass reads about 30 MB/s; a log of 10,000 records is 9 MB).
What is kept per home is the log's id, how far it was read, the sha256 of
those bytes, and the offsets of the records that held a secret: no text of
theirs. It is used only when the log still begins with exactly those bytes
(hashing runs at hundreds of MB/s), so a log rewritten by prune or redact,
or edited by hand, is read again from the start.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from notebook_app.core.fs.atomic import write_atomically
from notebook_app.core.record.log.store import LogReader

_CHUNK = 1 << 22


def memo_path(home: Path) -> Path:
    from platformdirs import user_state_dir  # lazy: platformdirs (17 ms), at first use

    key = hashlib.sha256(os.fsencode(home.resolve())).hexdigest()[:32]
    return Path(user_state_dir("persona-notebook")) / "doctor" / f"{key}.json"


def _digest(reader: LogReader, end: int) -> hashlib._Hash:
    """sha256 of the log's first ``end`` bytes, still open: the next reads add to it."""
    digest = hashlib.sha256()
    position = 0
    while position < end:
        chunk = os.pread(reader.fd, min(_CHUNK, end - position), position)
        if not chunk:
            break
        digest.update(chunk)
        position += len(chunk)
    return digest


def recall(home: Path, reader: LogReader) -> tuple[int, list[int], hashlib._Hash] | None:
    """(where the reading stopped, offsets of records that held a secret, the digest so far) when the log still
    begins as read."""
    try:
        memo = json.loads(memo_path(home).read_text())
        end, offsets = int(memo["end"]), [int(o) for o in memo["records"]]
        if memo["log"] != reader.log_id or end > reader.end:
            return None
        digest = _digest(reader, end)
        if memo["sha256"] != digest.hexdigest():
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return end, offsets, digest


def remember(home: Path, reader: LogReader, offsets: list[int], digest: hashlib._Hash) -> None:
    """Keep how far ``reader`` was read (``digest``: of every byte up to its end); a state folder that cannot be
    written is left alone (the next run reads again)."""
    try:
        path = memo_path(home)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        memo = {
            "home": str(home),
            "log": reader.log_id,
            "end": reader.end,
            "sha256": digest.hexdigest(),
            "records": offsets,
        }
        write_atomically(
            path.parent, path.name, json.dumps(memo).encode(), mode=0o600, temp_prefix=".tmp-", durable=False
        )
    except (OSError, ImportError):
        return


def started(reader: LogReader) -> tuple[int, hashlib._Hash]:
    """Where the first record begins, and the digest of the header before it: a reading from the start."""
    start = reader.records_start
    return start, hashlib.sha256(os.pread(reader.fd, start, 0))
