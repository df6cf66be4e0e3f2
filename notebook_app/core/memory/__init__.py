"""The agent's ``memory`` tool (contract section 3) and every edit of an entry file, above the record.

The tool, its plan (pure), the entry dialects and results at the top; a person's edits (entry plans, the
guarded splice, hand edits, an outside editor's copy) in :mod:`.edits`; review mode (proposals a person
approves) in :mod:`.review`; the per-home settings that choose a server's mode in :mod:`.settings`. The
guard mode applies the doctor's rules, which read the memory files, so it sits above the doctor, in
:mod:`notebook_app.core.guard`.
"""
