"""``persona-notebook``: the app, and the same core for scripts and agents.

A thin shell: every rule lives in :mod:`notebook_app.core`. Each verb group is
a module of its own that registers its parser in :data:`VERBS`; this module
only dispatches. Exit codes: 0 success, 1 the core refused (the reason on
stderr), 2 a usage error, 141 the reader of stdout went away (``history | head``):
the command ends quietly, as a tool killed by SIGPIPE does (128 + 13).
"""
