"""The agent-sessions view's widgets: the list of sessions and one session's journal."""
