"""Kingmaker for bots: determinisation (the contract's hook, roses.ai).

What a role does not know is re-sampled: the cards of the other players' hands, the Crown deck,
Chancery and the cards Treachery discarded face down (one pool, their slots kept); the other
players' Event hands and the Event deck (one pool); a Refuge card another player has in use is
swapped only with another unknown Refuge card (its use is public, its turns are not). The
generator is re-drawn from ``seed``; log lines hidden from the role are dropped. The ballots of
a Parliament vote not yet decided are re-drawn, and other seats' standing orders dropped, as
are the pending offers between two other seats (offers.py).
"""

from __future__ import annotations

import pickle
import random

from roses.engine.contract import State
from roses.engine.log import readable_entries
from roses.games.kingmaker import orders
from roses.games.kingmaker.common import (
    E_DECK,
    E_HAND,
    E_USE,
    Z_CHANC,
    Z_DECK,
    Z_HAND,
    player_of_role,
)
from roses.games.kingmaker.play import event_deck


def determinize(state: State, role: str, seed: int) -> State:
    p = player_of_role(state, role)
    r = random.Random(seed)
    out: State = pickle.loads(pickle.dumps({k: v for k, v in state.items() if k != "log"}, pickle.HIGHEST_PROTOCOL))
    out["log"] = readable_entries(state["log"], role)
    cz, ch = out["cz"], out["ch"]
    # ----- Crown cards: slots are (zone, holder) of every unknown card.
    tdisc = set(out.get("tdisc", ()))
    unknown = [c for c in range(len(cz)) if cz[c] in (Z_DECK, Z_CHANC) or (cz[c] == Z_HAND and ch[c] != p)
               or c in tdisc]
    if unknown:
        perm = unknown[:]
        r.shuffle(perm)
        mapping = dict(zip(unknown, perm, strict=True))
        slots = {c: (cz[c], ch[c]) for c in unknown}
        for old, new in mapping.items():
            cz[new], ch[new] = slots[old]
        for pile in ("cdeck", "chancery", "cdisc"):
            out[pile] = [mapping.get(c, c) for c in out[pile]]
        out["tdisc"] = [mapping.get(c, c) for c in out.get("tdisc", ())]
        for frame in out["stack"]:
            if frame.get("step") == "treachery":
                frame["slots"] = [mapping.get(c, c) if c >= 0 else c for c in frame["slots"]]
    # ----- Event cards.
    deck = event_deck(out)
    ez, eh = out["ez"], out["eh"]
    pool = [e for e in range(len(ez)) if ez[e] == E_DECK or (ez[e] == E_HAND and eh[e] != p)]
    in_use = [e for e in range(len(ez)) if ez[e] == E_USE and eh[e] != p and deck.cards[e].kind == "refuge"]
    emap: dict[int, int] = {}
    refuge_pool = [e for e in pool if deck.cards[e].kind == "refuge"] + in_use
    shuffled = refuge_pool[:]
    r.shuffle(shuffled)
    emap.update(zip(refuge_pool, shuffled, strict=True))
    rest = [e for e in pool if e not in emap]
    shuffled_rest = rest[:]
    r.shuffle(shuffled_rest)
    emap.update(zip(rest, shuffled_rest, strict=True))
    eslots = {e: (ez[e], eh[e]) for e in emap}
    for old, new in emap.items():
        ez[new], eh[new] = eslots[old]
    out["edeck"] = [emap.get(e, e) for e in out["edeck"]]
    for ref in out["refuges"]:
        ref["e"] = emap.get(ref["e"], ref["e"])
    # ----- Parliament's ballots not yet published and the other seats' standing orders
    # (orders.py) are hidden: ballots re-drawn, orders dropped.
    for frame in out["stack"]:
        if frame.get("step") == "vote":
            choices = [*frame["choices"], "abstain"] if frame["motion"] == "kings" else ["yes", "no", "abstain"]
            for k in sorted(frame["ballots"]):
                if int(k) != p:
                    frame["ballots"][k] = r.choice(choices)
    if "standing" in out:
        out["standing"] = orders.determinized(state, role)
    if "offers" in out:  # offers.py: the terms of other seats' pending offers are theirs only
        out["offers"] = [o for o in out["offers"] if p in (o["from"], o["to"])]
    out["rng"] = r.getrandbits(64)
    out["rigged"] = []
    return out
