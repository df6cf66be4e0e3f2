"""The history: reading it, looking after it (prune, redact), undo and restore, blame."""
