"""The file-system moves every writer shares: directory locks, atomic writes, the home's pin and lock,
the state folder ``.notebook/``, and the data folders a user may override.
"""
