"""Sessions: the frozen snapshot and the next one, agent sessions' files, their calls, presence."""
