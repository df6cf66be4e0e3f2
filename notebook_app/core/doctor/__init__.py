"""The home doctor: rules over a persona home, UI-free (issue 12).

Each rule has an id, a severity (error, warning, info), a file and line, a
message in words and, where one exists, a fix that is a guarded core write
with a dry run. Families: loading (does the file load at all), security
(hidden characters, lookalike letters, prompt injection, secrets), hygiene
(duplicates, conflicts, stray lines in MEMORY.md and USER.md, each read in its
dialect: a Hermes ``§`` store's drift and glued lines) and budget (what a host
loads, where it cuts, ≈tokens).

    doctor = Doctor()                       # keep one per worker: it caches per file digest
    report = doctor.check(home, host=profile)          # files=the home's FileMap, as it was opened
    report.findings, report.headline(), report.exit_status
    budget = doctor.exact_tokens(report)    # the slow half: exact token counts
"""
