"""Rich renderings shared by the CLI and the app: sanitised text, tables and value formats."""
