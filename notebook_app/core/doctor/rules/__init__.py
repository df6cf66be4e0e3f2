"""The doctor's rules, a family per module: secrets, security, injection, hygiene, budget, loading,
secrets in the history. :mod:`..check` runs them all.
"""
