"""Pure algorithms over text: common runs, the three-way merge, hidden characters, a file's lines, secrets, tokens,
and how a time is said to a person.

No I/O and no home: every other package may use them.
"""
