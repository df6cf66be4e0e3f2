"""The persona home over the Model Context Protocol: ``persona-notebook mcp [HOME]``."""

from .server import SOUL_PROMPT, SOUL_URI, build_server, serve

__all__ = ["SOUL_PROMPT", "SOUL_URI", "build_server", "serve"]
