"""``persona-notebook``: the app, and the same core for scripts and agents.

A thin shell over :mod:`notebook_app.core`: :mod:`.main` dispatches (its :data:`~.main.VERBS`, the
exit codes), one module per verb family.
"""
