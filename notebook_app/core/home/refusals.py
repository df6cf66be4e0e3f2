"""Whether a file may be edited, decided once for the tool, the splice and the dry run.

Every writer asks :func:`edit_refusal` about the :class:`FileRead` it holds,
and the app's dry run asks it about the read it already shows, so a dry run
and the real call refuse the same files with the same words.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field

from notebook_app.core.home.files import FileRead, FileStatus

_LINK_STATES = (FileStatus.LINK, FileStatus.DANGLING_LINK, FileStatus.LINK_LOOP)


@dataclass(frozen=True)
class Rejection:
    """Why an action cannot be applied; ``message`` is the tool's error output."""

    message: str
    near: str | None = field(default=None, compare=False)
    """For a person, beside a miss: the near match that only hidden characters kept apart (never the agent's)."""


def edit_refusal(read: FileRead) -> Rejection | None:
    """Why the file ``read`` describes cannot be edited, None when it can.

    A link of any kind is refused (it could point anywhere, and replacing it
    would silently cut it off), so is whatever is not a regular file, a file
    that cannot be read, and bytes that are not UTF-8. For a read that stopped
    before the end, only the bytes read are checked (a character cut by the
    limit is not an error): the writer, which reads all of it, checks the rest.
    An absent file can be edited: an add creates it.
    """
    return file_refusal(read) or (
        utf8_refusal(read.name, read.data, final=read.complete) if read.status is FileStatus.REGULAR else None
    )


def file_refusal(read: FileRead) -> Rejection | None:
    """:func:`edit_refusal` without the UTF-8 check: what no writer may touch at all.

    The guarded splice asks only this: it is byte-exact, so a person can fix
    or restore a file whose bytes are not UTF-8.
    """
    name = read.name
    if read.link_target is not None or read.status in _LINK_STATES:
        return Rejection(
            f"{name} is a symbolic link (to {read.link_target}); the memory tool edits only regular files "
            "inside the home, so nothing was written"
        )
    if read.status is FileStatus.ABSENT:
        return None
    if read.status is FileStatus.UNREADABLE:
        return Rejection(f"{read.describe()}; nothing was written")
    if read.status is not FileStatus.REGULAR:
        return Rejection(f"{name} is not a regular file; nothing was written")
    return None


def utf8_refusal(name: str, data: bytes, *, offset: int = 0, final: bool = True) -> Rejection | None:
    """Why ``data`` (bytes of ``name`` from ``offset`` on) is not UTF-8, None when it is.

    With ``final`` false the data stops at a limit, not at the end of the
    file, so a character cut at its end is not an error.
    """
    try:
        codecs.getincrementaldecoder("utf-8")().decode(data, final=final)
    except UnicodeDecodeError as error:
        return Rejection(
            f"{name} is not valid UTF-8 (byte 0x{data[error.start]:02x} at offset {offset + error.start}); "
            "fix or remove the file first, nothing was written"
        )
    return None


def text_of(read: FileRead) -> str | None:
    """The text of a read that :func:`edit_refusal` accepted; None when absent.

    A character cut by the read's limit is left out, never replaced.
    """
    if read.status is FileStatus.ABSENT:
        return None
    return codecs.getincrementaldecoder("utf-8")().decode(read.data, final=read.complete)


def decode_error(data: bytes) -> str | None:
    """Why ``data`` is not UTF-8, in the words a file's ``decode_error`` keeps; None when it is."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        return f"not valid UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start})"
    return None
