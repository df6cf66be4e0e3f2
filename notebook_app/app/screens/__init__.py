"""The app's screens: the notebook itself, agent sessions, help, and the create-home question."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .create_home import CreateHomeScreen
from .help import HelpScreen
from .main.screen import MainScreen

if TYPE_CHECKING:
    from .agent_sessions import AgentSessionsScreen

__all__ = ["AgentSessionsScreen", "CreateHomeScreen", "HelpScreen", "MainScreen"]


def __getattr__(name: str) -> object:
    """Load the agent-sessions view on first use: start-up does not need its ~25 ms of imports."""
    if name == "AgentSessionsScreen":
        from .agent_sessions import AgentSessionsScreen

        return AgentSessionsScreen
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
