"""Small helpers to build Richard III positions for tests (edit a state from setup).

Usable by every test in tests/richard3 (the battle tests too).
"""

from __future__ import annotations

from typing import Any

from roses.engine.contract import State
from roses.games.richard3 import RULES
from roses.games.richard3.data import (
    AREA_ID,
    AREA_NAMES,
    B_PAIR,
    B_STEPS,
    BLOCK_ID,
    BLOCK_KEY,
    CARD_AP,
    CARD_EVENT,
    DEAD,
    N_AREAS,
    N_BLOCKS,
    N_CARDS,
    OFF,
    border_between,
)

Y, L = "York", "Lancaster"


def A(name: str) -> int:
    return AREA_ID[name]


def B(key: str) -> int:
    return BLOCK_ID[key]


def bid(a: str, b: str) -> int:
    return border_between(AREA_ID[a], AREA_ID[b])


def new(scenario: str = "wars-of-the-roses", seed: int = 1) -> State:
    return RULES.setup(seed, scenario)


def keep_hands(state: State) -> State:
    """Answer the opening mulligan question with 'keep' for both players."""
    while phase(state) == "mulligan":
        role = RULES.active(state)[0]
        RULES.action(state, role, "keep")
    return state


def card(name: str, avoid: tuple[int, ...] = ()) -> int:
    """A card id by name: 'AP2', 'AP3', 'AP4' or an event name."""
    for c in range(N_CARDS):
        if c in avoid:
            continue
        if name.startswith("AP") and CARD_EVENT[c] is None and CARD_AP[c] == int(name[2:]):
            return c
        if CARD_EVENT[c] == name:
            return c
    raise KeyError(name)


def set_hands(state: State, york: list[int], lanc: list[int]) -> None:
    """Give each player exactly these cards; everything else goes to the undealt deck."""
    state["hands"] = [sorted(york), sorted(lanc)]
    used = set(york) | set(lanc)
    state["deck"] = [c for c in range(N_CARDS) if c not in used]
    state["discard"] = []


def play(state: State, york: str, lanc: str) -> State:
    """From the Card Phase: both play the named cards (given to them first)."""
    cy = card(york)
    cl = card(lanc, avoid=(cy,))
    fill = [c for c in range(N_CARDS) if c not in (cy, cl)]
    n = len(state["hands"][0]) or 7
    set_hands(state, [cy, *fill[: n - 1]], [cl, *fill[n - 1: 2 * n - 2]])
    RULES.action(state, Y, "play", cy)
    RULES.action(state, L, "play", cl)
    return state


def put(state: State, key: str, where: str | int, steps: int | None = None) -> int:
    """Place block `key` in an area (name) or special location (int), at `steps` (default full)."""
    b = BLOCK_ID[key]
    loc = AREA_ID[where] if isinstance(where, str) else where
    state["loc"][b] = loc
    state["down"][b] = 0
    state["steps"][b] = 0 if loc in (DEAD, OFF) else (B_STEPS[b] if steps is None else steps)
    p = B_PAIR[b]
    if p >= 0 and loc not in (DEAD, OFF) and state["loc"][p] not in (DEAD, OFF):
        state["loc"][p] = OFF
        state["steps"][p] = 0
    return b


def remove(state: State, key: str) -> None:
    """Take a block out of play without the rules' elimination (for building positions)."""
    b = BLOCK_ID[key]
    state["loc"][b] = DEAD
    state["steps"][b] = 0
    state["down"][b] = 0


def clear_map(state: State, keep: tuple[str, ...] = ()) -> None:
    """Move every non-heir block on the map to its owner's pool (heirs stay), except `keep`."""
    from roses.games.richard3.data import B_TYPE, HEIR, POOL
    for b in range(N_BLOCKS):
        if state["loc"][b] < N_AREAS and B_TYPE[b] != HEIR and BLOCK_KEY[b] not in keep:
            state["loc"][b] = POOL


def phase(state: State) -> str:
    """The phase of play now (the current step's phase; "over" once the game has a result)."""
    return RULES.steps.phase(state)


def step_name(state: State) -> str:
    """The name of the step deciding now."""
    return str(state["stack"][-1]["step"])


def todo(state: State) -> list[list[Any]]:
    """The pending Supply/Political decisions and Main Attack declarations on the decision
    stack, first to be decided first, as ``[kind, side, subject, count]``."""
    out: list[list[Any]] = []
    for fr in reversed(state["stack"]):
        if fr["step"] == "declare":
            out.append(["main", fr["side"], fr["area"], 0])
        elif fr["step"] in ("enter", "execute", "reduce", "home", "disband"):
            out.append([fr["step"], fr["side"], fr["subj"], fr["n"]])
    return out


def act(state: State, role: str, verb: str, arg: Any = None) -> State:
    return RULES.action(state, role, verb, arg)


def legal(state: State, role: str) -> list[tuple[str, Any]]:
    return RULES.legal_actions(state, role)


def args(state: State, role: str, verb: str) -> list[Any]:
    return [a for v, a in RULES.legal_actions(state, role) if v == verb]


def blocks_at(state: State, area: str) -> list[str]:
    a = AREA_ID[area]
    return [BLOCK_KEY[b] for b in range(N_BLOCKS) if state["loc"][b] == a]


def move(state: State, role: str, area: str, moves: list[tuple[str, list[str]]], end: bool = True) -> None:
    """Activate the group in `area` and move each (block key, path) in turn."""
    act(state, role, "move", area)
    for key, path in moves:
        act(state, role, "block", key)
        for step in path:
            if step_name(state) != "path":
                break
            act(state, role, "to", step)
        if step_name(state) == "path":
            act(state, role, "stop")
    if end and step_name(state) == "group":
        act(state, role, "end_group")


def to_battle_or_supply(state: State) -> None:
    """End the remaining Action Phases with 'end' (declaring the first offered main border)."""
    while phase(state) == "action":
        role = RULES.active(state)[0]
        opts = legal(state, role)
        if ("end", None) in opts:
            act(state, role, "end")
        elif ("end_group", None) in opts:
            act(state, role, "end_group")
        elif any(v == "main" for v, _ in opts):
            act(state, role, "main", args(state, role, "main")[0])
        elif any(v == "stop" for v, _ in opts):
            act(state, role, "stop")
        else:
            v, a = opts[0]
            act(state, role, v, a)


__all__ = ["A", "AREA_NAMES", "B", "L", "RULES", "Y", "act", "args", "bid", "blocks_at", "card", "clear_map",
           "keep_hands", "phase", "step_name", "todo", "legal", "move", "new", "play", "put", "remove", "set_hands",
           "to_battle_or_supply"]
