"""Pure algorithms over text: common runs, the three-way merge, hidden characters, a file's lines, secrets, tokens,
and how a time is said to a person.

No I/O and no home: every other package may use them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_face

if TYPE_CHECKING:
    from .common_runs import common_prefix, common_suffix, differing_excerpts
    from .hidden import describe_hidden, with_markers
    from .merge import Conflict, MergeResult, both, follow_line, merge3, mine, split_lines, theirs
    from .quote import secret_notice
    from .secrets import a_kind, secret_lines, secrets_in, shown_text
    from .times import clock_time, local_time
    from .tokens import DEFAULT_ENCODING, count_tokens

_HOME_OF: dict[str, str] = {
    "common_prefix": "common_runs",
    "common_suffix": "common_runs",
    "differing_excerpts": "common_runs",
    "describe_hidden": "hidden",
    "with_markers": "hidden",
    "Conflict": "merge",
    "MergeResult": "merge",
    "both": "merge",
    "follow_line": "merge",
    "merge3": "merge",
    "mine": "merge",
    "split_lines": "merge",
    "theirs": "merge",
    "clock_time": "times",
    "local_time": "times",
    "a_kind": "secrets",
    "secret_lines": "secrets",
    "secret_notice": "quote",
    "secrets_in": "secrets",
    "shown_text": "secrets",
    "DEFAULT_ENCODING": "tokens",
    "count_tokens": "tokens",
}
"""Each exported name -> the module that defines it; it loads on the name's first use."""

lazy_face(__name__, _HOME_OF)

__all__ = [
    "a_kind",
    "DEFAULT_ENCODING",
    "Conflict",
    "MergeResult",
    "both",
    "clock_time",
    "common_prefix",
    "common_suffix",
    "count_tokens",
    "describe_hidden",
    "differing_excerpts",
    "follow_line",
    "local_time",
    "merge3",
    "mine",
    "secret_lines",
    "secret_notice",
    "secrets_in",
    "shown_text",
    "split_lines",
    "theirs",
    "with_markers",
]
