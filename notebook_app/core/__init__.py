"""The persona-home contract, free of any UI: the memory tool, the soul, sessions.

Everything the app, the CLI and the MCP server do to a home goes through here.

Importing the package loads none of its modules: each name loads its own
module on first use (PEP 562), so ``from notebook_app.core import compose``
costs compose's imports, not the whole core's (the app's start, the CLI).
"""
