"""Widgets, grouped by the screen area they live in."""
