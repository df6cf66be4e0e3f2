"""The notebook's view model: what the screens show, computed without Textual.

The :class:`~.notebook.Notebook` (a home read, written and compared), the
documents the panes draw and their wrapping into rows, the dry run, find, the
conflict's sides, agent sessions, the session counter, the palette's host
choices and the one error policy's words. Nothing here imports Textual or
watchfiles, and of rich only its cell widths (the ``view-model-is-textual-free``
contract in pyproject.toml); widgets, screens and the app import it, never the reverse.
"""
