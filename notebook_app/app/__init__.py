"""The notebook app: ``launch`` is what ``persona-notebook [HOME]`` runs."""
