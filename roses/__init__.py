"""Roses: the Wars of the Roses board games online."""

from roses._compiled import activate_from_environment

__version__ = "0.1.0"

# Pure Python unless ROSES_COMPILED asks for the compiled build (roses/_compiled.py).
activate_from_environment()
