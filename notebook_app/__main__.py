"""``python -m notebook_app`` runs the same command as ``persona-notebook``."""

from notebook_app.cli.main import main

raise SystemExit(main())
