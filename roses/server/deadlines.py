"""Deadlines with published defaults: when a seat's time runs out on a decision that has a
published default (a ransom offer unanswered, permission asked, a storm port, a vote...), the
server plays that default for the seat instead of ending the game.

The rules say which decisions have a default: the contract's hook ``Rules.default_action(state,
role)`` (e.g. "no ransom means execution", "permission denied", abstain). A game that does not
declare it, or a decision without a default (a player's own turn), keeps the clock's rule: the
seat loses on time (:mod:`roses.server.clocks`).

The default is played through the service's normal path as the seat's action, on the version
the time-out was found at (a move made meanwhile wins), so it is in the action log, replays, and
is told to the players like any move. A game whose rules declare a ``default_verb`` (with the
reason ``deadline`` or ``vacation`` as its argument) gets that verb instead: the rules play the
same default and write in the game's own log that it was one. With a pace whose bonus refills
the bank (``S+S``, e.g. ``86400+86400``: a day per decision), every decision gets the same
deadline.
"""

from __future__ import annotations

import json
import logging
import time
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from roses.engine.contract import Rules
from roses.engine.errors import RosesError
from roses.engine.game import Game
from roses.engine.registry import get_rules
from roses.server import db
from roses.server.errors import ServerError

if TYPE_CHECKING:
    from roses.server.service import GameService

log = logging.getLogger("roses.server.deadlines")


def published_default(svc: GameService, game_id: int, role: str, version: int) -> tuple[str, Any] | None:
    """The default of ``role``'s open decision at ``version`` (None: no default, or the game has
    moved on). Replays the stored action log (a time-out is rare)."""
    with svc.db.read() as conn:
        row = conn.execute(sa.select(db.games.c.game, db.games.c.seed, db.games.c.scenario, db.games.c.options,
                                     db.games.c.version, db.games.c.status).where(db.games.c.id == game_id)).first()
        if row is None or row.status != "active" or int(row.version) != version or row.seed is None:
            return None
        rules = get_rules(row.game)
        if not rules.declares("default_action"):
            return None
        acts = [{"role": a.role, "verb": a.verb, "arg": json.loads(a.arg)} for a in conn.execute(
            sa.select(db.actions.c.role, db.actions.c.verb, db.actions.c.arg)
            .where(db.actions.c.game_id == game_id, db.actions.c.seq <= version).order_by(db.actions.c.seq))]
    try:
        game = Game.from_record(rules, {"seed": int(row.seed), "scenario": row.scenario,
                                        "options": json.loads(row.options), "actions": acts})
        found = rules.default_action(game.state, role)
    except RosesError:
        return None
    if found is None:
        return None
    verb, arg = found
    return str(verb), arg


def default_rules(svc: GameService, game_id: int) -> Rules | None:
    """The rules object of the game ``game_id`` (None for an unknown game)."""
    with svc.db.read() as conn:
        game = conn.execute(sa.select(db.games.c.game).where(db.games.c.id == game_id)).scalar()
    return None if game is None else get_rules(str(game))


#: Why a default was played (``defaults_played.reason``).
DEADLINE = "deadline"
VACATION = "vacation"


def play_default(svc: GameService, game_id: int, role: str, version: int, reason: str = DEADLINE) -> bool:
    """Play ``role``'s published default at ``version``; False when there is none (or the game
    moved meanwhile), and the clock's rule applies. The action is recorded in
    ``defaults_played`` with ``reason`` (``deadline`` or ``vacation``), so the gazette and
    :func:`defaults_of` say it was a default."""
    action = published_default(svc, game_id, role, version)
    if action is None:
        return False
    # Recorded first (a gazette reads only the marks of actions it has), taken back if refused.
    mark = db.defaults_played.c
    with svc.db.write() as conn:
        conn.execute(db.defaults_played.delete().where(mark.game_id == game_id, mark.seq == version + 1))
        conn.execute(db.defaults_played.insert().values(game_id=game_id, seq=version + 1, role=role, reason=reason,
                                                        created_at=time.time()))
    # A game whose rules declare a verb for "the published default, by deadline" (it plays the
    # default and says so in the game's own log) gets that verb; any other game gets the
    # default action itself.
    rules = default_rules(svc, game_id)
    verb = None if rules is None else rules.default_verb
    try:
        if verb:
            svc.act(None, game_id, role, verb, reason, version, system=True)
        else:
            svc.act(None, game_id, role, action[0], action[1], version, system=True)
    except ServerError:
        with svc.db.write() as conn:
            conn.execute(db.defaults_played.delete().where(mark.game_id == game_id, mark.seq == version + 1,
                                                           mark.role == role))
        return False
    log.info("game %s: %s's time ran out; the published default %s was played", game_id, role, action[0])
    return True


def defaults_of(svc: GameService, game_id: int) -> list[dict[str, Any]]:
    """The actions of the game's log the server played as a published default, in order."""
    with svc.db.read() as conn:
        return [{"seq": int(r.seq), "role": r.role, "reason": r.reason} for r in conn.execute(
            sa.select(db.defaults_played).where(db.defaults_played.c.game_id == game_id)
            .order_by(db.defaults_played.c.seq))]


def describe(role: str, reason: str) -> str:
    """The public sentence saying that a move was a default (no detail of the move itself:
    the public log already says what it did, and only that)."""
    why = "is away" if reason == VACATION else "ran out of time"
    return f"{role} {why}: the published default was played for that seat."
