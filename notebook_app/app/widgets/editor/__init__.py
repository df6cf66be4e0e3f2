"""The built-in editor's widgets."""
