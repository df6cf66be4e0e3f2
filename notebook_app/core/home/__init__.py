"""Reading a home: the seven names, the one read path, the soul, find, consistent reads, refusals, its git ignores.

Nothing here writes but ``add_to_gitignore``, after a person's yes; opening or viewing a home goes through here only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_face

if TYPE_CHECKING:
    from .files import FileRead, FileStatus, read_file
    from .git_ignore import (
        OUR_PATHS,
        GitAnswer,
        add_to_gitignore,
        git_answer,
        git_hint,
        not_ignored,
        remember_git_answer,
        to_ask,
    )
    from .layout import (
        FLAT,
        Dialect,
        FileMap,
        HostFile,
        claude_code_files,
        hermes_files,
        host_files,
        on_demand_files,
        openclaw_files,
    )
    from .names import BOOTSTRAP_ORDER
    from .reading import ENTRY_FILES, JOURNAL_NAME, MEMORY_TARGETS, is_scratch_file
    from .refusals import Rejection, edit_refusal, text_of
    from .search import Found, Hit, Query, Searchable, find, offset_at, prepare
    from .signs import may_be_host_home
    from .soul import (
        MAX_FILE_BYTES,
        TRUNCATION_NOTICE,
        BootstrapFile,
        Composition,
        SkippedFile,
        compose,
        compose_soul,
        home_path,
    )

_HOME_OF: dict[str, str] = {
    "FileRead": "files",
    "FileStatus": "files",
    "read_file": "files",
    "OUR_PATHS": "git_ignore",
    "GitAnswer": "git_ignore",
    "add_to_gitignore": "git_ignore",
    "git_answer": "git_ignore",
    "not_ignored": "git_ignore",
    "git_hint": "git_ignore",
    "to_ask": "git_ignore",
    "remember_git_answer": "git_ignore",
    "FLAT": "layout",
    "Dialect": "layout",
    "FileMap": "layout",
    "HostFile": "layout",
    "claude_code_files": "layout",
    "hermes_files": "layout",
    "may_be_host_home": "signs",
    "on_demand_files": "layout",
    "openclaw_files": "layout",
    "host_files": "layout",
    "Found": "search",
    "Hit": "search",
    "Query": "search",
    "Searchable": "search",
    "find": "search",
    "offset_at": "search",
    "prepare": "search",
    "BOOTSTRAP_ORDER": "names",
    "ENTRY_FILES": "reading",
    "JOURNAL_NAME": "reading",
    "MEMORY_TARGETS": "reading",
    "is_scratch_file": "reading",
    "Rejection": "refusals",
    "edit_refusal": "refusals",
    "text_of": "refusals",
    "BootstrapFile": "soul",
    "Composition": "soul",
    "MAX_FILE_BYTES": "soul",
    "SkippedFile": "soul",
    "TRUNCATION_NOTICE": "soul",
    "compose": "soul",
    "compose_soul": "soul",
    "home_path": "soul",
}
"""Each exported name -> the module that defines it; it loads on the name's first use."""

lazy_face(__name__, _HOME_OF)

__all__ = [
    "BOOTSTRAP_ORDER",
    "ENTRY_FILES",
    "JOURNAL_NAME",
    "MAX_FILE_BYTES",
    "MEMORY_TARGETS",
    "TRUNCATION_NOTICE",
    "BootstrapFile",
    "Composition",
    "FileRead",
    "FileStatus",
    "Found",
    "Hit",
    "Query",
    "Rejection",
    "Searchable",
    "SkippedFile",
    "compose",
    "compose_soul",
    "edit_refusal",
    "find",
    "home_path",
    "is_scratch_file",
    "offset_at",
    "prepare",
    "read_file",
    "text_of",
    "FLAT",
    "Dialect",
    "FileMap",
    "HostFile",
    "claude_code_files",
    "hermes_files",
    "may_be_host_home",
    "on_demand_files",
    "openclaw_files",
    "host_files",
    "OUR_PATHS",
    "GitAnswer",
    "add_to_gitignore",
    "git_answer",
    "not_ignored",
    "git_hint",
    "to_ask",
    "remember_git_answer",
]
