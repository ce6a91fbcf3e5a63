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
