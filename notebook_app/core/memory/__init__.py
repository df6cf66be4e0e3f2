"""The agent's ``memory`` tool (contract section 3): its plan (pure), the tool, the entry dialect, results.

The guard and review modes wrap the tool (:mod:`..modes`).
"""
