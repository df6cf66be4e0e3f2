"""The memory action form."""
