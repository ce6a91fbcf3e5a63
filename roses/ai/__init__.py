"""Bots over the rules contract."""
