"""No stalling (ruling K93): a request refused once is not made again to the same player in the
same turn unless the position has changed since.

The requests a player puts to another, each a question the other must answer (with its own
deadline online): entry into his place (§Faction, §Town, Cities, and Castles: the step
``permit``), an alliance or an offer from the dealing menu (§Alliances, §Transfers: the step
``offer``), and a negotiated exchange (offers.py). When the other refuses, the refusal is kept
in ``state["refused"]`` as ``[turn number, asker, key, stamp]``: ``key`` names the request
(``enter:<place>``, the dealing verb and its argument, ``exchange:<content>``), ``stamp`` the
public position at the refusal (:func:`stamp`). While the turn and the stamp are the same, the
request is not offered to the asker again (a move, a combat, a card played or awarded, a
place or an alliance changing hands all change the stamp). The list is emptied when a turn
begins.

The stamp reads only what every player sees (counters, places, alliances, the cards in play
and the size of each hand), so whether a request is offered again tells nobody anything hidden.
"""

from __future__ import annotations

import hashlib
import json

from roses.engine.contract import State
from roses.games.kingmaker.common import Z_ASSET, Z_AWARD, Z_HAND, Z_NOBLE

#: The public parts of the position a stamp reads.
_KEYS = ("nsq", "nin", "nship", "ncap", "hsq", "hin", "hesc", "hdead", "hcrown", "spos", "sctl", "lent",
         "pown", "siege", "ally", "guests", "command")
_PUBLIC_ZONES = (Z_NOBLE, Z_AWARD, Z_ASSET)


def stamp(state: State) -> str:
    """A digest of the public position (see the module's text)."""
    cz, ch = state["cz"], state["ch"]
    cards = [[c, z, ch[c]] for c, z in enumerate(cz) if z in _PUBLIC_ZONES]
    hands = [0] * len(state["roles"])
    for c, z in enumerate(cz):
        if z == Z_HAND:
            hands[ch[c]] += 1
    text = json.dumps([[state[k] for k in _KEYS], cards, hands], sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def refuse(state: State, asker: int, key: str) -> None:
    """Remember that ``asker``'s request ``key`` was refused now."""
    state.setdefault("refused", []).append([state["tno"], asker, key, stamp(state)])


def blocked(state: State, asker: int) -> frozenset[str]:
    """The requests ``asker`` may not make again now (refused in this turn, position unchanged)."""
    got = state.get("refused")
    if not got:
        return frozenset()
    now, tno = stamp(state), state["tno"]
    return frozenset(k for t, a, k, s in got if t == tno and a == asker and s == now)


def new_turn(state: State) -> None:
    state.pop("refused", None)
