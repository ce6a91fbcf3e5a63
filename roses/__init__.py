"""Roses: the Wars of the Roses board games online."""

__version__ = "0.1.0"
