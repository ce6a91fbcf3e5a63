"""Shared helpers of the Plantagenet tests: placing Lords, running frames, playing games out."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from roses.engine.steps import Frame
from roses.games.plantagenet import RULES, wars
from roses.games.plantagenet.records import Where
from roses.games.plantagenet.services import side_of
from roses.games.plantagenet.setup import new_mat

State = dict[str, Any]


def place(state: State, lord: str, locale: str, **assets: int) -> dict[str, Any]:
    """Put ``lord`` on the map at ``locale`` (with a fresh mat if he has none); ``assets``
    (coin=, provender=, carts=, ships=) overwrite his mat's Assets. Returns the mat."""
    d = state["lords"][lord]
    if d["mat"] is None:
        d["mat"] = new_mat(lord)
    d.update(where=Where.MAP, locale=locale, box=None, exile=False)
    d["mat"]["assets"].update(assets)
    return dict(d["mat"])


def set_troops(state: State, lord: str, **troops: int) -> None:
    """Set a Lord's Troops exactly (types not given become 0)."""
    mat = state["lords"][lord]["mat"]
    for t in mat["troops"]:
        mat["troops"][t] = troops.get(t, 0)


def to_calendar(state: State, lord: str, box: int, exile: bool = False) -> None:
    state["lords"][lord].update(where=Where.CALENDAR, locale=None, box=box, exile=exile, mat=None)


def run_frames(state: State, *frames: Frame) -> State:
    """Replace the stack by ``frames`` (the first decided first) and settle."""
    state["stack"] = [dict(f) for f in reversed(frames)]
    RULES.steps.settle(state)
    return state


def act(state: State, verb: str, arg: Any = None, role: str | None = None) -> State:
    """The (only) active role takes ``(verb, arg)``."""
    if role is None:
        active = RULES.active(state)
        assert len(active) == 1, active
        role = active[0]
    return RULES.action(state, role, verb, arg)


def options(state: State) -> list[tuple[str, Any]]:
    active = RULES.active(state)
    return RULES.legal_actions(state, active[0]) if active else []


def play_random(state: State, seed: int = 0, max_actions: int = 20000) -> State:
    """Play to the end with random legal actions (every active role in turn)."""
    pick = random.Random(seed)
    n = 0
    while RULES.result(state) is None:
        role = RULES.active(state)[0]
        verb, arg = pick.choice(RULES.legal_actions(state, role))
        state = RULES.action(state, role, verb, arg)
        n += 1
        assert n < max_actions
    return state


def play_until(state: State, stop: Any, seed: int = 0, max_actions: int = 20000) -> State:
    """Random legal actions until ``stop(state)`` is true or the game ends."""
    pick = random.Random(seed)
    n = 0
    while RULES.result(state) is None and not stop(state):
        role = RULES.active(state)[0]
        verb, arg = pick.choice(RULES.legal_actions(state, role))
        state = RULES.action(state, role, verb, arg)
        n += 1
        assert n < max_actions
    return state



def add_vassal(state: State, lord: str, vassal: str, box: int = 5) -> None:
    """Put a regular Vassal on ``lord``'s mat (its other counter in Calendar ``box``)."""
    state["vassals"][vassal] = {"where": "mat", "lord": lord, "box": box, "face_up": True}
    state["lords"][lord]["mat"]["vassals"].append(vassal)


def approach(state: State, locale: str, attackers: list[str], defenders: Sequence[str] = ()) -> State:
    """Place ``attackers`` and ``defenders`` at ``locale`` (fresh mats for Lords without one),
    then run the Campaign's Approach frame for the attackers' side (4.3.5) alone on the stack:
    when the Approach (and any Battle) is over the stack is empty."""
    for lid in [*attackers, *defenders]:
        place(state, lid, locale)
    frame = {"step": "approach", "locale": locale, "attacker": side_of(attackers[0]), "attackers": list(attackers)}
    return run_frames(state, frame)


# ----- the Wars of the Roses ---------------------------------------------------------------------
YORK = {"Y": 1, "M": 2, "R": 3, "G": 4}
LANC = {"H": 1, "M": 2, "S1": 3, "S2": 4}


def war_state(war: str, york: str, lancaster: str, *, y28: bool = False, by: str = "play") -> State:
    """A Wars of the Roses game set up for ``war`` ("IIY", "IIL", "IIIY", "IIIL") after earlier
    Wars in which every Heir not named in ``york`` ("Y M R G") or ``lancaster`` ("H M S1 S2")
    was removed (``by`` "play", "natural_causes" or "setup"), with Y28 resolved or not."""
    s = RULES.setup(1, "wars-of-the-roses")
    w = s["wars"]
    alive_y = {YORK[k] for k in york.split()}
    alive_l = {LANC[k] for k in lancaster.split()}
    second = war in ("IIY", "IIL")  # Gloucester is no Heir of War I: he cannot have been removed
    w["removed"] = [{"side": "York", "rank": r, "lord": None, "war": "I", "by": by}
                    for r in ((1, 2, 3) if second else (1, 2, 3, 4)) if r not in alive_y]
    w["removed"] += [{"side": "Lancaster", "rank": r, "lord": None, "war": "I", "by": by}
                     for r in (1, 2, 3, 4) if r not in alive_l]
    king = "York" if war.endswith("Y") else "Lancaster"
    w["winners"] = {"I": king} if war.startswith("II") and not war.startswith("III") else {"I": "York", "II": king}
    w["y28"] = y28
    wars.start_war(s, war)
    return s
