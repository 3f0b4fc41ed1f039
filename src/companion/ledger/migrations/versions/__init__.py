"""Migration scripts (Alembic skips this file)."""
