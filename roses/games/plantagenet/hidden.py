"""What is hidden from a side, swapped for another possibility (the swap check,
:mod:`roses.engine.swapcheck`; :meth:`Rules.hidden_variants`).

Hidden from a side are the other side's Held Events (only their number is shown; 3.1.3), its
Plan's order and, while the Plans are built, its draft (4.1.2), On Bosworth Field its chosen
Capabilities and Front until both lock in, and under Hidden Mats (1.5.3) the contents of its
mats outside Battle. The decks are kept in card order and shuffled when
drawn (3.1.1), so they have no order to swap. Each variant changes one of these things in a copy
of the state: a Held card exchanged with a card of the deck, two cards of a Plan or draft (or
two Bosworth choices, two Front positions) exchanged, one more Coin or Provender on a hidden
mat.

A side that chose quick reactions (game option ``quick_reactions_<side>``, RULINGS R50) accepts
that its waits tell when it holds a card it can play: its Held Events are not swapped.

Cards just drawn (``drawn``) are not swapped: they are dealt with at once, Events implemented
and shown (3.1.3), first-Levy Capabilities deployed (3.1.2) or, when no Lord can take one,
discarded and named. With open mats the deployment names the card; under Hidden Mats the side
is asked whenever a Lord can take it (RULINGS R88), so its wait tells only what the discard of
a card nobody can take would show anyway.
"""

from __future__ import annotations

import random
from typing import Any

from roses.engine.contract import State
from roses.engine.steps import find
from roses.games.plantagenet import reactions
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.components import SIDES, load


def _copy(state: State) -> State:
    from roses.games.plantagenet import RULES  # the rules module imports this one

    return RULES.copy_state(state)


def _card_order(cards: list[str]) -> None:
    cards.sort(key=load().card_ids.ids.__getitem__)


def _exchange(state: State, side: str, zone: str, rnd: random.Random) -> tuple[str, State] | None:
    """A card of ``zone`` of ``side`` exchanged with a card of its deck."""
    zones = state["aow"][side]
    if not zones[zone] or not zones["deck"]:
        return None
    i = rnd.randrange(len(zones[zone]))
    new = rnd.choice(zones["deck"])
    old = zones[zone][i]
    out = _copy(state)
    z = out["aow"][side]
    z[zone][i] = new
    z["deck"].remove(new)
    z["deck"].append(old)
    _card_order(z["deck"])
    return f"{side}'s {zone} card {old} is {new} instead", out


def _reorder(state: State, side: str, cards: list[Any], where: str, rnd: random.Random,
             path: tuple[Any, ...]) -> tuple[str, State] | None:
    """Two different cards of a Plan (or draft) of ``side`` exchanged."""
    pairs = [(i, j) for i in range(len(cards)) for j in range(i + 1, len(cards)) if cards[i] != cards[j]]
    if not pairs:
        return None
    i, j = rnd.choice(pairs)
    out = _copy(state)
    target: Any = out
    for key in path:
        target = target[key]
    target[i], target[j] = target[j], target[i]
    return f"{side}'s {where} has {cards[i]} and {cards[j]} exchanged", out


def _hidden_mat_lords(state: State, role: str, side: str) -> list[str]:
    from roses.games.plantagenet import RULES

    return [lid for lid, d in state["lords"].items()
            if d["mat"] is not None and sv.side_of(lid) == side and not RULES._mat_visible(state, role, lid)]


def hidden_variants(state: State, role: str, rnd: random.Random) -> list[tuple[str, State]]:
    """States that differ from ``state`` only in something hidden from ``role`` (module docs)."""
    out: list[tuple[str, State] | None] = []
    for side in SIDES:
        if side == role:
            continue
        if not reactions.quick(state, side):  # quick reactions: the side lets its waits tell (R50)
            out.append(_exchange(state, side, "held", rnd))
        plan = state["command"][side]["plan"]
        out.append(_reorder(state, side, plan, "Plan", rnd, ("command", side, "plan")))
        frame = find(state, "plan")
        if frame is not None:
            at = state["stack"].index(frame)
            out.append(_reorder(state, side, frame["drafts"][side], "Plan draft", rnd,
                                ("stack", at, "drafts", side)))
        bos = find(state, "bosworth")
        if bos is not None:  # On Bosworth Field: the choices behind the screen, until both lock in
            at = state["stack"].index(bos)
            out.append(_reorder(state, side, bos["picks"][side], "Bosworth Capabilities", rnd,
                                ("stack", at, "picks", side)))
            front = bos["front"][side]
            if len(front) >= 2:
                a, b = rnd.sample(sorted(front), 2)
                v = _copy(state)
                f = v["stack"][at]["front"][side]
                f[a], f[b] = f[b], f[a]
                out.append((f"{side}'s Bosworth front has {a} and {b} exchanged", v))
        if state["options"].get("hidden_mats"):
            lords = _hidden_mat_lords(state, role, side)
            if lords:
                lord = rnd.choice(lords)
                asset = rnd.choice(("coin", "provender"))
                v = _copy(state)
                v["lords"][lord]["mat"]["assets"][asset] += 1
                out.append((f"{lord}'s hidden mat has one more {asset}", v))
    return [x for x in out if x is not None]
