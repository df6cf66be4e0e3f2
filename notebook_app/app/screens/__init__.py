"""The app's screens: the notebook itself, agent sessions, help, and the create-home question."""
