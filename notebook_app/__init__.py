"""Persona Notebook: a terminal notebook for the persona homes of AI agents."""

__version__ = "0.1.0"
