"""Hermes Agent 0.19.0: what it injects from ``$HERMES_HOME`` (its SOUL.md, one project context file, the
``§`` entries of ``memories/``), as its own code builds each part, and the settings of its ``config.yaml``
that change that. ``load`` builds the parts; ``config`` reads the config. Names load on first use.
"""
