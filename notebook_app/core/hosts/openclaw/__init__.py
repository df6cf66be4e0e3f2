"""OpenClaw: its proven releases as data, what each injects from a workspace, its own config's caps, and
that load as the notebook's :class:`...home.soul.Composition` (for the doctor, the panes and a dry run).

``releases`` resolves a version to the release whose goldens prove its rules; ``bootstrap`` reads a
workspace and builds its entries as that release does; ``config`` reads ``openclaw.json``; ``soul``
composes; ``pane`` says what a file's pane tells of it (BOOTSTRAP.md's first run, a daily note, the cap).
Names load on first use.
"""
