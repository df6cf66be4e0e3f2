"""Reading a home: the seven names, the one read path, the soul, find, consistent reads, refusals, its git ignores.

Nothing here writes but ``add_to_gitignore``, after a person's yes; opening or viewing a home goes through here only.
"""
