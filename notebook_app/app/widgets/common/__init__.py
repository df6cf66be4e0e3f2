"""Shared building blocks: the virtual line view."""
