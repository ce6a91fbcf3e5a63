"""The Action Phase's main options, worked out in one pass over the side's blocks, give what
the rules' definitions give, asked one area or block at a time (5.2 a group with a block that
may move, 5.3 a block with a sea move, 5.4 a pool block with an area to deploy to); the phase
ends at once when nothing but ``end`` is left; a step's prompt and options made together are
its prompt and its options."""

from __future__ import annotations

import random
from typing import Any

import pytest

from roses.engine.contract import Action
from roses.engine.fuzz import game_seed
from roses.games.richard3 import RULES
from roses.games.richard3 import action as moves
from roses.games.richard3 import common as C
from roses.games.richard3.data import (
    AREA_NAMES,
    B_SIDE,
    B_TYPE,
    BLOCK_KEY,
    HEIR,
    N_BLOCKS,
    NO_SEA,
    POOL,
    REBEL,
    ROLES,
)

SCENARIOS = ("wars-of-the-roses", "kingmaker", "richard-iii")


def _action_states(scenario: str, games: int = 6) -> list[dict[str, Any]]:
    """Copies of the states of random games whose decision is a step of an Action Phase."""
    picker = random.Random(17)
    out = []
    for i in range(games):
        st = RULES.setup(game_seed(21, i), scenario)
        while RULES.result(st) is None:
            if st["stack"][-1]["step"] in ("main", "muster_area", "plague"):
                out.append(RULES.copy_state(st))
            active = RULES.active(st)
            role = active[0] if len(active) == 1 else picker.choice(active)
            legal = RULES.legal_actions(st, role)
            st = RULES.action(st, role, *legal[picker.randrange(len(legal))])
    return out


def _main_by_definition(st: dict[str, Any]) -> list[Action]:
    """The main step's options from the rules' definitions, one question per area or block."""
    fr = st["stack"][0]
    s, ev, ap = fr["side"], fr["event"], fr["ap"]
    occ = C.occupancy(st)
    acts: list[Action] = []
    movable = moves.movable(st, s)
    if ev != "Piracy" and ap > 0:
        areas = sorted({st["loc"][b] for b in movable})
        acts.extend(("move", AREA_NAMES[a]) for a in areas if moves.group_may_move(st, s, a, occ))
    if ev in ("", "Surprise", "Piracy"):
        acts.extend(("sea", BLOCK_KEY[b]) for b in movable
                    if b not in NO_SEA and moves.sea_dests(st, s, b, occ, True))
    if ev == "" and ap > 0:
        king = st["king"]
        acts.extend(("recruit", BLOCK_KEY[b]) for b in range(N_BLOCKS)
                    if (1 - king if B_SIDE[b] == REBEL else B_SIDE[b]) == s and st["loc"][b] == POOL
                    and not st["down"][b] and B_TYPE[b] != HEIR and moves.recruit_areas(st, s, b, occ, True))
    acts.append(("end", None))
    return acts


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_main_options_follow_the_definitions_and_the_phase_ends_when_only_end_is_left(scenario: str) -> None:
    """5.2-5.4: every state at a main step, and the same with no action points left (only
    the second sea move of an open port pair, 5.31 / C64, may remain). A main step without
    action points, a Plague or a Muster step whose only option is ``end`` is never asked: the
    phase has ended by itself."""
    checked = paired = 0
    main = RULES.steps["main"]
    for st in _action_states(scenario):
        fr = st["stack"][0]
        variants = [st]
        if fr["step"] == "main" and fr["ap"] > 0:
            spent = RULES.copy_state(st)
            spent["stack"][0]["ap"] = 0
            variants.append(spent)
        for x in variants:
            f = x["stack"][0]
            if f["step"] == "main":
                legal = main.options(x, f, ROLES[f["side"]])
                assert legal == _main_by_definition(x)
                checked += 1
                paired += f["ap"] == 0 and legal != [("end", None)]
            if x is st and (f["step"] != "main" or f["ap"] == 0):
                assert RULES.legal_actions(x, ROLES[f["side"]]) != [("end", None)]
    assert checked > 50 and paired > 0


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_prompt_and_options_together_are_the_prompt_and_the_options(scenario: str) -> None:
    """Views ask every actor for its prompt and options at once (Step.prompt_and_options); a
    battle turn's prompt names the kinds of turn offered (6.2), made from the options then."""
    picker = random.Random(23)
    turns = 0
    for i in range(4):
        st = RULES.setup(game_seed(29, i), scenario)
        while RULES.result(st) is None:
            step, frame = RULES.steps.current(st)
            for role in step.actors(st, frame):
                assert step.prompt_and_options(st, frame, role) == (step.prompt(st, frame, role),
                                                                    step.options(st, frame, role))
            turns += step.name == "turn"
            active = RULES.active(st)
            role = active[0] if len(active) == 1 else picker.choice(active)
            legal = RULES.legal_actions(st, role)
            st = RULES.action(st, role, *legal[picker.randrange(len(legal))])
    assert turns > 20


def test_blocks_at_a_place_are_found_by_searches_as_by_looking_at_each() -> None:
    """C.owned_at and C.blocks_in search slices of ``loc`` (a side's blocks are numbered
    together): the same blocks, in id order, as looking at every block, for every place, side
    and crown (the Rebel is the Pretender's, 3.26)."""
    picker = random.Random(31)
    st = RULES.setup(game_seed(3, 0), "wars-of-the-roses")
    places = sorted(set(range(len(AREA_NAMES))) | {POOL} | set(st["loc"]))
    for _ in range(30):
        st["loc"] = [picker.choice(places) for _ in range(N_BLOCKS)]
        for king in (0, 1):
            st["king"] = king
            for where in places:
                assert C.blocks_in(st, where) == [b for b in range(N_BLOCKS) if st["loc"][b] == where]
                for side in (0, 1):
                    mine = [b for b in range(N_BLOCKS) if st["loc"][b] == where
                            and (B_SIDE[b] if B_SIDE[b] != REBEL else 1 - king) == side]
                    assert C.owned_at(st, side, where) == mine
                    assert C.blocks_in(st, where, side) == mine
    assert C.id_runs([3, 4, 5, 9, 11, 12]) == ((3, 6), (9, 10), (11, 13))
