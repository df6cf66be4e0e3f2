"""Review mode: an agent's writes queued as proposals, approved or rejected by a person, alone or in batches."""
