"""The persona-home contract, free of any UI: the memory tool, the soul, sessions.

Everything the app, the CLI and the MCP server do to a home goes through here.
A package's face is this docstring alone: import a name from the module that
defines it (docs/architecture.md).
"""
