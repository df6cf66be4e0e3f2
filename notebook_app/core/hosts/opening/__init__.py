"""Which host a home opens as, and where each host keeps its home (issue 22, items 1, 2 and 7).

:func:`open_home` turns a folder (or none: the named host's own home) into an
:class:`Opening`: the folder the notebook works on, its host and version, the
file map the reading and writing side take (:class:`...home.layout.FileMap`),
and the reason in words; or an :class:`OpeningError` (a usage error, exit 2).
The host named wins, then the one remembered for the folder (:func:`remember_host`,
kept in the user's state by ``core/home/remembered.py``), then the layout's
(``detect``), then toolnexus.
Each host package's ``home`` module holds its own rule
for where its home is, citing its source. :func:`previews_of` says which hosts a
home opened so may be previewed as (the palette), and why each other is not.
Names load on first use.
"""
