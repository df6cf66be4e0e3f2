"""The persona home over the Model Context Protocol: ``persona-notebook mcp [HOME]``."""
