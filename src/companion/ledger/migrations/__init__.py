"""Alembic migrations of the ledger, shipped in the package and applied on open."""
