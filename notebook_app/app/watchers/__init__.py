"""The app's folder watchers: the home's files, its agent-session log, both at once for the read-only views.

Each posts Textual messages to a screen; watchfiles and anyio load with the
first watch, after the first frame (:mod:`.folder`).
"""
