"""The app's screens: the notebook itself, help, and the create-home question."""

from .create_home import CreateHomeScreen
from .help import HelpScreen
from .main import MainScreen

__all__ = ["CreateHomeScreen", "HelpScreen", "MainScreen"]
