"""Richard III rules (rules 1.02): everything but the battle itself (battle.py).

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
from itertools import compress
from typing import Any, TypedDict

from roses.engine import rng, steps
from roses.engine.contract import Action, State, View, mark_reveal
from roses.engine.errors import IllegalAction
from roses.engine.log import (
    BATTLE,
    CARD,
    EVENT,
    MOVE,
    POLITICAL,
    RECRUIT,
    RESULT,
    SETUP,
    SUPPLY,
    TURN,
    private,
    public,
)
from roses.engine.steps import Frame, Step, StepRules, Steps
from roses.games.richard3 import ai, battle, hidden, views
from roses.games.richard3 import common as C
from roses.games.richard3.common import NONE, Moved
from roses.games.richard3.data import (
    ADJ,
    AREA_ID,
    AREA_KIND,
    AREA_NAMES,
    AREA_SEAS,
    AREAS,
    B_CATH_AREA,
    B_CITY_AREA,
    B_FIRE,
    B_HOME,
    B_INIT,
    B_LOYALTY,
    B_SHIELD_AREAS,
    B_SIDE,
    B_STEPS,
    B_TYPE,
    BLOCK_ID,
    BLOCK_KEY,
    BLOCK_NAME,
    BOMBARD,
    BORDER_LIMIT,
    BORDER_RED,
    BORDERS,
    CARD_AP,
    CARD_EVENT,
    CARD_NAME,
    CHURCH,
    CITY_AREAS,
    CLARENCE_L,
    CROWN_AREAS,
    DEAD,
    ENTERABLE,
    EXETER_Y,
    EXILE,
    EXILE_AREAS,
    EXILE_LIMIT,
    HEIR,
    HEIRS,
    HENRY_VI,
    LEVY,
    MERC,
    MINOR,
    MULLIGAN_MAX,
    N_AREAS,
    N_BLOCKS,
    N_BORDERS,
    N_CARDS,
    NO_SEA,
    NOBLE,
    OFF,
    POOL,
    PORT,
    PRISON,
    REBEL,
    REBEL_BLOCK,
    REBEL_T,
    ROLES,
    SCENARIO_IDS,
    SCENARIOS,
    SEA_BORDER,
    SEA_DEST,
    SEA_ZONES,
    SHIELD_AREAS,
    SUPPLY_LIMIT,
    WALES_AREAS,
    WELSH,
    scenario_locations,
    shared_zones,
)

ISLE_OF_MAN = AREA_ID["Isle of Man"]
MIDDLESEX = AREA_ID["Middlesex"]
CORNWALL = AREA_ID["Cornwall"]
CALAIS = AREA_ID["Calais"]
LAST_TURN = 7
NEVILLES = tuple(i for i in range(N_BLOCKS) if BLOCK_KEY[i].split("/")[0] in ("Warwick", "Kent", "Salisbury"))


# ======================================================================= frames (the decision stack)
class MulliganFrame(TypedDict):
    """Both players answer the mulligan question at once (5.1): ``mull[side]`` is -1 until
    that side answers, then 1 for a redeal request and 0 to keep."""

    step: str
    mull: list[int]


class MulliganReplyFrame(TypedDict):
    """The opponent of the side that asked for a redeal (``req``) answers (5.1)."""

    step: str
    req: int


class ActionFrame(TypedDict):
    """A side's Action Phase (5.x). ``step`` is what the side is doing now: ``main`` (spend AP
    or end), ``group`` (moving the group in ``grp``), ``path`` (moving block ``sel`` along
    ``path``), ``sea`` / ``recruit`` (block ``sel``), ``plague``, ``muster_area``, ``muster``
    (moving blocks to ``target``), ``declared`` (Main Attack declarations pushed on top,
    then the phase ends). ``pairs`` are the port pairs of a free return sea move (5.31),
    ``moves`` the paths of the group for the log."""

    step: str
    side: int
    ap: int
    event: str
    grp: int
    sel: int
    path: list[int]
    target: int
    pairs: list[list[int]]
    moves: list[list[int]]


class DeclareFrame(TypedDict):
    """Declare the Main Attack border into ``area`` (6.3, ruling A1)."""

    step: str
    side: int
    area: int


class BattlesFrame(TypedDict):
    """The Battle Phase: Player 1 picks the next battle (C13); ``fighting`` while a battle
    pushed on top of this frame is being fought."""

    step: str
    fighting: bool


class SupplyFrame(TypedDict):
    """The Supply Phase: ``stage`` is the next stage to queue (6.81, 6.82, 9.1, 7.x);
    ``marked`` the blocks that already lost a supply step this phase."""

    step: str
    stage: int
    marked: list[int]


class PoliticalFrame(TypedDict):
    """The Political Turn: ``stage`` is the next stage (8.1-8.5)."""

    step: str
    stage: int


class Decision(TypedDict):
    """A Supply or Political decision of ``side``. ``step`` is its kind and ``subj`` what it
    is about: ``enter`` a minor heir (``subj`` the heir, or -1 for the senior minor;
    ``n`` 1 when he enters as the new King), ``execute`` a defector (``subj`` the block),
    ``reduce`` supply losses in area ``subj`` (``n`` left), ``home`` for block ``subj``,
    ``disband`` exiles from area ``subj`` (``n`` left). ``ask`` is set when the decision
    reaches the top of the stack with a real choice; each answer clears it, so a decision
    with answers left is checked again (the side is asked only while there is a choice)."""

    step: str
    side: int
    subj: int
    n: int
    ask: bool


# Static recruit candidates (5.4) per block, before occupancy checks.
_RECRUIT_AREAS: list[tuple[int, ...]] = []
for _b in range(N_BLOCKS):
    _t = B_TYPE[_b]
    if _t == NOBLE:
        _RECRUIT_AREAS.append(tuple(sorted(B_SHIELD_AREAS[_b])))
    elif _t == CHURCH:
        _RECRUIT_AREAS.append((B_CATH_AREA[_b],))
    elif _t == LEVY:
        _RECRUIT_AREAS.append((B_CITY_AREA[_b],))
    elif _t == BOMBARD:
        _RECRUIT_AREAS.append(CITY_AREAS)
    elif _t == REBEL_T:
        _RECRUIT_AREAS.append(tuple(a for a in range(N_AREAS) if AREA_KIND[a] != EXILE))
    elif _b == WELSH:
        _RECRUIT_AREAS.append(WALES_AREAS)
    else:
        _RECRUIT_AREAS.append(())


#: The options of the Action Phase as constant tuples, by area or block id: a step's options
#: are made of these rather than of new tuples (the same values: actions are immutable).
_MOVE_ACT = tuple(("move", n) for n in AREA_NAMES)
_TO_ACT = tuple(("to", n) for n in AREA_NAMES)
_SEA_TO_ACT = tuple(("sea_to", n) for n in AREA_NAMES)
_PLACE_ACT = tuple(("place", n) for n in AREA_NAMES)
_SEA_ACT = tuple(("sea", k) for k in BLOCK_KEY)
_RECRUIT_ACT = tuple(("recruit", k) for k in BLOCK_KEY)
_BLOCK_ACT = tuple(("block", k) for k in BLOCK_KEY)
_END_ACT: Action = ("end", None)


def _side(role: str) -> int:
    if role == "York":
        return 0
    if role == "Lancaster":
        return 1
    return -1


def _owner(state: State, b: int) -> int:
    s = B_SIDE[b]
    return 1 - state["king"] if s == REBEL else s


# ======================================================================= the rules object
class Richard3Rules(StepRules):
    id = "richard3"
    title = "Richard III"
    scenarios = SCENARIO_IDS

    def scenario_names(self) -> dict[str, str]:
        return {s: str(SCENARIOS[s]["name"]) for s in SCENARIO_IDS}

    def roles(self, scenario: str, options: dict[str, Any] | None = None) -> list[str]:
        return list(ROLES)

    # ------------------------------------------------------------------ setup
    def setup(self, seed: int, scenario: str, options: dict[str, Any] | None = None) -> State:
        self.check_scenario(scenario)
        sc = SCENARIOS[scenario]
        loc = scenario_locations(scenario)
        steps = [B_STEPS[b] if loc[b] not in (DEAD, OFF) else 0 for b in range(N_BLOCKS)]
        king = 0 if sc["king"] == "York" else 1
        state: State = {
            "roles": list(ROLES), "log": [], "result": None, "reveals": 0,
            "scenario": scenario, "campaign": int(sc["first_campaign"]), "last_campaign": int(sc["last_campaign"]),
            "turn": 1, "stack": [],
            "king": king, "king_block": -1, "prisoner": HENRY_VI if loc[HENRY_VI] == PRISON else -1,
            "minors_owed": [0, 0],
            "loc": loc, "steps": steps, "down": [0] * N_BLOCKS, "moved": [0] * N_BLOCKS,
            "via": [-1] * N_BLOCKS, "reserve": [0] * N_BLOCKS, "pirate": [0] * N_BLOCKS,
            "p1": 1 - king, "hands": [[], []], "deck": [], "discard": [], "played": [NONE, NONE],
            "mulligan_used": [0, 0],
            "piracy": -1, "treason": -1, "surprise": -1, "force_march": -1,
            "bc": [[0] * N_BORDERS, [0] * N_BORDERS], "atk": [-1] * N_AREAS, "main": [-1] * N_AREAS,
            "ent": [[[] for _ in range(N_AREAS)], [[] for _ in range(N_AREAS)]],
            "battle": None, "battles": [],
        }
        rng.seed_state(state, seed)
        state["king_block"] = C.senior_heir(state, king)
        state["known"] = C.new_knowledge(state)
        public(state, kind=SETUP, text=f"{sc['name']}: campaign {state['campaign']}. King: {BLOCK_NAME[state['king_block']]} "
                      f"({ROLES[king]}); Pretender: {ROLES[1 - king]}.")
        _deal(state)
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

    def label(self, state: State, role: str, verb: str, arg: Any) -> str:
        return views.label(state, role, verb, arg)

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

    def tensor_codec(self, scenario: str, options: dict[str, Any] | None = None) -> Any:
        from roses.games.richard3 import research

        return research.tensor_codec(tuple(sorted({"", "over", *(s.phase for s in self.steps.by_name.values())})))


# ======================================================================= cards (1.1, 5.1, 8.5)
def _deal(state: State) -> None:
    """Shuffle all 25 cards and deal 7 to each player (C4); then the mulligan question (5.1)."""
    deck = list(range(N_CARDS))
    rng.shuffle(state, deck)
    state["hands"] = [sorted(deck[:7]), sorted(deck[7:14])]
    state["deck"] = deck[14:]
    state["discard"] = []
    state["played"] = [-1, -1]
    state["mulligan_used"] = [0, 0]
    _ask_mulligan(state)


def _ask_mulligan(state: State) -> None:
    frame: MulliganFrame = {"step": "mulligan", "mull": [NONE, NONE]}
    state["stack"] = [frame]
    for s in (0, 1):
        private(state, ROLES[s], kind=CARD, text="Your hand: " + ", ".join(CARD_NAME[c] for c in state["hands"][s])
                + f" ({_hand_ap(state, s)} AP).")


def _hand_ap(state: State, s: int) -> int:
    return sum(CARD_AP[c] for c in state["hands"][s])


def _can_mulligan(state: State, s: int) -> bool:
    return not state["mulligan_used"][s] and _hand_ap(state, s) <= MULLIGAN_MAX


def _redeal(state: State, sides: list[int]) -> None:
    """Reshuffle all available cards (the named hands and the undealt ones) and deal anew."""
    cards = list(state["deck"])
    for s in sides:
        cards.extend(state["hands"][s])
    rng.shuffle(state, cards)
    for s in sides:
        state["hands"][s] = sorted(cards[:7])
        cards = cards[7:]
    state["deck"] = cards


def _start_turn(state: State) -> None:
    state["stack"] = [{"step": "card"}]
    state["played"] = [NONE, NONE]
    n = N_BORDERS
    state["bc"] = [[0] * n, [0] * n]
    state["atk"] = [-1] * N_AREAS
    state["main"] = [-1] * N_AREAS
    state["ent"] = [[[] for _ in range(N_AREAS)], [[] for _ in range(N_AREAS)]]
    state["moved"] = [0] * N_BLOCKS
    state["via"] = [-1] * N_BLOCKS
    state["reserve"] = [0] * N_BLOCKS
    state["pirate"] = [0] * N_BLOCKS
    state["piracy"] = state["treason"] = state["surprise"] = state["force_march"] = NONE
    public(state, kind=TURN, text=f"Campaign {state['campaign']}, Game Turn {state['turn']}: Card Phase.")


def _reveal_cards(state: State) -> None:
    """Both cards are in: reveal them and find Player 1 (1.1, C5-C8)."""
    mark_reveal(state)
    played = state["played"]
    pret = 1 - state["king"]
    keys = []
    for s in (0, 1):
        c = played[s]
        keys.append((1 if CARD_EVENT[c] else 0, CARD_AP[c]))
        state["hands"][s].remove(c)
        state["discard"].append(c)
    if keys[0] > keys[1]:
        p1 = 0
    elif keys[1] > keys[0]:
        p1 = 1
    else:
        p1 = pret
    state["p1"] = p1
    public(state, kind=CARD, text=f"Cards: York {CARD_NAME[played[0]]}, Lancaster {CARD_NAME[played[1]]}. "
                  f"Player 1: {ROLES[p1]}.")
    for s in (0, 1):
        ev = CARD_EVENT[played[s]]
        if ev == "Piracy":
            state["piracy"] = s
        elif ev == "Treason":
            state["treason"] = s
        elif ev == "Surprise":
            state["surprise"] = s
        elif ev == "Force March":
            state["force_march"] = s
    _start_action(state, p1)


# ======================================================================= action phase (5.x)
def _start_action(state: State, s: int) -> None:
    """The Action Phase of side s (5.x): one frame holds its bookkeeping; its ``step`` says
    what s is doing now (main, group, path, sea, recruit, plague, muster_area, muster)."""
    card = state["played"][s]
    ev = CARD_EVENT[card] or ""
    frame: ActionFrame = {
        "step": "muster_area" if ev == "Muster" else "plague" if ev == "Plague" else "main",
        "side": s, "ap": CARD_AP[card], "event": ev, "grp": NONE, "sel": NONE, "path": [],
        "target": NONE, "pairs": [], "moves": [],
    }
    state["stack"] = [frame]
    _auto_end(state)


def _auto_end(state: State) -> None:
    """End the Action Phase at once when nothing but ``end`` is left (fewer empty clicks)."""
    fr = state["stack"][0]
    step = fr["step"]
    if step == "main" and fr["ap"] > 0:
        return
    if step in ("main", "muster_area", "plague") and _only_end(state, fr, fr["side"]):
        _end_action(state)


def _only_end(state: State, fr: ActionFrame, s: int) -> bool:
    """Whether ``end`` is the only option of the Action Phase step ``fr`` (main without action
    points left, Muster's area, Plague's city): the options of :func:`_legal_action_phase`, with
    the search stopped at the first other one (tests/richard3/test_kept_results.py pins it)."""
    occ = C.occupancy(state)
    step = fr["step"]
    if step == "plague":
        return not _plague_areas(state, s, occ)
    if step == "muster_area":
        return not _muster_areas(state, s, occ)
    if fr["ap"] > 0:
        return False
    # main without action points: only sea moves may be left, the second move of a port pair
    # (5.31), from the first port of a pair
    if fr["event"] not in ("", "Surprise", "Piracy"):
        return True
    pairs = fr["pairs"]
    if not pairs:
        return True
    origins = {a for a, _ in pairs}
    loc = state["loc"]
    seen: set[int] = set()
    for b in _movable(state, s):
        a = loc[b]
        if b in NO_SEA or a in seen or a not in origins:
            continue
        seen.add(a)
        if _sea_dests(state, s, b, occ, True):
            return False
    return True


def _end_action(state: State) -> None:
    fr = state["stack"][0]
    s = fr["side"]
    fr["grp"] = NONE
    fr["sel"] = NONE
    fr["path"] = []
    # Main Attack declarations (6.3, ruling A1): areas attacked through 2+ borders.
    todo = []
    atk = state["atk"]
    for a in C.contested(C.occupancy(state)):
        if atk[a] == s:
            borders = state["ent"][s][a]
            if len(borders) == 1:
                _set_main(state, a, borders[0])
            elif borders:
                todo.append(a)
    if todo:
        # The declarations are decided one by one, then the Action Phase ends ("declared").
        fr["step"] = "declared"
        steps.push_all(state, [DeclareFrame(step="declare", side=s, area=a) for a in todo])
        return
    _next_player(state)


def _set_main(state: State, a: int, bid: int) -> None:
    s = state["atk"][a]
    state["main"][a] = bid
    loc, via, res = state["loc"], state["via"], state["reserve"]
    for b in range(N_BLOCKS):
        if loc[b] == a and _owner(state, b) == s:
            res[b] = 0 if via[b] == bid else 1


def _next_player(state: State) -> None:
    s = state["stack"][0]["side"]
    public(state, kind=TURN, text=f"{ROLES[s]} ends the Action Phase.")
    if s == state["p1"]:
        _start_action(state, 1 - s)
    else:
        _start_battle_phase(state)


def _max_dist(state: State) -> int:
    fr = state["stack"][0]
    return 3 if fr["event"] == "Force March" else 2


def _bonus(state: State) -> int:
    fr = state["stack"][0]
    return 1 if fr["event"] == "Surprise" else 0


def _may_leave(state: State, s: int, a: int, occ: C.Occupancy) -> bool:
    """Pinning (5.22): a defender may leave a battle area only while the unmoved defenders
    outnumber the non-reserve attackers."""
    if state["atk"][a] != 1 - s or not occ[1 - s][a]:
        return True
    moved, res = state["moved"], state["reserve"]
    mine = pins = 0
    king = state["king"]
    for b in C.blocks_in(state, a):  # found by C searches of loc
        o = B_SIDE[b]
        if o == REBEL:
            o = 1 - king
        if o == s:
            if not moved[b]:
                mine += 1
        elif not res[b]:
            pins += 1
    return mine > pins


def _attack_ok(state: State, s: int, q: int, bid: int, occ: C.Occupancy) -> bool:
    """May one more block of s enter enemy/contested q through border bid (6.3 border counts)?"""
    atk = state["atk"][q]
    used = state["ent"][s][q]
    if bid in used:
        return True
    if occ[s][q] == 0:  # a new attack
        return True
    if atk == s:
        return len(used) < 3
    # s is the defender there: P2 reinforcing a battle P1 started
    if s != state["p1"]:
        return len(used) < 2
    return False


def _next_steps(state: State, s: int, occ: C.Occupancy, path: list[int] | None = None,
                first: bool = False) -> list[int]:
    """Areas the selected block may move to next (5.2, 5.21, 5.22, events), along ``path``
    (default: the selected block's path); with ``first``, only the first such area."""
    fr = state["stack"][0]
    if path is None:
        path = fr["path"]
    p = path[-1]
    d = len(path) - 1
    event = fr["event"]
    maxd = 3 if event == "Force March" else 2  # _max_dist, inlined: this is the hot path
    if d >= maxd:
        return []
    bonus = 1 if event == "Surprise" else 0  # _bonus
    bc = state["bc"][s]
    origin = path[0]
    banned: list[int] = []
    if d == 0 and state["atk"][origin] == 1 - s and occ[1 - s][origin]:
        banned = state["ent"][1 - s][origin]
    target = fr["target"]
    ent_s = ENTERABLE[s]
    out = []
    for q, bid in ADJ[p]:
        if not ent_s[q] or q in path or bc[bid] >= BORDER_LIMIT[bid] + bonus or bid in banned:
            continue
        enemy_there = occ[1 - s][q] > 0
        if target >= 0:
            if enemy_there:
                continue
            if q != target:
                # must still be able to reach the target from q
                if d + 1 >= maxd or BORDER_RED[bid]:
                    continue
                ok = False
                for q2, bid2 in ADJ[q]:
                    if q2 == target and bc[bid2] + (1 if bid2 == bid else 0) < BORDER_LIMIT[bid2] + bonus:
                        ok = True
                        break
                if not ok:
                    continue
        elif enemy_there and not _attack_ok(state, s, q, bid, occ):
            continue
        out.append(q)
        if first:
            break
    return out


def _movable(state: State, s: int) -> list[int]:
    """Blocks of s that may still move this turn (not moved, not recruited, not face-down)."""
    loc, moved, down = state["loc"], state["moved"], state["down"]
    return [b for b in C.owned_blocks(s, state["king"]) if loc[b] < N_AREAS and not moved[b] and not down[b]]


def _free_to_move(state: State, s: int, b: int) -> bool:
    """Whether block b is one of :func:`_movable` (asked of one block)."""
    return (state["loc"][b] < N_AREAS and not state["moved"][b] and not state["down"][b]
            and C.owner(state, b) == s)


def _has_unmoved(state: State, s: int, a: int) -> bool:
    """Whether one of :func:`_movable` stands in area a."""
    moved, down = state["moved"], state["down"]
    for b in C.owned_at(state, s, a):  # noqa: SIM110 (found by C searches of loc; a loop is faster than any())
        if not moved[b] and not down[b]:
            return True
    return False


def _group_may_move(state: State, s: int, a: int, occ: C.Occupancy) -> bool:
    """Whether :func:`_group_blocks` of area a is not empty (5.2, 5.22)."""
    return _has_unmoved(state, s, a) and _may_leave(state, s, a, occ) and _can_start(state, s, a, occ)


def _first_steps(state: State, s: int, b: int, occ: C.Occupancy) -> bool:
    """May block b take a first step (it depends only on where b stands)?"""
    return _can_start(state, s, state["loc"][b], occ)


def _can_start(state: State, s: int, a: int, occ: C.Occupancy) -> bool:
    """May a block of s standing in area a take a first step?"""
    return bool(_next_steps(state, s, occ, [a], first=True))


def _group_blocks(state: State, s: int, a: int, occ: C.Occupancy) -> list[int]:
    if not _may_leave(state, s, a, occ) or not _can_start(state, s, a, occ):
        return []
    moved, down = state["moved"], state["down"]
    return [b for b in C.owned_at(state, s, a) if not moved[b] and not down[b]]


def _move_areas(state: State, s: int, occ: C.Occupancy, movable: list[int] | None = None) -> list[int]:
    """Areas whose group has at least one block able to move (5.2); ``movable``: _movable()."""
    loc = state["loc"]
    # whether a block may take a first step depends only on its area
    out = [a for a in dict.fromkeys(loc[b] for b in (_movable(state, s) if movable is None else movable))
           if _may_leave(state, s, a, occ) and _can_start(state, s, a, occ)]
    out.sort()
    return out


def _sea_dests(state: State, s: int, b: int, occ: C.Occupancy, first: bool = False, only: int = -1) -> list[int]:
    """Where b may sea move now (5.3, 5.31, Piracy), considering AP and port pairs; with
    ``first``, only the first such area; with ``only`` (an area), only whether b may sea move
    there (``[only]`` or ``[]``)."""
    fr = state["stack"][0]
    a = state["loc"][b]
    if b in NO_SEA or not AREA_SEAS[a]:
        return []
    if not _may_leave(state, s, a, occ):
        return []
    banned: list[int] = []
    if state["atk"][a] == 1 - s and occ[1 - s][a]:
        banned = state["ent"][1 - s][a]
    ap = fr["ap"]
    pirate = fr["event"] == "Piracy"
    pairs = fr["pairs"]
    ent_s = ENTERABLE[s]
    out = []
    dests = SEA_DEST[a]
    if only >= 0:
        dests = (only,) if only in dests else ()
    for d in dests:
        if not ent_s[d]:
            continue
        if banned:
            zones = shared_zones(a, d)
            if all((SEA_BORDER + z) in banned for z in range(3) if zones >> z & 1):
                continue
        if occ[1 - s][d]:
            # attacking by sea: Piracy only, 1 AP, no port pairing (C66, C132)
            if not pirate or ap < 1:
                continue
            z = _first_zone(a, d)
            if not _attack_ok(state, s, d, SEA_BORDER + z, occ):
                continue
            out.append(d)
        elif ap >= 1 or [a, d] in pairs:
            out.append(d)
        else:
            continue
        if first:
            break
    return out


#: ``_SEA_OPEN[side][a]``: the areas a sea move from a may land in (5.3) that ``side`` may
#: enter (2.7), in order.
_SEA_OPEN: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(d for d in SEA_DEST[a] if ENTERABLE[s][d]) for a in range(N_AREAS)) for s in (0, 1))


def _first_zone(a: int, d: int) -> int:
    """The first sea zone areas a and d both touch (0 if none): the border of a sea move."""
    return _FIRST_ZONE[a][d]


def _first_zone_of(a: int, d: int) -> int:
    m = shared_zones(a, d)
    for z in range(len(SEA_ZONES)):
        if m >> z & 1:
            return z
    return 0


_FIRST_ZONE: tuple[tuple[int, ...], ...] = tuple(
    tuple(_first_zone_of(a, d) for d in range(N_AREAS)) for a in range(N_AREAS))


def _recruit_areas(state: State, s: int, b: int, occ: C.Occupancy, first: bool = False) -> list[int]:
    """Deployment areas for a pool block (5.4); with ``first``, only the first one."""
    t = B_TYPE[b]
    mine, theirs = occ[s], occ[1 - s]
    ent_s = ENTERABLE[s]
    out = []
    for a in _RECRUIT_AREAS[b]:
        if not ent_s[a] or theirs[a]:
            continue
        if t == BOMBARD:
            if not mine[a]:
                continue
        elif t == REBEL_T and mine[a]:
            continue
        out.append(a)
        if first:
            break
    return out


def _recruitable(state: State, s: int, occ: C.Occupancy) -> list[int]:
    loc, down = state["loc"], state["down"]
    return [b for b in C.owned_blocks(s, state["king"])
            if loc[b] == POOL and not down[b] and B_TYPE[b] != HEIR and _recruit_areas(state, s, b, occ, True)]


def _plague_areas(state: State, s: int, occ: C.Occupancy) -> list[int]:
    return [a for a in CITY_AREAS if occ[1 - s][a] and not occ[s][a]]


def _muster_areas(state: State, s: int, occ: C.Occupancy) -> list[int]:
    ent_s = ENTERABLE[s]
    return [a for a in range(N_AREAS) if ent_s[a] and not occ[1 - s][a]]


def _muster_blocks(state: State, s: int, occ: C.Occupancy) -> list[int]:
    fr = state["stack"][0]
    out = []
    for b in _movable(state, s):
        a = state["loc"][b]
        if a != fr["target"] and _may_leave(state, s, a, occ) and _first_steps(state, s, b, occ):
            out.append(b)
    return out


# ======================================================================= legal actions
def _legal_action_phase(state: State, fr: ActionFrame, s: int) -> list[Action]:
    """The legal actions of side ``s`` in its Action Phase."""
    return _compute_options(state, fr, s, C.occupancy(state))


def _compute_options(state: State, fr: ActionFrame, s: int, occ: C.Occupancy) -> list[Action]:
    step = fr["step"]
    if step == "path":
        acts: list[Action] = list(map(_TO_ACT.__getitem__, _next_steps(state, s, occ)))
        if len(fr["path"]) > 1 and (fr["target"] < 0 or fr["path"][-1] == fr["target"]):
            acts.append(("stop", None))
        return acts
    if step == "group":
        acts = list(map(_BLOCK_ACT.__getitem__, _group_blocks(state, s, fr["grp"], occ)))
        acts.append(("end_group", None))
        return acts
    if step == "sea":
        return list(map(_SEA_TO_ACT.__getitem__, _sea_dests(state, s, fr["sel"], occ)))
    if step == "recruit":
        return list(map(_PLACE_ACT.__getitem__, _recruit_areas(state, s, fr["sel"], occ)))
    if step == "plague":
        return [("plague", AREA_NAMES[a]) for a in _plague_areas(state, s, occ)] + [("end", None)]
    if step == "muster_area":
        return [("muster", AREA_NAMES[a]) for a in _muster_areas(state, s, occ)] + [("end", None)]
    if step == "muster":
        return [("block", BLOCK_KEY[b]) for b in _muster_blocks(state, s, occ)] + [("end", None)]
    if step != "main":
        return []
    if fr["target"] < 0:
        return _main_options(state, fr, s, occ)
    ev = fr["event"]
    ap = fr["ap"]
    acts = []
    movable = _movable(state, s)
    if ev != "Piracy" and ap > 0:
        acts.extend(("move", AREA_NAMES[a]) for a in _move_areas(state, s, occ, movable))
    if ev in ("", "Surprise", "Piracy"):
        by_area: dict[int, bool] = {}
        loc = state["loc"]
        for b in movable:
            if b in NO_SEA:
                continue
            a = loc[b]
            ok = by_area.get(a)
            if ok is None:
                ok = by_area[a] = bool(_sea_dests(state, s, b, occ, True))
            if ok:
                acts.append(("sea", BLOCK_KEY[b]))
    if ev == "" and ap > 0:
        acts.extend(("recruit", BLOCK_KEY[b]) for b in _recruitable(state, s, occ))
    acts.append(("end", None))
    return acts


def _main_options(state: State, fr: ActionFrame, s: int, occ: C.Occupancy) -> list[Action]:
    """The options of the main step (5.2-5.4): what :func:`_move_areas`, :func:`_sea_dests`
    and :func:`_recruitable` give, worked out area by area in one pass (this runs at every
    main step of every Action Phase; tests/richard3/test_kept_results.py pins it to them)."""
    loc, moved, down = state["loc"], state["moved"], state["down"]
    foe = 1 - s
    ev = fr["event"]
    ap = fr["ap"]
    theirs = occ[foe]
    atk = state["atk"]
    acts: list[Action] = []
    owned = C.owned_blocks(s, state["king"])
    movable = [b for b in owned if loc[b] < N_AREAS and not moved[b] and not down[b]]
    if movable:
        # per area: may its blocks leave (pinning, 5.22), and the borders they may not cross
        # back (6.6: those the attackers came through), as _may_leave and _next_steps say
        ent_foe = state["ent"][foe]
        free: dict[int, bool] = {}
        banned: dict[int, list[int]] = {}
        for a in dict.fromkeys(map(loc.__getitem__, movable)):
            if atk[a] == foe and theirs[a]:
                free[a] = _may_leave(state, s, a, occ)
                banned[a] = ent_foe[a]
            else:
                free[a] = True
        if ev != "Piracy" and ap > 0:
            bonus = 1 if ev == "Surprise" else 0
            bc = state["bc"][s]
            ent_s = ENTERABLE[s]
            starts = []
            for a, ok in free.items():  # _can_start: the first step of _next_steps
                if not ok:
                    continue
                no = banned.get(a, ())
                for q, bid in ADJ[a]:
                    if not ent_s[q] or bc[bid] >= BORDER_LIMIT[bid] + bonus or bid in no:
                        continue
                    if theirs[q] and not _attack_ok(state, s, q, bid, occ):
                        continue
                    starts.append(a)
                    break
            starts.sort()
            acts.extend(map(_MOVE_ACT.__getitem__, starts))
        if ev == "" or ev == "Surprise" or ev == "Piracy":
            by_area: dict[int, bool] = {}
            plain = ev != "Piracy" and ap >= 1  # no attack by sea: any friendly or vacant port will do
            for b in movable:
                if b in NO_SEA:
                    continue
                a = loc[b]
                known = by_area.get(a)
                if known is None:
                    if not free[a] or not AREA_SEAS[a]:
                        known = False
                    elif plain and a not in banned:  # _sea_dests(first=True), without its checks
                        known = not all(map(theirs.__getitem__, _SEA_OPEN[s][a]))
                    else:
                        known = bool(_sea_dests(state, s, b, occ, True))
                    by_area[a] = known
                if known:
                    acts.append(_SEA_ACT[b])
    if ev == "" and ap > 0:
        mine = occ[s]
        ent_s = ENTERABLE[s]
        for b in owned:  # _recruitable and _recruit_areas(first=True)
            if loc[b] != POOL or down[b]:
                continue
            t = B_TYPE[b]
            if t == HEIR:
                continue
            for a in _RECRUIT_AREAS[b]:
                if not ent_s[a] or theirs[a] or (not mine[a] if t == BOMBARD else t == REBEL_T and mine[a]):
                    continue
                acts.append(_RECRUIT_ACT[b])
                break
    acts.append(_END_ACT)
    return acts


def _is_legal_main(state: State, fr: ActionFrame, s: int, verb: str, arg: Any) -> bool:
    """Same answer as ``(verb, arg) in _legal_action_phase(...)`` in the main step, cheaper
    (tests/richard3/test_fuzz.py pins the two together)."""
    ev = fr["event"]
    if verb == "end":
        return arg is None
    if not isinstance(arg, str):
        return False
    occ = C.occupancy(state)
    if verb == "move":
        a = AREA_ID.get(arg, -1)
        return a >= 0 and ev != "Piracy" and fr["ap"] > 0 and _group_may_move(state, s, a, occ)
    b = BLOCK_ID.get(arg, -1)
    if b < 0:
        return False
    # b is one of _movable / _recruitable, checked by itself
    if verb == "sea":
        return (ev in ("", "Surprise", "Piracy") and _free_to_move(state, s, b)
                and bool(_sea_dests(state, s, b, occ, True)))
    if verb == "recruit":
        return (ev == "" and fr["ap"] > 0 and C.owner(state, b) == s and state["loc"][b] == POOL
                and not state["down"][b] and B_TYPE[b] != HEIR and bool(_recruit_areas(state, s, b, occ, True)))
    return False


# ======================================================================= applying actions
_AREA_VERBS = frozenset(("move", "to", "sea_to", "place", "muster", "plague", "battle", "enter", "home"))
_BLOCK_VERBS = frozenset(("block", "sea", "recruit", "reduce", "disband"))


def _border_arg(bid: int, a: int) -> str:
    """The argument naming a border into area a: the neighbouring area's name, or the sea zone."""
    if bid >= SEA_BORDER:
        return SEA_ZONES[bid - SEA_BORDER]
    x, y, _ = BORDERS[bid]
    return AREA_NAMES[x if y == a else y]


def _decode(verb: str, arg: Any) -> Any:
    """Action arguments are names (areas, sea zones) and block keys; the state uses ids."""
    if verb in _AREA_VERBS:
        return AREA_ID[arg]
    if verb in _BLOCK_VERBS:
        return BLOCK_ID[arg]
    return arg


def _decode_main(state: State, s: int, a: int, arg: Any) -> int:
    """The border id named by a ``main`` argument (a neighbouring area or a sea zone) into a."""
    for bid in state["ent"][s][a]:
        if _border_arg(bid, a) == arg:
            return int(bid)
    raise IllegalAction(f"{ROLES[s]} cannot main {arg} now.")


def _mulligan_ask(state: State, fr: MulliganFrame, s: int, verb: str) -> None:
    mull = fr["mull"]
    mull[s] = 1 if verb == "redeal" else 0
    if mull[1 - s] < 0:
        return
    req = [x for x in (0, 1) if mull[x] == 1]
    if not req:
        _start_turn(state)
        return
    mark_reveal(state)
    for r in req:
        state["mulligan_used"][r] = 1
        public(state, kind=CARD, text=f"{ROLES[r]} shows a mulligan hand ({', '.join(CARD_NAME[c] for c in state['hands'][r])}, "
                      f"{_hand_ap(state, r)} AP) and asks for a redeal (5.1).")
    if len(req) == 2:
        _redeal(state, [0, 1])
        public(state, kind=CARD, text="Both hands are redealt.")
        _after_redeal(state)
        return
    reply: MulliganReplyFrame = {"step": "mulligan_reply", "req": req[0]}
    steps.replace(state, reply)


def _mulligan_reply(state: State, fr: MulliganReplyFrame, s: int, verb: str) -> None:
    """The opponent of the requester answers (5.1)."""
    r = fr["req"]
    if verb == "redeal":
        _redeal(state, [0, 1])
        public(state, kind=CARD, text=f"{ROLES[s]} also takes a new hand; both hands are redealt.")
    else:
        _redeal(state, [r])
        public(state, kind=CARD, text=f"{ROLES[s]} keeps their hand; {ROLES[r]} gets a new hand.")
    _after_redeal(state)


def _after_redeal(state: State) -> None:
    if all(state["mulligan_used"]):
        for s in (0, 1):
            private(state, ROLES[s], kind=CARD, text="Your hand: " + ", ".join(CARD_NAME[c] for c in state["hands"][s]) + ".")
        _start_turn(state)
    else:
        _ask_mulligan(state)


def _apply_action_phase(state: State, fr: ActionFrame, s: int, verb: str, arg: Any) -> None:
    step = fr["step"]
    role = ROLES[s]
    if verb == "end":
        if step == "muster":
            _flush_moves(state, s)
        _end_action(state)
        return
    if verb == "move":
        fr["ap"] -= 1
        fr["grp"] = arg
        fr["step"] = "group"
        fr["moves"] = []
        _auto_group(state, s)
        return
    if verb == "block":
        fr["sel"] = arg
        fr["path"] = [state["loc"][arg]]
        fr["step"] = "path"
        return
    if verb == "to":
        _step_block(state, s, arg)
        return
    if verb == "stop":
        _stop_block(state, s)
        return
    if verb == "end_group":
        _flush_moves(state, s)
        fr["grp"] = -1
        fr["step"] = "main"
        _auto_end(state)
        return
    if verb == "sea":
        fr["sel"] = arg
        fr["step"] = "sea"
        return
    if verb == "sea_to":
        _sea_move(state, s, arg)
        return
    if verb == "recruit":
        fr["sel"] = arg
        fr["step"] = "recruit"
        return
    if verb == "place":
        b = fr["sel"]
        C.move_block(state, b, arg)
        state["steps"][b] = B_STEPS[b]
        state["moved"][b] = Moved.RECRUITED
        C.forget(state, b)  # a recruit could be any block of the pool (5.4)
        fr["ap"] -= 1
        fr["sel"] = -1
        fr["step"] = "main"
        public(state, kind=RECRUIT, text=f"{role} recruits a block in {AREA_NAMES[arg]}.")
        private(state, role, kind=RECRUIT, text=f"You recruit {BLOCK_NAME[b]} in {AREA_NAMES[arg]}.")
        _check_rescue(state)
        _auto_end(state)
        return
    if verb == "plague":
        _plague(state, s, arg)
        if state["result"] is None:
            _end_action(state)
        return
    if verb == "muster":
        fr["target"] = arg
        fr["step"] = "muster"
        fr["moves"] = []
        public(state, kind=MOVE, text=f"{role} musters at {AREA_NAMES[arg]}.")
        return
    raise IllegalAction(f"Unknown action {verb}.")


def _border_label(bid: int, a: int) -> str:
    if bid >= SEA_BORDER:
        return f"the {SEA_ZONES[bid - SEA_BORDER]}"
    x, y, _ = BORDERS[bid]
    return f"the {AREA_NAMES[x if y == a else y]} border"


def _step_block(state: State, s: int, q: int) -> None:
    fr = state["stack"][0]
    b = fr["sel"]
    path = fr["path"]
    p = path[-1]
    bid = _bid(p, q)
    occ = C.occupancy(state)
    enemy_there = occ[1 - s][q] > 0
    C.move_block(state, b, q)
    state["moved"][b] = Moved.LAND
    state["bc"][s][bid] += 1
    _enter(state, s, q, bid)
    state["via"][b] = bid
    path.append(q)
    if enemy_there:
        if occ[s][q] == 0 and state["atk"][q] < 0:
            state["atk"][q] = s
            state["main"][q] = -1
        elif state["atk"][q] == 1 - s:
            state["reserve"][b] = C.Reserve.P2
    stop = enemy_there or BORDER_RED[bid] or len(path) - 1 >= _max_dist(state) or q == fr["target"]
    if not stop:
        mine = list(occ[s])  # the occupancy with b moved on (occupancy() is shared: a copy)
        mine[q] += 1
        mine[p] -= 1
        if not _next_steps(state, s, (mine, occ[1]) if s == 0 else (occ[0], mine)):
            stop = True
    if stop:
        _stop_block(state, s)


def _enter(state: State, s: int, a: int, bid: int) -> None:
    """Record that side s entered area a through border bid this turn (6.3, 6.6). The list
    of an area is replaced, never changed in place (search copies share it: C.search_copy)."""
    ent = state["ent"][s]
    if bid not in ent[a]:
        ent[a] = [*ent[a], bid]


def _bid(p: int, q: int) -> int:
    for n, bid in ADJ[p]:
        if n == q:
            return bid
    raise IllegalAction("Not adjacent.")


def _stop_block(state: State, s: int) -> None:
    fr = state["stack"][0]
    fr["moves"].append(list(fr["path"]))
    fr["sel"] = -1
    fr["path"] = []
    _check_rescue(state)
    if fr["step"] == "path" and fr["target"] >= 0:
        fr["step"] = "muster"
        occ = C.occupancy(state)
        if not _muster_blocks(state, s, occ):
            _flush_moves(state, s)
            _end_action(state)
        return
    fr["step"] = "group"
    _auto_group(state, s)


def _auto_group(state: State, s: int) -> None:
    """Close the group when none of its blocks can move any more."""
    fr = state["stack"][0]
    occ = C.occupancy(state)
    if not _group_may_move(state, s, fr["grp"], occ):
        _flush_moves(state, s)
        fr["grp"] = -1
        fr["step"] = "main"
        _auto_end(state)


def _flush_moves(state: State, s: int) -> None:
    """Log the moves of the group as area paths with counts (RULINGS.md, log policy: paths and counts, never names)."""
    fr = state["stack"][0]
    moves = fr["moves"]
    if not moves:
        return
    counts: dict[tuple[int, ...], int] = {}
    for path in moves:
        counts[tuple(path)] = counts.get(tuple(path), 0) + 1
    parts = [f"{n} {'block' if n == 1 else 'blocks'} {' → '.join(AREA_NAMES[a] for a in path)}"
             for path, n in counts.items()]
    public(state, kind=MOVE, text=f"{ROLES[s]} moves " + "; ".join(parts) + ".")
    fr["moves"] = []


def _sea_move(state: State, s: int, d: int) -> None:
    fr = state["stack"][0]
    b = fr["sel"]
    a = state["loc"][b]
    occ = C.occupancy(state)
    attacking = occ[1 - s][d] > 0
    z = _first_zone(a, d)
    pairs = fr["pairs"]
    if attacking:
        fr["ap"] -= 1
        state["pirate"][b] = shared_zones(a, d)
        if occ[s][d] == 0 and state["atk"][d] < 0:
            state["atk"][d] = s
            state["main"][d] = -1
    elif [a, d] in pairs:
        pairs.remove([a, d])
    else:
        fr["ap"] -= 1
        if PORT[a] == 2 and PORT[d] == 2:
            pairs.append([a, d])
    C.move_block(state, b, d)
    state["moved"][b] = Moved.SEA
    bid = SEA_BORDER + z
    state["via"][b] = bid
    _enter(state, s, d, bid)
    fr["sel"] = -1
    fr["step"] = "main"
    public(state, kind=MOVE, text=f"{ROLES[s]} moves 1 block by sea {AREA_NAMES[a]} → {AREA_NAMES[d]}"
                  + (" (attack)." if attacking else "."))
    _check_rescue(state)
    _auto_end(state)


def _plague(state: State, s: int, a: int) -> None:
    """Plague (C133): every block in the enemy city area loses one step (6.8, 9.0 apply)."""
    victims = C.blocks_in(state, a)
    dead = []
    for b in victims:
        if C.reduce(state, b):
            dead.append(b)
    public(state, kind=EVENT, text=f"{ROLES[s]} plays Plague on {AREA_NAMES[a]}: {len(victims)} block(s) lose a step, "
                  f"{len(dead)} eliminated.")
    _log_eliminations(state, dead, 1 - s)


def _log_eliminations(state: State, dead: list[int], owner: int) -> None:
    """Heir deaths are public by name (6.82); other eliminations outside battle only to the owner."""
    for b in dead:
        if B_TYPE[b] == HEIR:
            public(state, f"{BLOCK_NAME[b]} ({ROLES[B_SIDE[b]]} heir) is dead.")
        else:
            private(state, ROLES[owner], f"{BLOCK_NAME[b]} is eliminated.")


def _check_rescue(state: State) -> None:
    """Kingmaker: a Lancastrian block occupying London frees Henry VI (p.9 note)."""
    h = state["prisoner"]
    if h < 0:
        return
    occ = C.occupancy(state)
    if occ[1][MIDDLESEX] and not occ[0][MIDDLESEX]:
        state["loc"][h] = MIDDLESEX
        state["prisoner"] = -1
        state["moved"][h] = Moved.RECRUITED
        mark_reveal(state)
        public(state, kind=EVENT, text="Henry VI is rescued from the Tower and becomes the Lancastrian Pretender.")


# ======================================================================= battle phase (6.x)
def _start_battle_phase(state: State) -> None:
    frame: BattlesFrame = {"step": "battles", "fighting": False}
    state["stack"] = [frame]
    state["battles"] = C.contested_areas(state)
    if not state["battles"]:
        _start_supply(state)
        return
    public(state, kind=BATTLE, text="Battle Phase.")
    if len(state["battles"]) == 1:
        _choose_battle(state, frame, state["battles"][0])


def _choose_battle(state: State, frame: BattlesFrame, a: int) -> None:
    """Fight the battle in area a (C13): battle.py pushes its steps on top of the Battle Phase
    frame, which resumes (``fighting``: see :class:`Battles`) when the battle is over."""
    state["battles"].remove(a)
    public(state, kind=BATTLE, text=f"Battle in {AREA_NAMES[a]}.")
    frame["fighting"] = True
    battle.start_battle(state, a)
    if state["battle"] is not None or state["result"] is not None:
        return
    _after_battle(state, frame)


def _after_battle(state: State, frame: BattlesFrame) -> None:
    frame["fighting"] = False
    _check_rescue(state)
    if state["result"] is not None:
        return
    occ = C.occupancy(state)
    state["battles"] = [a for a in state["battles"] if occ[0][a] and occ[1][a]]
    if not state["battles"]:
        _start_supply(state)
    elif len(state["battles"]) == 1:
        _choose_battle(state, frame, state["battles"][0])


# ======================================================================= decisions (supply, political)
def _start_supply(state: State) -> None:
    """The Supply Phase (6.81, 6.82, 9.1, 7.x): an automatic step that queues each stage's
    decisions on top of itself (:class:`Supply`)."""
    frame: SupplyFrame = {"step": "supply", "stage": 0, "marked": []}
    state["stack"] = [frame]
    public(state, kind=SUPPLY, text="Supply Phase.")


def _supply_stage(state: State, fr: SupplyFrame) -> None:
    """Queue the decisions of the next Supply Phase stage, or end the phase."""
    st = fr["stage"]
    fr["stage"] = st + 1
    todo: list[Decision] = []
    king = state["king"]
    pret = 1 - king
    if st == 0:  # 6.81 the new King
        if state["king_block"] < 0:
            for h in HEIRS[king]:
                lh = state["loc"][h]
                if lh < N_AREAS:
                    state["king_block"] = h
                    C.learn(state, h)  # named as the new King (6.81)
                    mark_reveal(state)
                    public(state, kind=SUPPLY, text=f"{BLOCK_NAME[h]} becomes King in {AREA_NAMES[lh]} (6.81).")
                    break
                if lh == MINOR:
                    todo.append(Decision(step="enter", side=king, subj=h, n=1, ask=False))
                    break
        steps.push_all(state, todo)
        return
    if st == 1:  # 6.82 minors
        for side in (king, pret):
            if state["minors_owed"][side] > 0:
                todo.append(Decision(step="enter", side=side, subj=NONE, n=0, ask=False))
        steps.push_all(state, todo)
        return
    if st == 2:  # 9.1 executions
        for b, side in ((CLARENCE_L, 1), (EXETER_Y, 0)):
            lb = state["loc"][b]
            if lb < N_AREAS or lb == POOL:
                todo.append(Decision(step="execute", side=side, subj=b, n=0, ask=False))
        steps.push_all(state, todo)
        return
    if st == 3:  # 7.1, 7.2 supply limits
        occ = C.occupancy(state)
        for side in (pret, king):
            counts = occ[side]
            for a in compress(_AREA_RANGE, counts):  # the areas side occupies
                n = counts[a]
                if a in EXILE_LIMIT:
                    if n <= EXILE_LIMIT[a]:  # (the extras are some of the n blocks there)
                        continue
                    extra = len(_exile_extras(state, side, a)) - EXILE_LIMIT[a]
                else:
                    extra = n - SUPPLY_LIMIT[a]
                if extra > 0:
                    todo.append(Decision(step="reduce", side=side, subj=a, n=extra, ask=False))
        steps.push_all(state, todo)
        return
    # end of the Game Turn
    if state["turn"] >= LAST_TURN:
        _start_political(state)
    else:
        state["turn"] += 1
        _start_turn(state)


_AREA_RANGE = range(N_AREAS)


def _exile_extras(state: State, side: int, a: int) -> list[int]:
    """Blocks in an exile area that count against its limit: all but its local mercenaries (7.2, A9)."""
    return [b for b in C.blocks_in(state, a, side) if not (B_TYPE[b] == MERC and B_HOME[b] == a)]


def _entry_areas(state: State, side: int, h: int) -> list[int]:
    """Where an entering minor heir may go (6.82): royal heirs to a friendly or vacant crown
    area (if none, an own exile area: ruling in RULINGS.md); Pretender heirs to either exile area."""
    occ = C.occupancy(state)
    if side == state["king"]:
        out = [a for a in CROWN_AREAS if not occ[1 - side][a]]
        if out:
            return out
    return list(EXILE_AREAS[side])


def _senior_minor(state: State, side: int) -> int:
    for h in HEIRS[side]:
        if state["loc"][h] == MINOR:
            return h
    return -1


def _decision_options(state: State, fr: Decision) -> list[Action]:
    kind, side, subj = fr["step"], fr["side"], fr["subj"]
    if kind == "enter":
        h = subj if subj >= 0 else _senior_minor(state, side)
        if h < 0:
            return []
        return [("enter", AREA_NAMES[a]) for a in _entry_areas(state, side, h)]
    if kind == "execute":
        return [("execute", None), ("spare", None)]
    if kind == "reduce":
        supply = steps.find(state, "supply")
        marked = supply["marked"] if supply is not None else []
        if subj in EXILE_LIMIT:
            cands = _exile_extras(state, side, subj)
        else:
            cands = C.blocks_in(state, subj, side)
        return [("reduce", BLOCK_KEY[b]) for b in cands if b not in marked]
    if kind == "home":
        return [("home", AREA_NAMES[a]) for a in _home_options(state, side, subj)]
    if kind == "disband":
        return [("disband", BLOCK_KEY[b]) for b in _exile_extras(state, side, subj) if B_TYPE[b] != HEIR]
    return []


def _decision_is_automatic(state: State, fr: Decision, opts: list[Action]) -> bool:
    """Whether the decision, whose options are ``opts``, has no real choice (then
    :func:`_decision_run` makes it)."""
    kind = fr["step"]
    if kind == "execute":
        return False
    if kind == "enter" and not opts:
        return True
    if kind in ("reduce", "disband"):
        # no candidate left, or every candidate must go (one at a time)
        return not opts or fr["n"] <= 0 or len(opts) <= fr["n"]
    if kind == "home":
        return len(opts) <= 1
    return len(opts) == 1


def _decision_run(state: State, fr: Decision, opts: list[Action]) -> None:
    """Make a decision that has no real choice (one block or area at a time)."""
    kind, side, subj, n = fr["step"], fr["side"], fr["subj"], fr["n"]
    if kind == "enter" and not opts:
        state["minors_owed"][side] = 0
        steps.pop(state)
        return
    if kind in ("reduce", "disband"):
        if not opts or n <= 0:
            steps.pop(state)
            return
        _apply_decision(state, fr, side, kind, BLOCK_ID[opts[0][1]])
        return
    if kind == "home":
        _go_home(state, side, subj, AREA_ID[opts[0][1]] if opts else NONE)
        steps.pop(state)
        return
    verb, arg = opts[0]
    _apply_decision(state, fr, side, verb, _decode(verb, arg))


def _apply_decision(state: State, fr: Decision, s: int, verb: str, arg: Any) -> None:
    """Apply a Supply/Political decision of side s; the phase runs on by itself (settle)."""
    side, subj, n = fr["side"], fr["subj"], fr["n"]
    fr["ask"] = False
    role = ROLES[s]
    if verb == "enter":
        h = subj if subj >= 0 else _senior_minor(state, side)
        state["loc"][h] = arg
        state["steps"][h] = B_STEPS[h]
        state["down"][h] = 0
        C.learn(state, h)  # named as he enters (6.81, 6.82)
        mark_reveal(state)
        if state["minors_owed"][side] > 0:
            state["minors_owed"][side] -= 1
        if n == 1:  # the new King (6.81 with 6.82)
            state["king_block"] = h
            public(state, kind=SUPPLY, text=f"{BLOCK_NAME[h]} comes of age and becomes King in {AREA_NAMES[arg]} (6.81).")
            steps.pop(state)
        else:
            public(state, kind=SUPPLY, text=f"{BLOCK_NAME[h]} enters play in {AREA_NAMES[arg]} (6.82).")
            if state["minors_owed"][side] <= 0 or _senior_minor(state, side) < 0:
                state["minors_owed"][side] = 0
                steps.pop(state)
    elif verb in ("execute", "spare"):
        steps.pop(state)
        if verb == "execute":
            public(state, kind=SUPPLY, text=f"{role} executes {BLOCK_NAME[subj]} (9.1).")
            C.eliminate(state, subj)
        else:
            private(state, role, kind=SUPPLY, text=f"You spare {BLOCK_NAME[subj]}.")
    elif verb == "reduce":
        supply = steps.find(state, "supply")
        if supply is not None:
            supply["marked"].append(arg)
        fr["n"] = n - 1
        if fr["n"] <= 0:
            steps.pop(state)
        public(state, kind=SUPPLY, text=f"{role} loses a step in {AREA_NAMES[subj]} (supply).")
        if C.reduce(state, arg):
            _log_eliminations(state, [arg], s)
    elif verb == "home":
        _go_home(state, s, subj, arg)
        steps.pop(state)
    elif verb == "disband":
        state["loc"][arg] = POOL
        fr["n"] = n - 1
        if fr["n"] <= 0:
            steps.pop(state)
        public(state, kind=POLITICAL, text=f"{role} sends an exile from {AREA_NAMES[subj]} to the pool (7.2).")
    else:
        raise IllegalAction(f"Unknown action {verb}.")


# ======================================================================= political turn (8.x)
def _start_political(state: State) -> None:
    """The Political Turn (8.x): an automatic step that queues each stage's decisions on top of
    itself (:class:`Political`)."""
    frame: PoliticalFrame = {"step": "political", "stage": 0}
    state["stack"] = [frame]
    public(state, kind=POLITICAL, text=f"Political Turn after campaign {state['campaign']}.")


def _usurpation_counts(state: State) -> list[int]:
    """8.2: nobles (church, defected heirs included) and heirs on the map, not in exile nor on
    the Isle of Man; +1 for occupying London; the Kingmaker prisoner counts for Lancaster."""
    counts = [0, 0]
    loc = state["loc"]
    for b in range(N_BLOCKS):
        a = loc[b]
        if a < N_AREAS and AREA_KIND[a] != EXILE and a != ISLE_OF_MAN and B_TYPE[b] in (HEIR, NOBLE, CHURCH):
            counts[_owner(state, b)] += 1
    occ = C.occupancy(state)
    if occ[0][MIDDLESEX] and not occ[1][MIDDLESEX]:
        counts[0] += 1
    elif occ[1][MIDDLESEX] and not occ[0][MIDDLESEX]:
        counts[1] += 1
    if state["prisoner"] >= 0:
        counts[1] += 1
    return counts


def _political_stage(state: State, fr: PoliticalFrame) -> None:
    st = fr["stage"]
    fr["stage"] = st + 1
    todo: list[Decision] = []
    loc = state["loc"]
    if st == 0:
        # 8.1 levies, Bombards and the Welsh to the pool; mercenaries home; the Rebel disbands
        for b in range(N_BLOCKS):
            t = B_TYPE[b]
            if loc[b] >= N_AREAS:
                continue
            if t in (LEVY, BOMBARD, REBEL_T) or b == WELSH:
                loc[b] = POOL
            elif t == MERC:
                loc[b] = B_HOME[b]
        public(state, kind=POLITICAL, text="Levies, Bombards and the Welsh disband; mercenaries go home; the Rebel disbands (8.1).")
        # 8.2 usurpation
        king = state["king"]
        counts = _usurpation_counts(state)
        public(state, kind=POLITICAL, text=f"Usurpation count (8.2): York {counts[0]}, Lancaster {counts[1]}.")
        if counts[1 - king] > counts[king]:
            new = C.pretender_block(state)
            state["king"] = 1 - king
            state["king_block"] = new
            public(state, kind=POLITICAL, text=f"{ROLES[1 - king]} usurps the throne: {BLOCK_NAME[new] if new >= 0 else 'no heir'} "
                          f"is King; {ROLES[king]} is now the Pretender.")
        if state["campaign"] >= state["last_campaign"]:
            winner = state["king"]
            if state["prisoner"] >= 0 and winner == 0:
                public(state, kind=POLITICAL, text="Henry VI, still a prisoner, is murdered in the Tower.")
            state["result"] = ROLES[winner]
            public(state, kind=RESULT, text=f"The game ends: {ROLES[winner]} holds the throne and wins (9.0).")
            return
        return
    if st in (1, 2):
        # 8.3 the Pretender goes home, then 8.4 the King goes home
        side = 1 - state["king"] if st == 1 else state["king"]
        for b in range(N_BLOCKS):
            a = loc[b]
            if a < N_AREAS and AREA_KIND[a] != EXILE and _owner(state, b) == side \
                    and B_TYPE[b] in (HEIR, NOBLE, CHURCH):
                todo.append(Decision(step="home", side=side, subj=b, n=0, ask=False))
        steps.push_all(state, todo)
        return
    if st == 3:
        # exile limits at reset (7.2, 8.5)
        for side in (1 - state["king"], state["king"]):
            for a in EXILE_AREAS[side]:
                extra = len(_exile_extras(state, side, a)) - EXILE_LIMIT[a]
                if extra > 0:
                    todo.append(Decision(step="disband", side=side, subj=a, n=extra, ask=False))
        steps.push_all(state, todo)
        return
    # 8.5 campaign reset
    known = state.get("known")
    for b in range(N_BLOCKS):
        if loc[b] not in (DEAD, OFF):
            state["steps"][b] = B_STEPS[b]
        if known is not None and loc[b] < N_AREAS and (state["down"][b] or known[0][b] or known[1][b]):
            C.learn(state, b)  # a face-down block standing up where it lay, or a block followed
        state["down"][b] = 0
    if loc[REBEL_BLOCK] not in (DEAD, OFF):
        loc[REBEL_BLOCK] = POOL
    state["campaign"] += 1
    state["turn"] = 1
    public(state, kind=POLITICAL, text=f"Campaign reset (8.5): campaign {state['campaign']} begins; cards are shuffled and dealt.")
    _deal(state)


def _home_options(state: State, side: int, b: int) -> list[int]:
    """Where block b goes home (8.3, 8.4, 9.1); [] means the pool."""
    occ = C.occupancy(state)
    theirs = occ[1 - side]
    t = B_TYPE[b]
    cur = state["loc"][b]
    if t == HEIR:
        if side != state["king"]:
            return list(EXILE_AREAS[side])
        out = [a for a in range(N_AREAS)
               if not theirs[a] and AREA_KIND[a] != EXILE and (a in CROWN_AREAS or C.heir_has_shield(state, b, a))]
        return out if out else [cur]  # ruling A8: no legal home, he stays
    if b == EXETER_Y:
        return [CORNWALL] if not theirs[CORNWALL] else []
    if b == CLARENCE_L:
        return [a for a in SHIELD_AREAS["York"] if not occ[0][a] and not occ[1][a]]
    if t == CHURCH:
        a = B_CATH_AREA[b]
        return [a] if not theirs[a] else []
    ent_s = ENTERABLE[side]
    out = sorted(a for a in B_SHIELD_AREAS[b] if not theirs[a] and ent_s[a])
    if b in NEVILLES:
        # 8.3 note: Nevilles may use the shields of dead Nevilles; Yorkist Kent/Salisbury may go
        # to Calais (exile limits permitting) if their own shields are enemy-occupied.
        for o in NEVILLES:
            if o != b and B_SIDE[o] == B_SIDE[b] and state["loc"][o] == DEAD:
                out.extend(a for a in B_SHIELD_AREAS[o] if not theirs[a] and ent_s[a] and a not in out)
        if not out and side == 0 and BLOCK_KEY[b] in ("Kent/Y", "Salisbury/Y") \
                and len(_exile_extras(state, 0, CALAIS)) < EXILE_LIMIT[CALAIS]:
            out.append(CALAIS)
        out.sort()
    return out


def _go_home(state: State, side: int, b: int, a: int) -> None:
    if a < 0:
        state["loc"][b] = POOL
        private(state, ROLES[side], kind=POLITICAL, text=f"{BLOCK_NAME[b]} goes to the pool.")
    else:
        state["loc"][b] = a
        if B_TYPE[b] == HEIR:
            C.learn(state, b)  # named in the log
            public(state, kind=POLITICAL, text=f"{BLOCK_NAME[b]} goes home to {AREA_NAMES[a]}.")
        else:
            private(state, ROLES[side], kind=POLITICAL, text=f"{BLOCK_NAME[b]} goes home to {AREA_NAMES[a]}.")


# ======================================================================= the steps
#: What each step is, and its rule, for refusals: "<role> cannot <verb> now: this is <what> (<rule>)".
_STEP_TEXT: dict[str, tuple[str, str]] = {
    "mulligan": ("the choice to keep a hand or ask for a redeal", "5.1"),
    "mulligan_reply": ("the answer to a redeal request", "5.1"),
    "card": ("the Card Phase, where both players lay a card", "1.1"),
    "main": ("the Action Phase, spending the card's action points", "1.2"),
    "group": ("a land move, picking the blocks of the group", "5.2"),
    "path": ("a land move, taking the block on area by area", "5.2"),
    "sea": ("a sea move, choosing where the block lands", "5.3"),
    "recruit": ("a recruit, choosing where the block deploys", "5.4"),
    "plague": ("the Plague event, choosing an enemy city", "5.1"),
    "muster_area": ("the Muster event, choosing the muster area", "5.1"),
    "muster": ("the Muster event, picking the blocks that go there", "5.1"),
    "declare": ("the Main Attack declaration of a battle entered across several borders", "6.3"),
    "battles": ("the choice of the next battle", "6.1"),
    "enter": ("the entry of a new heir", "6.82"),
    "execute": ("the fate of a defector", "9.1"),
    "reduce": ("the supply losses", "7.1"),
    "home": ("the blocks going home", "8.3"),
    "disband": ("the exile limit", "7.2"),
}
#: What a verb asks for, in the list of what may be done instead.
_VERB_TEXT: dict[str, str] = {
    "keep": "keep the hand", "redeal": "ask for a redeal", "play": "play a card",
    "move": "move a group by land", "sea": "make a sea move", "recruit": "recruit",
    "end": "end", "block": "pick a block", "end_group": "end the group", "to": "move on",
    "stop": "stop", "sea_to": "choose the landing area", "place": "choose where the recruit deploys",
    "plague": "choose a city", "muster": "choose the muster area", "main": "name the border",
    "battle": "choose a battle", "enter": "choose an area", "execute": "execute",
    "spare": "spare", "reduce": "choose a block", "home": "choose an area", "disband": "choose a block",
}

#: How a refused action is named: "York cannot <this> now".
_HEAD_TEXT: dict[str, str] = {"play": "play {arg}", "move": "move a group from {arg}",
                              "sea": "make a sea move with {arg}", "recruit": "recruit {arg}"}


def _main_reason(state: State, fr: Any, s: int, verb: str, arg: Any) -> str | None:
    """Why the main step of the Action Phase refuses ``(verb, arg)`` (1.2, 5.1-5.4)."""
    ev, ap = fr["event"], fr["ap"]
    occ = C.occupancy(state)
    if verb == "move" and isinstance(arg, str):
        a = AREA_ID.get(arg, -1)
        if a < 0:
            return f"{arg} is not an area of the map."
        if ev == "Piracy":
            return "the Piracy event gives sea moves only (its card text)."
        if ap <= 0:
            return "no action points are left on this turn's card (1.2)."
        if not _has_unmoved(state, s, a):
            return (f"you have no block in {arg} that may still move: a block moves once in an Action "
                    "Phase, and a block recruited this turn stays where it was placed (1.2, 5.2).")
        if not _may_leave(state, s, a, occ):
            return f"your blocks in {arg} are pinned: the attackers there hold them (5.22)."
        return f"no border out of {arg} can be crossed now (border limits, 5.21; pinning, 5.22)."
    if verb in ("sea", "recruit") and isinstance(arg, str):
        b = BLOCK_ID.get(arg, -1)
        if b < 0 or b not in C.owned_blocks(s, state["king"]):
            return f"{arg} is not one of your blocks."
        if verb == "sea":
            if ev not in ("", "Surprise", "Piracy"):
                return f"the {ev} event gives no sea moves (its card text)."
            if b in NO_SEA:
                return f"{arg} never moves by sea (5.3)."
            if b not in _movable(state, s):
                return f"{arg} has moved already or may not move this turn (1.2, 5.1)."
            return (f"{arg} has no sea move now: it must start in a port area and land in a friendly "
                    "or vacant port of the same sea, for one action point, two to go round (5.3, 5.31).")
        if ev:
            return f"the action points of the {ev} event cannot recruit (its card text)."
        if ap <= 0:
            return "no action points are left on this turn's card (1.2)."
        if state["loc"][b] != POOL:
            return f"{arg} is on the map already: only blocks in your pool are recruited (5.4)."
        if B_TYPE[b] == HEIR:
            return f"{arg} is an heir: heirs come into play by succession, never by recruiting (5.4)."
        if state["down"][b]:
            return f"{arg} was eliminated this campaign and waits face down in the pool (5.4, 6.8)."
        return f"{arg} has no friendly area it may deploy to (5.4)."
    return None


def _refusal(step: Step, state: State, frame: Any, role: str, verb: str, arg: Any) -> str:
    """A refused action: what it was, the rule that stops it and why, and what may be done now."""
    what, rule = _STEP_TEXT.get(step.name, ("this step", ""))
    named = CARD_NAME[arg] if verb == "play" and isinstance(arg, int) and 0 <= arg < len(CARD_NAME) else arg
    doing = _HEAD_TEXT.get(verb, "{verb} {arg}") if arg is not None else "{verb}"
    head = f"{role} cannot {doing.format(verb=verb, arg=named)} now"
    options = step.options(state, frame, role)
    verbs = list(dict.fromkeys(v for v, _ in options))
    instead = ", ".join(_VERB_TEXT.get(v, v) for v in verbs)
    instead = f" You may {instead}." if instead else ""
    if verb == "play" and step.name != "card":
        return (f"{head}: cards are played only in the Card Phase at the start of a game turn (1.1); "
                f"this is {what} ({rule}).{instead}")
    if verb == "play":
        return f"{head}: that card is not in your hand; play one of the cards you hold (1.1)."
    if verb == "redeal" and step.name == "mulligan":
        return (f"{head}: a redeal may be asked only for a hand of 13 action points or less, once "
                f"in a campaign (5.1).{instead}")
    main = step.name == "main" and verb in MainStep.moves
    if verb not in verbs and not main:
        return f"{head}: this is {what} ({rule}).{instead}"
    reason = _main_reason(state, frame, _side(role), verb, arg) if main else None
    if reason is None:
        reason = f"it is not one of the choices of {what} ({rule})"
        reason += "; the highlighted ones are." if step.name not in ("mulligan", "mulligan_reply") else "."
    return f"{head}: {reason}" if reason.endswith(".") else f"{head}: {reason}."


class _Explained(Step):
    """A step whose refusals say which rule stops the action and why (:func:`_refusal`)."""

    def refusal(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str:
        return _refusal(self, state, frame, role, verb, arg)


class Mulligan(_Explained):
    """Keep the hand or ask for a redeal, both players at once (5.1)."""

    name = "mulligan"
    phase = "mulligan"

    def actors(self, state: State, frame: Frame) -> list[str]:
        mull = frame["mull"]
        return [ROLES[s] for s in (0, 1) if mull[s] < 0]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("keep", None), ("redeal", None)] if _can_mulligan(state, _side(role)) else [("keep", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role in self.actors(state, frame):
            return "Keep your hand, or ask for a redeal (hands of 13 AP or less, once per campaign)."
        return "Waiting for the mulligan decisions."

    def on_keep(self, state: State, frame: Any, role: str, arg: Any) -> None:
        _mulligan_ask(state, frame, _side(role), "keep")

    def on_redeal(self, state: State, frame: Any, role: str, arg: Any) -> None:
        _mulligan_ask(state, frame, _side(role), "redeal")


class MulliganReply(_Explained):
    """The opponent of a redeal request keeps or takes a new hand too (5.1)."""

    name = "mulligan_reply"
    phase = "mulligan"

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [ROLES[1 - frame["req"]]]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("keep", None), ("redeal", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role in self.actors(state, frame):
            return "Your opponent asked for a redeal: keep your hand or take a new one too."
        return "Waiting for the opponent's answer to the redeal."

    def on_keep(self, state: State, frame: Any, role: str, arg: Any) -> None:
        _mulligan_reply(state, frame, _side(role), "keep")

    def on_redeal(self, state: State, frame: Any, role: str, arg: Any) -> None:
        _mulligan_reply(state, frame, _side(role), "redeal")


class CardPhase(_Explained):
    """Both players play a card at once, secret until both are in (1.1)."""

    name = "card"
    phase = "card"

    def actors(self, state: State, frame: Frame) -> list[str]:
        played = state["played"]
        return [ROLES[s] for s in (0, 1) if played[s] < 0]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("play", c) for c in state["hands"][_side(role)]]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Play a card." if role in self.actors(state, frame) else "Waiting for the other card."

    def on_play(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        s = _side(role)
        state["played"][s] = arg
        private(state, ROLES[s], kind=CARD, text=f"You play {CARD_NAME[arg]}.")
        public(state, kind=CARD, text=f"{ROLES[s]} has played a card.")
        if state["played"][1 - s] >= 0:
            _reveal_cards(state)


#: What the side not moving in an Action Phase is told, by the moving side.
_MOVING = tuple(f"{r} is moving." for r in ROLES)
#: The prompts of the Action Phase steps made so far, by step, AP, event, group and muster area.
_PROMPTS: dict[tuple[str, int, str, int, int], str] = {}


class _ActionStep(_Explained):
    """A step of a side's Action Phase; the frame is an :class:`ActionFrame`."""

    phase = "action"
    always_decides = True
    #: The verbs of this step and what the acting player is asked.
    moves: tuple[str, ...] = ()
    ask = ""

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [ROLES[frame["side"]]]

    def options(self, state: State, frame: Any, role: str) -> list[Action]:
        return _legal_action_phase(state, frame, frame["side"])

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        side = frame["side"]
        if role != ROLES[side]:
            return _MOVING[side]
        key = (self.name, frame["ap"], frame["event"], frame["grp"], frame["target"])
        text = _PROMPTS.get(key)
        if text is None:  # a few hundred texts in all: kept once made
            text = _PROMPTS[key] = self.ask.format(
                ap=frame["ap"], event=f" ({frame['event']})" if frame["event"] else "",
                grp=AREA_NAMES[frame["grp"]] if frame["grp"] >= 0 else "",
                target=AREA_NAMES[frame["target"]] if frame["target"] >= 0 else "")
        return text

    def handle(self, state: State, frame: Any, role: str, verb: str, arg: Any) -> None:
        if verb not in self.moves:
            raise IllegalAction(steps.refusal(role, verb, arg))
        _apply_action_phase(state, frame, frame["side"], verb, _decode(verb, arg))


class MainStep(_ActionStep):
    """Spend the card's AP (5.2-5.4) or end the Action Phase."""

    name = "main"
    moves = ("move", "sea", "recruit", "end")
    ask = "Action Phase: {ap} AP left{event}: move a group, sea move, recruit, or end."

    def is_legal(self, state: State, frame: Any, role: str, verb: str, arg: Any) -> bool:
        return _is_legal_main(state, frame, frame["side"], verb, arg)


class GroupStep(_ActionStep):
    """Pick the next block of the activated group (5.2)."""

    name = "group"
    moves = ("block", "end_group")
    ask = "Moving the group in {grp}: pick a block, or end the group."

    def is_legal(self, state: State, frame: Any, role: str, verb: str, arg: Any) -> bool:
        # membership in the options, without making them (tests/richard3/test_fuzz.py)
        if verb == "end_group":
            return arg is None
        if verb != "block" or not isinstance(arg, str):
            return False
        b = BLOCK_ID.get(arg, -1)
        if b < 0:
            return False
        s, a = frame["side"], frame["grp"]
        occ = C.occupancy(state)
        # b is one of _group_blocks(state, s, a, occ)
        return (state["loc"][b] == a and _free_to_move(state, s, b) and _may_leave(state, s, a, occ)
                and _can_start(state, s, a, occ))


class PathStep(_ActionStep):
    """Move the picked block one area on, or stop (5.2, 5.21, 5.22)."""

    name = "path"
    moves = ("to", "stop")
    ask = "Move the block on, or stop."

    def is_legal(self, state: State, frame: Any, role: str, verb: str, arg: Any) -> bool:
        # membership in the options, without making them (tests/richard3/test_fuzz.py)
        if verb == "stop":
            return arg is None and len(frame["path"]) > 1 and (
                frame["target"] < 0 or frame["path"][-1] == frame["target"])
        if verb != "to" or not isinstance(arg, str):
            return False
        q = AREA_ID.get(arg, -1)
        return q >= 0 and q in _next_steps(state, frame["side"], C.occupancy(state))


class SeaStep(_ActionStep):
    """The destination of a sea move (5.3, 5.31, Piracy)."""

    name = "sea"
    moves = ("sea_to",)
    ask = "Choose the sea move's destination."

    def is_legal(self, state: State, frame: Any, role: str, verb: str, arg: Any) -> bool:
        # membership in the options, without making them (tests/richard3/test_fuzz.py)
        if verb != "sea_to" or not isinstance(arg, str):
            return False
        d = AREA_ID.get(arg, -1)
        return d >= 0 and bool(_sea_dests(state, frame["side"], frame["sel"], C.occupancy(state), only=d))


class RecruitStep(_ActionStep):
    """Where the recruit deploys (5.4)."""

    name = "recruit"
    moves = ("place",)
    ask = "Choose where to deploy the recruit."

    def is_legal(self, state: State, frame: Any, role: str, verb: str, arg: Any) -> bool:
        # membership in the options, without making them (tests/richard3/test_fuzz.py)
        if verb != "place" or not isinstance(arg, str):
            return False
        a = AREA_ID.get(arg, -1)
        return a >= 0 and a in _recruit_areas(state, frame["side"], frame["sel"], C.occupancy(state))


class PlagueStep(_ActionStep):
    """Plague: the enemy city area struck (C133)."""

    name = "plague"
    moves = ("plague", "end")
    ask = "Plague: choose an enemy city area, or end."


class MusterAreaStep(_ActionStep):
    """Muster: the area the blocks move to (C131)."""

    name = "muster_area"
    moves = ("muster", "end")
    ask = "Muster: choose a friendly or vacant area, or end."


class MusterStep(_ActionStep):
    """Muster: pick a block to move to the muster area (C131)."""

    name = "muster"
    moves = ("block", "end")
    ask = "Muster at {target}: pick a block to move there, or end."


class Declared(_ActionStep):
    """The Main Attack declarations pushed on top are made: the Action Phase ends."""

    name = "declared"
    always_decides = False

    def actors(self, state: State, frame: Frame) -> list[str]:
        return []

    def run(self, state: State, frame: Frame) -> None:
        _next_player(state)


class Declare(_Explained):
    """Declare the Main Attack border of a battle entered through two or more (6.3, ruling A1)."""

    name = "declare"
    phase = "action"
    always_decides = True

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [ROLES[frame["side"]]]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        a = frame["area"]
        return [("main", _border_arg(bid, a)) for bid in state["ent"][frame["side"]][a]]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role not in self.actors(state, frame):
            return f"{ROLES[frame['side']]} is moving."
        return f"Declare the Main Attack border into {AREA_NAMES[frame['area']]}."

    def on_main(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        s, a = frame["side"], frame["area"]
        bid = _decode_main(state, s, a, arg)
        _set_main(state, a, bid)
        public(state, kind=BATTLE, text=f"{role} declares the Main Attack on {AREA_NAMES[a]} across {_border_label(bid, a)}.")
        steps.pop(state)


class Battles(_Explained):
    """The Battle Phase (6.x): Player 1 picks the next battle (C13); a single one is fought at
    once; after a battle pushed on top ends, the phase goes on (:func:`_after_battle`)."""

    name = "battles"
    phase = "battle"

    def actors(self, state: State, frame: Frame) -> list[str]:
        if frame["fighting"] or len(state["battles"]) < 2:
            return []
        return [ROLES[state["p1"]]]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("battle", AREA_NAMES[a]) for a in state["battles"]]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Choose the next battle." if role in self.actors(state, frame) else "Player 1 chooses the next battle."

    def run(self, state: State, frame: Any) -> None:
        if frame["fighting"]:
            _after_battle(state, frame)
        elif not state["battles"]:
            _start_supply(state)
        else:
            _choose_battle(state, frame, state["battles"][0])

    def on_battle(self, state: State, frame: Any, role: str, arg: Any) -> None:
        _choose_battle(state, frame, AREAS.id(arg))


class Supply(_Explained):
    """The Supply Phase, stage by stage (6.81, 6.82, 9.1, 7.1, 7.2)."""

    name = "supply"
    phase = "supply"

    def run(self, state: State, frame: Any) -> None:
        _supply_stage(state, frame)


class Political(_Explained):
    """The Political Turn, stage by stage (8.1-8.5)."""

    name = "political"
    phase = "political"

    def run(self, state: State, frame: Any) -> None:
        _political_stage(state, frame)


class _DecisionStep(_Explained):
    """A Supply or Political decision (a :class:`Decision` frame). It makes itself when there
    is no real choice."""

    ask = ""

    def actors(self, state: State, frame: Any) -> list[str]:
        return [ROLES[frame["side"]]] if frame["ask"] else []

    def options(self, state: State, frame: Any, role: str) -> list[Action]:
        return _decision_options(state, frame)

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role in self.actors(state, frame):
            return self.ask
        return f"Waiting for {ROLES[frame['side']]}."

    def run(self, state: State, frame: Any) -> None:
        opts = _decision_options(state, frame)
        if _decision_is_automatic(state, frame, opts):
            _decision_run(state, frame, opts)
        else:
            frame["ask"] = True  # a real choice: the side is asked (until it answers)

    def handle(self, state: State, frame: Any, role: str, verb: str, arg: Any) -> None:
        _apply_decision(state, frame, _side(role), verb, _decode(verb, arg))


class Enter(_DecisionStep):
    """Where a minor heir (or the new King) enters play (6.81, 6.82)."""

    name = "enter"
    phase = "supply"
    ask = "Choose where the heir enters."


class Execute(_DecisionStep):
    """Execute a defected Clarence or Exeter, or spare him (9.1)."""

    name = "execute"
    phase = "supply"
    ask = "Execute the defector, or spare him?"


class Reduce(_DecisionStep):
    """A block that takes a supply loss (7.1, 7.2)."""

    name = "reduce"
    phase = "supply"
    ask = "Choose a block to lose a step (supply)."


class Home(_DecisionStep):
    """Where a block goes home (8.3, 8.4)."""

    name = "home"
    phase = "political"
    ask = "Choose where the block goes home."


class Disband(_DecisionStep):
    """An exile sent to the pool to meet the exile limit (7.2, 8.5)."""

    name = "disband"
    phase = "political"
    ask = "Choose an exile to send to the pool."


STEPS = Steps(
    Mulligan(), MulliganReply(), CardPhase(),
    MainStep(), GroupStep(), PathStep(), SeaStep(), RecruitStep(), PlagueStep(), MusterAreaStep(),
    MusterStep(), Declared(), Declare(),
    Battles(), *battle.STEPS,
    Supply(), Political(), Enter(), Execute(), Reduce(), Home(), Disband(),
)
Richard3Rules.steps = STEPS

RULES = Richard3Rules()

__all__ = ["RULES", "Richard3Rules", "B_FIRE", "B_INIT", "B_LOYALTY"]
