"""Claude Code's instruction files: the project files that make a folder its project.

Their own module, so the host object (its export layout) and its home-finding both read them without importing
each other.
"""

INSTRUCTIONS: tuple[str, ...] = ("CLAUDE.md", ".claude/CLAUDE.md")
