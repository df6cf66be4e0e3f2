"""The record of a write: what makes it durable and recorded, below the memory tool that asks for it.

The locked home and its writes (:mod:`.storage`, :mod:`.writes`, :mod:`.recording`, groups of writes,
writes from outside and side events), the ``.memory.journal`` slots and recovery after a killed writer,
the event log and its snapshots (:mod:`.log`), the log rewritten whole (:mod:`.log_rewrite`), the per-home
settings, and each write's git commit (:mod:`.git`). Every write of
the core goes through :mod:`.storage`; nothing of it loads before the first write. Undo, restore and blame
use the memory tool's plan and sit a layer above it, in :mod:`notebook_app.core.history`.
"""
