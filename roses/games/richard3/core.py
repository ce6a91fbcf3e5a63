"""Richard III rules (rules 1.02): the rules object, the setup and the table of steps.

The sequence of play is written as steps (:mod:`roses.engine.steps`), one module per phase:
``cards.py`` (the deal and mulligan, 5.1; the Card Phase, 1.1), ``action.py`` (the Action
Phase, 5.x), ``battle.py`` (the Battle Phase, 6.x), ``supply.py`` (the Supply Phase, 6.81-7.x,
and its decisions), ``political.py`` (the Political Turn, 8.x). ``state.py`` types the state and
its frames; ``base.py`` holds what the steps share (refusals, labels).

Action verbs (every argument is an int or None)
-----------------------------------------------
Mulligan (5.1), both players answer at once, then the opponent of a requester replies:
    ``keep`` / ``redeal``
Card Phase (1.1), both at once, secret until both played:
    ``play`` card id
Action Phase (1.2, 5.x), the acting player (P1, then P2):
    ``move`` area        spend 1 AP to activate the land group in an area (5.2)
    ``block`` b          pick a block of the active group to move
    ``to`` area          move the picked block one area on (repeat; 2 areas, 3 with Force March)
    ``stop``             the picked block stops where it is (after at least one area)
    ``end_group``        done with this group
    ``sea`` b            pick a block for a sea move (5.3); then ``sea_to`` area
    ``recruit`` b        pick a pool block (5.4); then ``place`` area
    ``muster`` area      Muster: designate the muster area; then ``block``/``to``/``stop``
    ``plague`` area      Plague: the enemy city area struck
    ``main`` border id   declare the Main Attack border of a battle (6.3; asked when the
                         attacker ends his Action Phase and used 2+ borders into one area)
    ``end``              end the Action Phase (also: decline Plague / Muster)
Battle Phase (6.x): ``battle`` area (P1 picks the next battle, C13); then battle.py's verbs.
Supply Phase (6.81, 6.82, 9.1, 7.x):
    ``enter`` area       place the entering minor heir / new King
    ``execute`` / ``spare``   a defected Clarence or Exeter (9.1)
    ``reduce`` b         a block that takes a supply loss
Political Turn (8.x): ``home`` area (where a block goes home), ``disband`` b (exile extra to pool).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, cast

from roses.engine import rng
from roses.engine.contract import Action, State, View
from roses.engine.log import SETUP, public
from roses.engine.steps import StepRules, Steps
from roses.games.richard3 import action, ai, battle, cards, hidden, political, supply, views
from roses.games.richard3 import common as C
from roses.games.richard3.common import NONE
from roses.games.richard3.data import (
    B_FIRE,
    B_INIT,
    B_LOYALTY,
    B_STEPS,
    BLOCK_NAME,
    DEAD,
    HENRY_VI,
    N_AREAS,
    N_BLOCKS,
    N_BORDERS,
    OFF,
    PRISON,
    ROLES,
    SCENARIO_IDS,
    SCENARIOS,
    scenario_locations,
)
from roses.games.richard3.state import R3State


# ======================================================================= the rules object
class Richard3Rules(StepRules):
    id = "richard3"
    title = "Richard III"
    scenarios = SCENARIO_IDS
    #: the board and panels in the browser (static/js/games/index.js says what it exports)
    client_module = "js/games/richard3.js"

    def scenario_names(self) -> dict[str, str]:
        return {s: str(SCENARIOS[s]["name"]) for s in SCENARIO_IDS}

    def roles(self, scenario: str, options: dict[str, Any] | None = None) -> list[str]:
        return list(ROLES)

    # ------------------------------------------------------------------ setup
    def setup(self, seed: int, scenario: str, options: dict[str, Any] | None = None) -> State:
        self.check_scenario(scenario)
        sc = SCENARIOS[scenario]
        loc = scenario_locations(scenario)
        strength = [B_STEPS[b] if loc[b] not in (DEAD, OFF) else 0 for b in range(N_BLOCKS)]
        king = 0 if sc["king"] == "York" else 1
        layout: R3State = {
            "roles": list(ROLES), "log": [], "result": None, "reveals": 0,
            "scenario": scenario, "campaign": int(sc["first_campaign"]), "last_campaign": int(sc["last_campaign"]),
            "turn": 1, "stack": [],
            "king": king, "king_block": -1, "prisoner": HENRY_VI if loc[HENRY_VI] == PRISON else -1,
            "minors_owed": [0, 0],
            "loc": loc, "steps": strength, "down": [0] * N_BLOCKS, "moved": [0] * N_BLOCKS,
            "via": [-1] * N_BLOCKS, "reserve": [0] * N_BLOCKS, "pirate": [0] * N_BLOCKS,
            "p1": 1 - king, "hands": [[], []], "deck": [], "discard": [], "played": [NONE, NONE],
            "mulligan_used": [0, 0],
            "piracy": -1, "treason": -1, "surprise": -1, "force_march": -1,
            "bc": [[0] * N_BORDERS, [0] * N_BORDERS], "atk": [-1] * N_AREAS, "main": [-1] * N_AREAS,
            "ent": [[[] for _ in range(N_AREAS)], [[] for _ in range(N_AREAS)]],
            "battle": None, "battles": [],
        }
        state = cast(State, layout)  # the engine's plain dict, laid out as R3State
        rng.seed_state(state, seed)  # (sets rng, rolls, rigged)
        state["king_block"] = C.senior_heir(state, king)
        state["known"] = C.new_knowledge(state)
        public(state, kind=SETUP, text=f"{sc['name']}: campaign {state['campaign']}. King: {BLOCK_NAME[state['king_block']]} "
                      f"({ROLES[king]}); Pretender: {ROLES[1 - king]}.")
        cards.deal(state)
        return state

    # ------------------------------------------------------------------ tools
    def copy_state(self, state: State) -> State:
        return C.copy_state(state)

    def search_copy(self, state: State) -> State:
        return C.search_copy(state)

    def undo_copy(self, state: State) -> State:
        return C.undo_copy(state)

    def view(self, state: State, role: str) -> View:
        return views.build_view(self, state, role)

    def views(self, state: State, roles: Sequence[str]) -> list[View]:
        return views.build_views(self, state, roles)

    def decision_view(self, state: State, role: str) -> View:
        return views.build_views(self, state, (role,), with_log=False)[0]

    def view_tables(self) -> dict[str, Any]:
        return views.tables()

    def secrets(self, state: State, role: str) -> set[str]:
        return views.secrets(self, state, role)

    #: The swap check compares the views of each position only: a Plague (Event Cards) takes a
    #: step from every block of a city without a die, eliminating those at one step in sight of
    #: all, as the physical game shows it, but without marking a reveal.
    swap_after_action = False

    def hidden_variants(self, state: State, role: str, rnd: random.Random) -> list[tuple[str, State]]:
        return hidden.hidden_variants(state, role, rnd)

    def check_invariants(self, state: State) -> list[str]:
        return views.check_invariants(self, state)

    def describe(self, view: View) -> str:
        return views.describe(view)

    # ----- AI (roses/games/richard3/ai.py)
    def determinize(self, state: State, role: str, seed: int) -> State:
        return ai.determinize(state, role, seed)

    def determinizer(self, state: State, role: str) -> Callable[[int], State]:
        return ai.determinizer(state, role)

    def evaluate(self, state: State, role: str) -> float:
        return ai.evaluate(state, role)

    def evaluate_all(self, state: State, roles: list[str], horizon: int = 1) -> dict[str, float]:
        return ai.evaluate_all(state, roles, horizon)

    def evaluation_terms(self, state: State, role: str) -> dict[str, float]:
        return ai.evaluation_terms(state, role)

    def action_space(self, scenario: str, options: dict[str, Any] | None = None) -> list[Action]:
        return ai.action_space(scenario, options)

    def unseen_choices(self, scenario: str, options: dict[str, Any] | None = None) -> list[list[Action]] | None:
        from roses.games.richard3 import research

        return research.unseen_choices()

    def tensor_codec(self, scenario: str, options: dict[str, Any] | None = None) -> Any:
        from roses.games.richard3 import research

        return research.tensor_codec(tuple(sorted({"", "over", *(s.phase for s in self.steps.by_name.values())})))


STEPS = Steps(*cards.STEPS, *action.STEPS, *battle.PHASE_STEPS, *battle.STEPS, *supply.STEPS, *political.STEPS)
#: The options made for a view (or ``legal_actions``) check the next action (every change of a
#: Richard III state goes through the steps).
STEPS.keep_options = True
Richard3Rules.steps = STEPS

RULES = Richard3Rules()

__all__ = ["RULES", "Richard3Rules", "B_FIRE", "B_INIT", "B_LOYALTY"]
