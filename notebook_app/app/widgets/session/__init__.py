"""The Current and Next session panes."""
