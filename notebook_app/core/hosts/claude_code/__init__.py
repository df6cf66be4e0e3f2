"""Claude Code 2.1.332: the ``<system-reminder>`` block of instruction files and auto memory it sends at the
start of a session, as its own binary builds it. ``load`` walks the files; ``text`` holds JavaScript's string
rules (UTF-16 units, trims, front matter); ``imports`` its ``@path`` imports. Names load on first use.
"""
