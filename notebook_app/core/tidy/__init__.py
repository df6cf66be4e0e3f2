"""Tidy (issue 23): one reviewed proposal to consolidate a home's memory, never a silent rewrite.

The proposal, from reads alone: duplicates, rewordings, superseded facts,
files over their host's cap, empty lines; what is not an entry is reported,
never proposed. Applying chosen hunks (:func:`apply_tidy`): recomputed under
the home's lock, live ids only, the archive first, then the sources, as one
recorded, undoable write. :func:`tidy_prompt` words the same rules for an
agent, whose calls a review-mode server queues.
"""
