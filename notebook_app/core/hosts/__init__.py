"""Hosts as data: what each agent host really loads from a persona home.

``toolnexus`` (the contract) is the default; ``openclaw``, ``hermes`` and
``claude-code`` ship beside it as profile files, and a person's own profiles
in ``<config dir>/persona-notebook/hosts/`` replace or add to them.
:func:`load_as` gives what any host injects next session, file by file (the proven
loaders, the contract's composition, a person's own profile), in one shape.
:func:`resolve_host` turns a name (``openclaw`` or ``openclaw@2026.4``) into the
profile in force, the user's OpenClaw config applied, with what was read said
in words; :func:`..home.soul.compose` with ``host=`` gives the soul that host loads.
:func:`open_home` says which host a folder opens as, and where each host keeps its
home (``opening``); :func:`remember_host` keeps a person's choice for a folder;
:func:`previews_of` says which hosts a home opened so may be previewed as.
"""
