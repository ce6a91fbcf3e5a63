"""What is hidden from a seat, swapped for another possibility (the swap check,
:mod:`roses.engine.swapcheck`; :meth:`Rules.hidden_variants`).

Hidden from a player are the other players' Crown and Event cards in hand, the Chancery, and the
order of both decks (hidden from everyone, the umpire too). Each variant changes one of these in
a copy: another player's Crown card (or Event card) exchanged with a card of its deck, a
Chancery card exchanged with a deck card, two cards of a deck exchanged.
"""

from __future__ import annotations

import random
from typing import Any

from roses.engine.contract import State, copy_json
from roses.games.kingmaker.common import (
    E_DECK,
    E_HAND,
    UMPIRE,
    Z_CHANC,
    Z_DECK,
    Z_HAND,
    has_umpire,
    player_of_role,
)


def _copy(state: State) -> State:
    return {k: (v[:] if k == "log" else copy_json(v)) for k, v in state.items()}


def _ints(value: Any, out: set[int]) -> set[int]:
    """Every int found in ``value`` (the cards a pending decision names: an offer, a treachery)."""
    if type(value) is int:
        out.add(value)
    elif isinstance(value, list):
        for x in value:
            _ints(x, out)
    elif isinstance(value, dict):
        for x in value.values():
            _ints(x, out)
    return out


def _exchange(state: State, zone: str, holder: str, pile: str, hand: int, deck_zone: int, held: int,
              rnd: random.Random, what: str) -> tuple[str, State] | None:
    """A card held (zone ``hand``, holder ``held``) exchanged with a card of ``pile``."""
    z, h = state[zone], state[holder]
    named = _ints(state["stack"], set())  # a card a pending decision names stays (it is that card)
    mine = [c for c in range(len(z)) if z[c] == hand and h[c] == held and c not in named]
    if not mine or not state[pile]:
        return None
    old = rnd.choice(mine)
    j = rnd.randrange(len(state[pile]))
    new = state[pile][j]
    out = _copy(state)
    out[zone][old], out[holder][old], out[zone][new], out[holder][new] = deck_zone, h[new], hand, held
    out[pile][j] = old
    return f"{what} {old} is {new} instead", out


def hidden_variants(state: State, role: str, rnd: random.Random) -> list[tuple[str, Any]]:
    """States that differ from ``state`` only in something hidden from ``role`` (module docs)."""
    out: list[tuple[str, State] | None] = []
    umpire = role == UMPIRE and has_umpire(state)
    if not umpire:
        p = player_of_role(state, role)
        for q in range(len(state["roles"])):
            if q == p:
                continue
            out.append(_exchange(state, "cz", "ch", "cdeck", Z_HAND, Z_DECK, q, rnd, f"player {q}'s Crown card"))
            out.append(_exchange(state, "ez", "eh", "edeck", E_HAND, E_DECK, q, rnd, f"player {q}'s Event card"))
        if state["chancery"] and state["cdeck"]:
            i, j = rnd.randrange(len(state["chancery"])), rnd.randrange(len(state["cdeck"]))
            old, new = state["chancery"][i], state["cdeck"][j]
            v = _copy(state)
            v["chancery"][i], v["cdeck"][j] = new, old
            v["cz"][old], v["cz"][new] = Z_DECK, Z_CHANC
            out.append((f"Chancery card {old} is {new} instead", v))
    for pile in ("cdeck", "edeck"):
        cards = state[pile]
        if len(cards) >= 2:
            i, j = rnd.sample(range(len(cards)), 2)
            v = _copy(state)
            v[pile][i], v[pile][j] = cards[j], cards[i]
            out.append((f"{pile} cards {cards[i]} and {cards[j]} exchanged", v))
    return [x for x in out if x is not None]
