"""Helpers for the Kingmaker rules tests: small boards, rigged decks, states built by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from roses.engine.contract import State
from roses.games.kingmaker import RULES
from roses.games.kingmaker.board import DATA_DIR
from roses.games.kingmaker.common import Z_HAND, Z_NOBLE, W

EXAMPLE_BOARD = str(DATA_DIR / "example-board.json")


def new_game(players: int = 3, rules: str = "basic", seed: int = 1, **extra: Any) -> State:
    opts: dict[str, Any] = {"players": players, "rules": rules, "board": extra.pop("board", EXAMPLE_BOARD)}
    opts.update(extra)
    return RULES.setup(seed, "campaign", opts)


def hand_ids(state: State, p: int) -> list[str]:
    w = W(state)
    return [w.cards[c].id for c in range(len(w.cards)) if state["cz"][c] == Z_HAND and state["ch"][c] == p]


def noble_ids(state: State, p: int) -> list[str]:
    w = W(state)
    return [w.cards[n].id for n in w.nobles if state["cz"][n] == Z_NOBLE and state["ch"][n] == p]


def write_board(tmp: Path, data: dict[str, Any]) -> str:
    path = tmp / "board.json"
    path.write_text(json.dumps(data))
    return str(path)


def act(state: State, role: str, verb: str, arg: Any = None) -> State:
    return RULES.action(state, role, verb, arg)


def play_out_setup(state: State) -> State:
    """Finish the arrangement and noble placement with the first legal choice each time."""
    while state["round"] == 0 and state["result"] is None:
        role = RULES.active(state)[0]
        legal = RULES.legal_actions(state, role)
        # prefer awarding over ending, so the arrangement completes
        verb, arg = legal[0]
        RULES.action(state, role, verb, arg)
    return state


# ----- staged positions ------------------------------------------------------------------------
def combat(kind: str, ratio: list[int] | None, killed: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    half: dict[str, Any] = {"bad_weather": True, "killed": []} if ratio is None else {"ratio": ratio, "killed": list(killed)}
    return {"kind": kind, "level": "basic", **extra, "combat": half}


def make_deck(*cards: dict[str, Any]) -> dict[str, Any]:
    """An Event deck for tests: the given cards (ids added) plus a few fillers."""
    out = []
    for i, c in enumerate(cards):
        out.append({"id": c.get("id", f"t{i:02d}"), **{k: v for k, v in c.items() if k != "id"}})
    return {"format": "roses-kingmaker-events/1", "cards": out}


def staged(tmp: Path, players: int = 3, rules: str = "basic", deck: dict[str, Any] | None = None,
           board: dict[str, Any] | None = None, seed: int = 1) -> State:
    """A game past setup whose board is cleared: no noble, award or ship in play, every heir
    out of the way (dead); tests then put exactly what they need."""
    from tests.kingmaker.boards import rules_board

    path = write_board(tmp, board if board is not None else rules_board())
    opts: dict[str, Any] = {"players": players, "rules": rules, "board": path}
    if deck is not None:
        opts["event_deck"] = deck
    state = RULES.setup(seed, "campaign", opts)
    play_out_setup(state)
    w = W(state)
    from roses.games.kingmaker.common import Z_ASSET, Z_AWARD, Z_DECK

    for c in range(len(w.cards)):
        if state["cz"][c] in (Z_NOBLE, Z_AWARD, Z_ASSET, Z_HAND):
            state["cz"][c], state["ch"][c] = Z_DECK, -1
            state["cdeck"].append(c)
            state["nsq"][c] = state["nin"][c] = None
            state["nship"][c] = -1
    for s in range(len(state["spos"])):
        state["spos"][s] = None
    for h in range(len(state["hdead"])):
        state["hdead"][h] = True
        state["hesc"][h] = -1
        state["hsq"][h] = state["hin"][h] = None
        state["hcrown"][h] = False
    state["pown"] = {}
    state["siege"] = {}
    state["log"].clear()
    return state


def take(state: State, cid: str) -> int:
    """Take a Crown card out of whatever pile holds it."""
    w = W(state)
    c = w.cid(cid)
    for pile in ("cdeck", "cdisc", "chancery"):
        if c in state[pile]:
            state[pile].remove(c)
    return c


def put(state: State, p: int, cid: str, sq: str, inside: str | None = None) -> int:
    """Put noble ``cid`` in play for player ``p`` at ``sq`` (inside ``inside``)."""
    c = take(state, cid)
    state["cz"][c], state["ch"][c] = Z_NOBLE, p
    state["nsq"][c], state["nin"][c], state["nship"][c] = sq, inside, -1
    state["ncap"][c] = -1
    return c


def award(state: State, cid: str, noble: str) -> int:
    from roses.games.kingmaker.common import Z_AWARD

    w = W(state)
    c = take(state, cid)
    state["cz"][c], state["ch"][c] = Z_AWARD, w.cid(noble)
    return c


def give_hand(state: State, p: int, cid: str) -> int:
    c = take(state, cid)
    state["cz"][c], state["ch"][c] = Z_HAND, p
    return c


def turn_of(state: State, p: int, frame: dict[str, Any], stage: int) -> None:
    """Make it player ``p``'s turn with ``frame`` deciding now (the turn resumes at ``stage``)."""
    state["turn"] = state["order"].index(p)
    state["tno"] += 1
    state["defended"] = []
    state["stack"] = [{"step": "turn", "stage": stage}, frame]


def event_on_top(state: State, eid: str) -> int:
    """Put Event card ``eid`` on top of the Event deck."""
    from roses.games.kingmaker.common import E_DECK
    from roses.games.kingmaker.play import event_deck

    e = event_deck(state).codec.id(eid)
    for pile in ("edeck", "edisc"):
        if e in state[pile]:
            state[pile].remove(e)
    state["ez"][e], state["eh"][e] = E_DECK, -1
    state["edeck"].append(e)
    return e


def eid(state: State, name: str) -> int:
    from roses.games.kingmaker.play import event_deck

    return event_deck(state).codec.id(name)
