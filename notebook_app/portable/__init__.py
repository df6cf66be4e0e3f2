"""Take a persona anywhere: export and import between hosts, with a plan first (issue 25). UI-free.

Above the core, through its faces only: :func:`read_persona` reads a persona from any of the four hosts' homes
(toolnexus, OpenClaw, Hermes, Claude Code), :func:`make_plan` says where each file and entry lands in a target
host's home, what its loader cuts, what it merges and what moves to an overflow file it does not load (never a
silent drop), and :func:`apply_plan` writes exactly that plan, or nothing. Secrets the doctor finds refuse the
write unless allowed, named by rule, file and line, never by their text. The CLI (``export``, ``import``) is a
shell over it. The table of where each file goes is each host's :attr:`.Host.export` (:func:`.layouts.layout_of`)
and docs/portable.md. Names load on first use.
"""
