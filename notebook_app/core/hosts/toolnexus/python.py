"""toolnexus (Python) 0.21.0: where the Python package differs from the contract it implements.

It composes the contract's soul on every golden case it finishes, but it reads
each file whole and decodes it strictly: a bootstrap file under the cap that is
not valid UTF-8, or a directory where a file should be, makes it raise, so no
session starts at all. :func:`starts_no_session` says why, in words; the
goldens in ``tests/hosts/goldens/toolnexus-py@0.21.0/`` prove it.
"""

from __future__ import annotations

from notebook_app.core.home.files import FileStatus
from notebook_app.core.home.soul import BOOTSTRAP_ORDER, Composition

TITLE = "toolnexus (Python) 0.21.0"


def starts_no_session(composition: Composition) -> str | None:
    """Why toolnexus (Python) 0.21.0 would start no session on this home, or None when it would."""
    loaded = {file.name: file for file in composition.files}
    skipped = {file.name: file for file in composition.skipped}
    for name in BOOTSTRAP_ORDER:  # it raises at the first file, in its order
        file = loaded.get(name)
        if file is not None and not file.truncated:
            try:
                bytes(file.loaded).decode("utf-8")
            except UnicodeDecodeError as error:
                return f"{TITLE} starts no session: {name} is not valid UTF-8 at byte {error.start}"
        gone = skipped.get(name)
        if gone is not None and gone.status in (FileStatus.DIRECTORY, FileStatus.UNREADABLE):
            return f"{TITLE} starts no session: {name} is a {gone.status.value}"
    return None
