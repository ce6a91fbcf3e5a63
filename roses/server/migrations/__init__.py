"""Alembic migrations of the server database (run by ``roses serve`` at start)."""
