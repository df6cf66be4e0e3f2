"""The app's screens: the notebook itself, agent sessions, help, and the create-home question."""

from .agent_sessions import AgentSessionsScreen
from .create_home import CreateHomeScreen
from .help import HelpScreen
from .main import MainScreen

__all__ = ["AgentSessionsScreen", "CreateHomeScreen", "HelpScreen", "MainScreen"]
