"""Tests of the game server (roses.server)."""
