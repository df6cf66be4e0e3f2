"""A person's writes: entry plans, the guarded splice, whole-file hand edits, edits in an outside editor."""
