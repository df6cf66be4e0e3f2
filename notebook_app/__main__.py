"""``python -m notebook_app`` runs the same command as ``persona-notebook``."""

from .cli import main

raise SystemExit(main())
