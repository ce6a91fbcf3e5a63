"""Find a game's rules module by id.

Each game package ``roses.games.<id>`` exposes ``RULES``, an instance of
:class:`roses.engine.contract.Rules`. The engine knows games only by id.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from roses.engine.contract import Rules
from roses.engine.errors import UnknownGame

KNOWN_GAMES = ("richard3", "plantagenet", "kingmaker")


@cache
def get_rules(game_id: str) -> Rules:
    if not game_id.isidentifier():
        raise UnknownGame(f"Unknown game {game_id!r}.")
    try:
        module = importlib.import_module(f"roses.games.{game_id}")
    except ModuleNotFoundError as exc:
        raise UnknownGame(f"Unknown game {game_id!r}.") from exc
    rules = getattr(module, "RULES", None)
    if not isinstance(rules, Rules):
        raise UnknownGame(f"Game package {game_id!r} has no rules.")
    return rules


def available_games() -> list[str]:
    """Ids of the installed game packages that provide rules, in a stable order."""
    import roses.games

    found = {m.name for m in pkgutil.iter_modules(roses.games.__path__) if m.ispkg}
    ordered = [g for g in KNOWN_GAMES if g in found] + sorted(found - set(KNOWN_GAMES))
    out = []
    for gid in ordered:
        try:
            get_rules(gid)
        except UnknownGame:
            continue
        out.append(gid)
    return out
