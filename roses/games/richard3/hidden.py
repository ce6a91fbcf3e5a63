"""What is hidden from a side, swapped for another possibility (the swap check,
:mod:`roses.engine.swapcheck`; :meth:`Rules.hidden_variants`).

Hidden from a side are the other side's hand and the card it has played before both are
revealed (C2-C5), the order of the undealt deck (hidden from both), and the strength of the
other side's blocks standing on the map unrevealed (blocks face their owner). Each variant
changes one of these in a copy: a hand card exchanged with an undealt card, the played card
exchanged with another card of the same hand, two undealt cards exchanged, one enemy block at
another strength.
"""

from __future__ import annotations

import random

from roses.engine.contract import State
from roses.games.richard3 import common as C
from roses.games.richard3.data import B_STEPS, N_AREAS, ROLES


def hidden_variants(state: State, role: str, rnd: random.Random) -> list[tuple[str, State]]:
    """States that differ from ``state`` only in something hidden from ``role`` (module docs)."""
    out: list[tuple[str, State]] = []
    side = ROLES.index(role) if role in ROLES else -1
    hands, deck = state.get("hands"), state.get("deck")
    for foe in (0, 1):
        if foe == side:
            continue
        if hands is not None and hands[foe] and deck:
            i, j = rnd.randrange(len(hands[foe])), rnd.randrange(len(deck))
            old, new = hands[foe][i], deck[j]
            if old != state["played"][foe]:
                v = C.copy_state(state)
                v["hands"][foe][i], v["deck"][j] = new, old
                v["hands"][foe].sort()
                out.append((f"{ROLES[foe]}'s hand card {old} is {new} instead", v))
        played = state.get("played")
        if played is not None and hands is not None and played[foe] >= 0 and played[1 - foe] < 0:
            others = [c for c in hands[foe] if c != played[foe]]
            if others:
                v = C.copy_state(state)
                v["played"][foe] = rnd.choice(others)
                out.append((f"{ROLES[foe]} played card {played[foe]} is {v['played'][foe]} instead", v))
        revealed = set((state["battle"] or {}).get("revealed", []))
        blocks = [b for b in C.owned_blocks(foe, state["king"])
                  if state["loc"][b] < N_AREAS and b not in revealed and B_STEPS[b] > 1]
        if blocks:
            b = rnd.choice(blocks)
            v = C.copy_state(state)
            v["steps"][b] = rnd.choice([n for n in range(1, B_STEPS[b] + 1) if n != state["steps"][b]])
            out.append((f"{ROLES[foe]}'s block {b} has {v['steps'][b]} steps instead of {state['steps'][b]}", v))
    if deck is not None and len(deck) >= 2:
        i, j = rnd.sample(range(len(deck)), 2)
        v = C.copy_state(state)
        v["deck"][i], v["deck"][j] = deck[j], deck[i]
        out.append((f"undealt cards {deck[i]} and {deck[j]} exchanged", v))
    return out
