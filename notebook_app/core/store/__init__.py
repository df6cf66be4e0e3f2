"""The write path: the locked home, writes and their records, the ``.memory.journal`` slots, recovery.

Every write of the core goes through :mod:`.storage` here; nothing of it loads before the first write.
"""
