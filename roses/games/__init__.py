"""One package per game; each exposes ``RULES`` (see roses.engine.contract)."""
