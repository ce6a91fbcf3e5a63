"""Position builders for the battle tests (no tests here; the test_battle_*.py files import it).

A position starts from the 1460 setup with the map emptied (non-heirs to the pool, heirs on the
map parked in their exile areas: York's in Ireland, Lancaster's in France), the Battle Phase
set, and then exactly the blocks a test needs placed with :func:`enter`. :func:`begin` records
the attacker and Player 1 and calls ``battle.start_battle``. Dice are rigged with
``roses.engine.rng.rig``.
"""

from __future__ import annotations

from typing import Any

from roses.engine import rng
from roses.engine.contract import State
from roses.games.richard3 import battle as BT
from roses.games.richard3.data import (
    AREA_ID,
    B_HOME,
    B_SIDE,
    B_TYPE,
    BLOCK_ID,
    BLOCK_KEY,
    HEIR,
    N_AREAS,
    N_BLOCKS,
    POOL,
    SEA_BORDER,
    ZONE_ID,
    border_between,
)
from tests.richard3.helpers import RULES, new, put, step_name

Y, L = "York", "Lancaster"
SIDE = {Y: 0, L: 1}


def base(seed: int = 1) -> State:
    """An empty 1460 map in the Battle Phase (Lancaster King Henry VI, York Pretender): heirs on
    the map parked in exile, mercenaries at home, other blocks in the pool."""
    s = new(seed=seed)
    for b in range(N_BLOCKS):
        if s["loc"][b] < N_AREAS:
            if B_TYPE[b] == HEIR:
                s["loc"][b] = AREA_ID["Ireland"] if B_SIDE[b] == 0 else AREA_ID["France"]
            elif B_HOME[b] >= 0:
                s["loc"][b] = B_HOME[b]  # mercenaries stay at home (they are never in a pool)
            else:
                s["loc"][b] = POOL
    s["stack"] = [{"step": "battles", "fighting": True}]
    s["battles"] = []
    return s


def enter(s: State, key: str, area: str, frm: str | None = None, steps: int | None = None,
          reserve: int = 0, pirate: str | None = None) -> int:
    """Place a block in area; frm = the area (or sea zone) it came from this turn (records
    via/ent as movement does); reserve = 0, 1 (attacker's Reserve) or 2 (P2 reinforcement)."""
    b = put(s, key, area, steps)
    a = AREA_ID[area]
    side = B_SIDE[b] if B_SIDE[b] != 2 else 1 - s["king"]
    if frm is not None:
        x = SEA_BORDER + ZONE_ID[frm] if frm in ZONE_ID else border_between(AREA_ID[frm], a)
        assert x >= 0, f"{frm} is not next to {area}"
        s["via"][b] = x
        s["moved"][b] = 1 if frm not in ZONE_ID else 2
        if x not in s["ent"][side][a]:
            s["ent"][side][a].append(x)
    if pirate is not None:
        s["pirate"][b] |= 1 << ZONE_ID[pirate]
    s["reserve"][b] = reserve
    return b


def begin(s: State, area: str, attacker: str, p1: str | None = None, dice: tuple[int, ...] = ()) -> State:
    """Start the battle (6.1) with the given attacker and Player 1 (default: the attacker)."""
    a = AREA_ID[area]
    s["atk"][a] = SIDE[attacker]
    s["p1"] = SIDE[p1 or attacker]
    if dice:
        rng.rig(s, list(dice))
    BT.start_battle(s, a)
    return s


def do(s: State, role: str, verb: str, arg: Any = None, dice: tuple[int, ...] = ()) -> State:
    if dice:
        rng.rig(s, list(dice))
    BT.apply(s, role, verb, arg)
    return s


def acts(s: State, role: str) -> list[tuple[str, Any]]:
    return BT.legal_actions(s, role)


def verbs(s: State, role: str) -> set[str]:
    return {v for v, _ in BT.legal_actions(s, role)}


def args(s: State, role: str, verb: str) -> list[Any]:
    return [a for v, a in BT.legal_actions(s, role) if v == verb]


def turn(s: State) -> str:
    """The role acting in the battle now."""
    r = BT.active(s)
    assert len(r) == 1, r
    return r[0]


def group(s: State) -> list[str]:
    """Keys of the blocks whose battle turn it is (the current group)."""
    role = turn(s)
    keys: list[str] = []
    for v, a in BT.legal_actions(s, role):
        k = a if v in ("fire", "pass") else a[0] if v == "retreat" else None
        if k is not None and k not in keys:
            keys.append(k)
    return keys


def pass_until(s: State, stop: Any, limit: int = 200) -> State:
    """Everyone passes (or, attackers in round 4, retreats to the first option) until stop(s)."""
    for _ in range(limit):
        if stop(s) or s["battle"] is None:
            return s
        role = turn(s)
        if step_name(s) == "turn":
            p = args(s, role, "pass")
            if p:
                do(s, role, "pass", p[0])
            else:
                do(s, role, "retreat", args(s, role, "retreat")[0])
        elif step_name(s) == "hits":
            do(s, role, "hit", args(s, role, "hit")[0])
        elif step_name(s) == "treason":
            do(s, role, "keep_treason")
        else:
            do(s, role, "end_regroup")
    raise AssertionError("pass_until did not reach the condition")


def at(s: State, key: str) -> str:
    """Where a block is now: an area name, or 'pool', 'dead', 'off', 'minor'."""
    from roses.games.richard3.data import AREA_NAMES, SPECIAL_NAMES
    loc = s["loc"][BLOCK_ID[key]]
    return AREA_NAMES[loc] if loc < N_AREAS else SPECIAL_NAMES[loc]


def steps(s: State, key: str) -> int:
    return int(s["steps"][BLOCK_ID[key]])


def log_text(s: State, role: str = "Observer") -> str:
    return "\n".join(RULES.log_for(s, role))


def keys_in(s: State, area: str) -> list[str]:
    a = AREA_ID[area]
    return [BLOCK_KEY[b] for b in range(N_BLOCKS) if s["loc"][b] == a]


__all__ = ["L", "RULES", "SIDE", "Y", "acts", "args", "at", "base", "begin", "do", "enter", "group",
           "keys_in", "log_text", "pass_until", "steps", "turn", "verbs"]
