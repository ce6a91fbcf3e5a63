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

import importlib
from types import ModuleType
from typing import Any

from roses.engine import rng
from roses.engine.contract import Action, Rules, State, View, mark_reveal
from roses.engine.errors import IllegalAction, NotYourTurn
from roses.engine.log import private, public
from roses.games.richard3 import common as C
from roses.games.richard3.data import (
    ADJ,
    AREA_ID,
    AREA_KIND,
    AREA_NAMES,
    AREA_SEAS,
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


def _load_battle() -> ModuleType | None:
    """The battle module, if it exists and has the agreed interface (see STATE.md)."""
    try:
        mod = importlib.import_module("roses.games.richard3.battle")
    except ImportError:
        return None
    for name in ("start_battle", "active", "legal_actions", "apply", "view_part"):
        if not hasattr(mod, name):
            return None
    return mod


BATTLE = _load_battle()

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
class Richard3Rules(Rules):
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
            "turn": 1, "phase": "mulligan", "step": "ask",
            "king": king, "king_block": -1, "prisoner": HENRY_VI if loc[HENRY_VI] == PRISON else -1,
            "minors_owed": [0, 0],
            "loc": loc, "steps": steps, "down": [0] * N_BLOCKS, "moved": [0] * N_BLOCKS,
            "via": [-1] * N_BLOCKS, "reserve": [0] * N_BLOCKS, "pirate": [0] * N_BLOCKS,
            "p1": 1 - king, "hands": [[], []], "deck": [], "discard": [], "played": [-1, -1],
            "mulligan_used": [0, 0], "mull": [-1, -1], "mull_req": -1,
            "piracy": -1, "treason": -1, "surprise": -1, "force_march": -1,
            "bc": [[0] * N_BORDERS, [0] * N_BORDERS], "atk": [-1] * N_AREAS, "main": [-1] * N_AREAS,
            "ent": [[[] for _ in range(N_AREAS)], [[] for _ in range(N_AREAS)]],
            "side": -1, "ap": 0, "event": "", "grp": -1, "sel": -1, "path": [], "target": -1,
            "pairs": [], "moves": [], "todo": [], "stage": 0, "marked": [],
            "battle": None, "battles": [],
        }
        rng.seed_state(state, seed)
        state["king_block"] = C.senior_heir(state, king)
        state["known"] = C.new_knowledge(state)
        public(state, f"{sc['name']}: campaign {state['campaign']}. King: {BLOCK_NAME[state['king_block']]} "
                      f"({ROLES[king]}); Pretender: {ROLES[1 - king]}.")
        _deal(state)
        return state

    # ------------------------------------------------------------------ play
    def active(self, state: State) -> list[str]:
        if state["result"] is not None:
            return []
        if state["battle"] is not None and BATTLE is not None:
            return list(BATTLE.active(state))
        ph = state["phase"]
        if ph == "card":
            return [ROLES[s] for s in (0, 1) if state["played"][s] < 0]
        if ph == "action":
            return [ROLES[state["side"]]]
        if ph == "mulligan":
            if state["step"] == "ask":
                return [ROLES[s] for s in (0, 1) if state["mull"][s] < 0]
            return [ROLES[1 - state["mull_req"]]]
        if ph == "battle":
            return [ROLES[state["p1"]]]
        if ph in ("supply", "political") and state["todo"]:
            return [ROLES[state["todo"][0][1]]]
        return []

    def legal_actions(self, state: State, role: str) -> list[Action]:
        if state["result"] is not None:
            return []
        if state["battle"] is not None and BATTLE is not None:
            if role not in BATTLE.active(state):
                return []
            return list(BATTLE.legal_actions(state, role))
        side = _side(role)
        if side < 0 or role not in self.active(state):
            return []
        return _legal(state, side)

    def action(self, state: State, role: str, verb: str, arg: Any = None) -> State:
        if state["result"] is not None:
            raise IllegalAction("The game is over.")
        if state["battle"] is not None and BATTLE is not None:
            if role not in BATTLE.active(state):
                raise NotYourTurn(f"It is not {role}'s turn.")
            BATTLE.apply(state, role, verb, arg)
            if state["battle"] is None and state["result"] is None:
                _after_battle(state)
            _finish_check(state)
            return state
        side = _side(role)
        if side < 0 or role not in self.active(state):
            raise NotYourTurn(f"It is not {role}'s turn.")
        try:
            ok = _is_legal(state, side, verb, arg)
        except (TypeError, KeyError):  # unhashable or odd argument types
            ok = False
        if not ok:
            raise IllegalAction(f"{role} cannot {verb} {'' if arg is None else arg} now.".replace("  ", " "))
        _apply(state, side, verb, _decode(state, side, verb, arg))
        _finish_check(state)
        return state

    def apply_legal(self, state: State, role: str, verb: str, arg: Any = None) -> State:
        """``action`` without the legality check, for simulations that take ``(verb, arg)``
        from ``legal_actions`` of this very state (see the contract)."""
        if state["battle"] is not None and BATTLE is not None:
            return self.action(state, role, verb, arg)
        _apply(state, _side(role), verb, _decode(state, _side(role), verb, arg))
        _finish_check(state)
        return state

    # ------------------------------------------------------------------ tools
    def copy_state(self, state: State) -> State:
        return _copy(state)

    def view(self, state: State, role: str) -> View:
        from roses.games.richard3.views import build_view
        return build_view(self, state, role)

    def secrets(self, state: State, role: str) -> set[str]:
        from roses.games.richard3.views import secrets
        return secrets(self, state, role)

    def check_invariants(self, state: State) -> list[str]:
        from roses.games.richard3.views import check_invariants
        return check_invariants(state)

    def describe(self, view: View) -> str:
        from roses.games.richard3.views import describe
        return describe(view)

    def label(self, state: State, role: str, verb: str, arg: Any) -> str:
        from roses.games.richard3.views import label
        return label(state, role, verb, arg)

    # ----- AI (roses/games/richard3/ai.py, the AI engineer's module; REQUESTS.md R-ai1)
    def determinize(self, state: State, role: str, seed: int) -> State:
        from roses.games.richard3 import ai
        return ai.determinize(state, role, seed)

    def evaluate(self, state: State, role: str) -> float:
        from roses.games.richard3 import ai
        return ai.evaluate(state, role)

    def evaluate_all(self, state: State, roles: list[str], horizon: int = 1) -> dict[str, float]:
        from roses.games.richard3 import ai
        return ai.evaluate_all(state, roles, horizon)

    def evaluation_terms(self, state: State, role: str) -> dict[str, float]:
        from roses.games.richard3 import ai
        return ai.evaluation_terms(state, role)

    def action_space(self, scenario: str, options: dict[str, Any] | None = None) -> list[Action]:
        from roses.games.richard3 import ai
        return ai.action_space(scenario, options)


def _copy(x: Any) -> Any:
    """Fast deep copy of the JSON-like state; log entries are never mutated, so the log list is
    copied shallowly."""
    if type(x) is dict:
        out = {}
        for k, v in x.items():
            t = type(v)
            if t is list:
                out[k] = v[:] if k == "log" else _copy_list(v)
            elif t is dict:
                out[k] = _copy(v)
            else:
                out[k] = v
        return out
    if type(x) is list:
        return _copy_list(x)
    return x


def _copy_list(v: list[Any]) -> list[Any]:
    for e in v:
        t = type(e)
        if t is list or t is dict:
            return [_copy(e) if type(e) is dict else _copy_list(e) if type(e) is list else e for e in v]
    return v[:]


def _finish_check(state: State) -> None:
    if state["result"] is not None:
        state["phase"] = "over"


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
    state["phase"] = "mulligan"
    state["step"] = "ask"
    state["mull"] = [-1, -1]
    state["mull_req"] = -1
    for s in (0, 1):
        private(state, ROLES[s], "Your hand: " + ", ".join(CARD_NAME[c] for c in state["hands"][s])
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
    state["phase"] = "card"
    state["step"] = ""
    state["played"] = [-1, -1]
    n = N_BORDERS
    state["bc"] = [[0] * n, [0] * n]
    state["atk"] = [-1] * N_AREAS
    state["main"] = [-1] * N_AREAS
    state["ent"] = [[[] for _ in range(N_AREAS)], [[] for _ in range(N_AREAS)]]
    state["moved"] = [0] * N_BLOCKS
    state["via"] = [-1] * N_BLOCKS
    state["reserve"] = [0] * N_BLOCKS
    state["pirate"] = [0] * N_BLOCKS
    state["piracy"] = state["treason"] = state["surprise"] = state["force_march"] = -1
    state["pairs"] = []
    public(state, f"Campaign {state['campaign']}, Game Turn {state['turn']}: Card Phase.")


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
    public(state, f"Cards: York {CARD_NAME[played[0]]}, Lancaster {CARD_NAME[played[1]]}. "
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
    card = state["played"][s]
    state["phase"] = "action"
    state["side"] = s
    state["ap"] = CARD_AP[card]
    ev = CARD_EVENT[card] or ""
    state["event"] = ev
    state["grp"] = -1
    state["sel"] = -1
    state["path"] = []
    state["target"] = -1
    state["pairs"] = []
    state["moves"] = []
    state["step"] = "muster_area" if ev == "Muster" else "plague" if ev == "Plague" else "main"
    _auto_end(state)


def _auto_end(state: State) -> None:
    """End the Action Phase at once when nothing but ``end`` is left (fewer empty clicks)."""
    step = state["step"]
    if step == "main" and state["ap"] > 0:
        return
    if step in ("main", "muster_area", "plague") and _legal(state, state["side"]) == [("end", None)]:
        _end_action(state)


def _end_action(state: State) -> None:
    s = state["side"]
    state["grp"] = -1
    state["sel"] = -1
    state["path"] = []
    # Main Attack declarations (6.3, ruling A1): areas attacked through 2+ borders.
    todo = []
    occ = C.occupancy(state)
    for a in range(N_AREAS):
        if state["atk"][a] == s and occ[0][a] and occ[1][a]:
            borders = state["ent"][s][a]
            if len(borders) == 1:
                _set_main(state, a, borders[0])
            elif borders:
                todo.append(a)
    if todo:
        state["step"] = "declare"
        state["todo"] = [["main", s, a, 0] for a in todo]
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
    s = state["side"]
    state["todo"] = []
    public(state, f"{ROLES[s]} ends the Action Phase.")
    if s == state["p1"]:
        _start_action(state, 1 - s)
    else:
        _start_battle_phase(state)


def _max_dist(state: State) -> int:
    return 3 if state["event"] == "Force March" else 2


def _bonus(state: State) -> int:
    return 1 if state["event"] == "Surprise" else 0


def _may_leave(state: State, s: int, a: int, occ: tuple[list[int], list[int]]) -> bool:
    """Pinning (5.22): a defender may leave a battle area only while the unmoved defenders
    outnumber the non-reserve attackers."""
    if state["atk"][a] != 1 - s or not occ[1 - s][a]:
        return True
    loc, moved, res = state["loc"], state["moved"], state["reserve"]
    mine = pins = 0
    king = state["king"]
    for b in range(N_BLOCKS):
        if loc[b] == a:
            o = B_SIDE[b]
            if o == REBEL:
                o = 1 - king
            if o == s:
                if not moved[b]:
                    mine += 1
            elif not res[b]:
                pins += 1
    return mine > pins


def _attack_ok(state: State, s: int, q: int, bid: int, occ: tuple[list[int], list[int]]) -> bool:
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


def _next_steps(state: State, s: int, occ: tuple[list[int], list[int]]) -> list[int]:
    """Areas the selected block may move to next (5.2, 5.21, 5.22, events)."""
    path = state["path"]
    p = path[-1]
    d = len(path) - 1
    maxd = _max_dist(state)
    if d >= maxd:
        return []
    bonus = _bonus(state)
    bc = state["bc"][s]
    origin = path[0]
    banned: list[int] = []
    if d == 0 and state["atk"][origin] == 1 - s and occ[1 - s][origin]:
        banned = state["ent"][1 - s][origin]
    target = state["target"]
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
    return out


def _movable(state: State, s: int) -> list[int]:
    """Blocks of s that may still move this turn (not moved, not recruited, not face-down)."""
    loc, moved, down = state["loc"], state["moved"], state["down"]
    king = state["king"]
    out = []
    for b in range(N_BLOCKS):
        if loc[b] < N_AREAS and not moved[b] and not down[b]:
            o = B_SIDE[b]
            if o == REBEL:
                o = 1 - king
            if o == s:
                out.append(b)
    return out


def _first_steps(state: State, s: int, b: int, occ: tuple[list[int], list[int]]) -> bool:
    saved = state["path"]
    state["path"] = [state["loc"][b]]
    try:
        return bool(_next_steps(state, s, occ))
    finally:
        state["path"] = saved


def _group_blocks(state: State, s: int, a: int, occ: tuple[list[int], list[int]]) -> list[int]:
    if not _may_leave(state, s, a, occ):
        return []
    loc, moved, down = state["loc"], state["moved"], state["down"]
    out = []
    for b in range(N_BLOCKS):
        if loc[b] == a and not moved[b] and not down[b] and _owner(state, b) == s and _first_steps(state, s, b, occ):
            out.append(b)
    return out


def _move_areas(state: State, s: int, occ: tuple[list[int], list[int]]) -> list[int]:
    """Areas whose group has at least one block able to move (5.2)."""
    done: set[int] = set()
    out = []
    loc = state["loc"]
    for b in _movable(state, s):
        a = loc[b]
        if a in done:
            continue
        if not _may_leave(state, s, a, occ):
            done.add(a)
            continue
        if _first_steps(state, s, b, occ):
            done.add(a)
            out.append(a)
    out.sort()
    return out


def _sea_dests(state: State, s: int, b: int, occ: tuple[list[int], list[int]]) -> list[int]:
    """Where b may sea move now (5.3, 5.31, Piracy), considering AP and port pairs."""
    a = state["loc"][b]
    if b in NO_SEA or not AREA_SEAS[a]:
        return []
    if not _may_leave(state, s, a, occ):
        return []
    banned: list[int] = []
    if state["atk"][a] == 1 - s and occ[1 - s][a]:
        banned = state["ent"][1 - s][a]
    ap = state["ap"]
    pirate = state["event"] == "Piracy"
    pairs = state["pairs"]
    ent_s = ENTERABLE[s]
    out = []
    for d in SEA_DEST[a]:
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
    return out


def _first_zone(a: int, d: int) -> int:
    m = shared_zones(a, d)
    for z in range(len(SEA_ZONES)):
        if m >> z & 1:
            return z
    return 0


def _recruit_areas(state: State, s: int, b: int, occ: tuple[list[int], list[int]]) -> list[int]:
    """Deployment areas for a pool block (5.4)."""
    t = B_TYPE[b]
    mine, theirs = occ[s], occ[1 - s]
    ent_s = ENTERABLE[s]
    out = []
    for a in _RECRUIT_AREAS[b]:
        if not ent_s[a] or theirs[a]:
            continue
        if t == BOMBARD:
            if mine[a]:
                out.append(a)
        elif t == REBEL_T:
            if not mine[a]:
                out.append(a)
        else:
            out.append(a)
    return out


def _recruitable(state: State, s: int, occ: tuple[list[int], list[int]]) -> list[int]:
    loc, down = state["loc"], state["down"]
    out = []
    for b in range(N_BLOCKS):
        if loc[b] == POOL and not down[b] and _owner(state, b) == s and B_TYPE[b] != HEIR \
                and _recruit_areas(state, s, b, occ):
            out.append(b)
    return out


def _plague_areas(state: State, s: int, occ: tuple[list[int], list[int]]) -> list[int]:
    return [a for a in CITY_AREAS if occ[1 - s][a] and not occ[s][a]]


def _muster_areas(state: State, s: int, occ: tuple[list[int], list[int]]) -> list[int]:
    ent_s = ENTERABLE[s]
    return [a for a in range(N_AREAS) if ent_s[a] and not occ[1 - s][a]]


def _muster_blocks(state: State, s: int, occ: tuple[list[int], list[int]]) -> list[int]:
    out = []
    for b in _movable(state, s):
        a = state["loc"][b]
        if a != state["target"] and _may_leave(state, s, a, occ) and _first_steps(state, s, b, occ):
            out.append(b)
    return out


# ======================================================================= legal actions
def _legal(state: State, s: int) -> list[Action]:
    ph = state["phase"]
    if ph == "action":
        return _legal_action_phase(state, s)
    if ph == "card":
        if state["played"][s] >= 0:
            return []
        return [("play", c) for c in state["hands"][s]]
    if ph == "mulligan":
        if state["step"] == "ask":
            if state["mull"][s] >= 0:
                return []
            return [("keep", None), ("redeal", None)] if _can_mulligan(state, s) else [("keep", None)]
        return [("keep", None), ("redeal", None)]
    if ph == "battle":
        if state["battle"] is None:
            return [("battle", AREA_NAMES[a]) for a in state["battles"]]
        return []
    if ph in ("supply", "political"):
        return _legal_decision(state)
    return []


def _legal_action_phase(state: State, s: int) -> list[Action]:
    step = state["step"]
    occ = C.occupancy(state)
    if step == "path":
        acts: list[Action] = [("to", AREA_NAMES[q]) for q in _next_steps(state, s, occ)]
        if len(state["path"]) > 1 and (state["target"] < 0 or state["path"][-1] == state["target"]):
            acts.append(("stop", None))
        return acts
    if step == "group":
        acts = [("block", BLOCK_KEY[b]) for b in _group_blocks(state, s, state["grp"], occ)]
        acts.append(("end_group", None))
        return acts
    if step == "sea":
        return [("sea_to", AREA_NAMES[d]) for d in _sea_dests(state, s, state["sel"], occ)]
    if step == "recruit":
        return [("place", AREA_NAMES[a]) for a in _recruit_areas(state, s, state["sel"], occ)]
    if step == "declare":
        a = state["todo"][0][2]
        return [("main", _border_arg(bid, a)) for bid in state["ent"][s][a]]
    if step == "plague":
        return [("plague", AREA_NAMES[a]) for a in _plague_areas(state, s, occ)] + [("end", None)]
    if step == "muster_area":
        return [("muster", AREA_NAMES[a]) for a in _muster_areas(state, s, occ)] + [("end", None)]
    if step == "muster":
        return [("block", BLOCK_KEY[b]) for b in _muster_blocks(state, s, occ)] + [("end", None)]
    # step "main"
    ev = state["event"]
    ap = state["ap"]
    acts = []
    if ev != "Piracy" and ap > 0:
        acts.extend(("move", AREA_NAMES[a]) for a in _move_areas(state, s, occ))
    if ev in ("", "Surprise", "Piracy"):
        by_area: dict[int, bool] = {}
        loc = state["loc"]
        for b in _movable(state, s):
            if b in NO_SEA:
                continue
            a = loc[b]
            ok = by_area.get(a)
            if ok is None:
                ok = by_area[a] = bool(_sea_dests(state, s, b, occ))
            if ok:
                acts.append(("sea", BLOCK_KEY[b]))
    if ev == "" and ap > 0:
        acts.extend(("recruit", BLOCK_KEY[b]) for b in _recruitable(state, s, occ))
    acts.append(("end", None))
    return acts


def _is_legal(state: State, s: int, verb: str, arg: Any) -> bool:
    """Same answer as ``(verb, arg) in _legal(state, s)``, cheaper in the Action Phase's main step."""
    if state["phase"] != "action" or state["step"] != "main":
        return (verb, arg) in _legal(state, s)
    ev = state["event"]
    if verb == "end":
        return arg is None
    if not isinstance(arg, str):
        return False
    occ = C.occupancy(state)
    if verb == "move":
        a = AREA_ID.get(arg, -1)
        if a < 0 or ev == "Piracy" or state["ap"] <= 0 or not _may_leave(state, s, a, occ):
            return False
        loc, moved, down = state["loc"], state["moved"], state["down"]
        return any(loc[b] == a and not moved[b] and not down[b] and _owner(state, b) == s
                   and _first_steps(state, s, b, occ) for b in range(N_BLOCKS))
    b = BLOCK_ID.get(arg, -1)
    if b < 0:
        return False
    if verb == "sea":
        return ev in ("", "Surprise", "Piracy") and b in _movable(state, s) and bool(_sea_dests(state, s, b, occ))
    if verb == "recruit":
        return ev == "" and state["ap"] > 0 and b in _recruitable(state, s, occ)
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


def _decode(state: State, s: int, verb: str, arg: Any) -> Any:
    """Action arguments are names (areas, sea zones) and block keys; the state uses ids."""
    if verb in _AREA_VERBS:
        return AREA_ID[arg]
    if verb in _BLOCK_VERBS:
        return BLOCK_ID[arg]
    if verb == "main":
        a = state["todo"][0][2]
        for bid in state["ent"][s][a]:
            if _border_arg(bid, a) == arg:
                return bid
    return arg


def _apply(state: State, s: int, verb: str, arg: Any) -> None:
    ph = state["phase"]
    if ph == "action":
        _apply_action_phase(state, s, verb, arg)
    elif ph == "card":
        state["played"][s] = arg
        private(state, ROLES[s], f"You play {CARD_NAME[arg]}.")
        public(state, f"{ROLES[s]} has played a card.")
        if state["played"][1 - s] >= 0:
            _reveal_cards(state)
    elif ph == "mulligan":
        _apply_mulligan(state, s, verb)
    elif ph == "battle":
        _choose_battle(state, arg)
    else:
        _apply_decision(state, s, verb, arg)


def _apply_mulligan(state: State, s: int, verb: str) -> None:
    if state["step"] == "ask":
        state["mull"][s] = 1 if verb == "redeal" else 0
        if state["mull"][1 - s] < 0:
            return
        req = [x for x in (0, 1) if state["mull"][x] == 1]
        if not req:
            _start_turn(state)
            return
        mark_reveal(state)
        for r in req:
            state["mulligan_used"][r] = 1
            public(state, f"{ROLES[r]} shows a mulligan hand ({', '.join(CARD_NAME[c] for c in state['hands'][r])}, "
                          f"{_hand_ap(state, r)} AP) and asks for a redeal (5.1).")
        if len(req) == 2:
            _redeal(state, [0, 1])
            public(state, "Both hands are redealt.")
            _after_redeal(state)
            return
        state["step"] = "reply"
        state["mull_req"] = req[0]
        return
    # reply by the opponent of the requester
    r = state["mull_req"]
    if verb == "redeal":
        _redeal(state, [0, 1])
        public(state, f"{ROLES[s]} also takes a new hand; both hands are redealt.")
    else:
        _redeal(state, [r])
        public(state, f"{ROLES[s]} keeps their hand; {ROLES[r]} gets a new hand.")
    _after_redeal(state)


def _after_redeal(state: State) -> None:
    if all(state["mulligan_used"]):
        for s in (0, 1):
            private(state, ROLES[s], "Your hand: " + ", ".join(CARD_NAME[c] for c in state["hands"][s]) + ".")
        _start_turn(state)
    else:
        _ask_mulligan(state)


def _apply_action_phase(state: State, s: int, verb: str, arg: Any) -> None:
    step = state["step"]
    role = ROLES[s]
    if verb == "end":
        if step == "muster":
            _flush_moves(state, s)
        _end_action(state)
        return
    if verb == "move":
        state["ap"] -= 1
        state["grp"] = arg
        state["step"] = "group"
        state["moves"] = []
        _auto_group(state, s)
        return
    if verb == "block":
        state["sel"] = arg
        state["path"] = [state["loc"][arg]]
        state["step"] = "path"
        return
    if verb == "to":
        _step_block(state, s, arg)
        return
    if verb == "stop":
        _stop_block(state, s)
        return
    if verb == "end_group":
        _flush_moves(state, s)
        state["grp"] = -1
        state["step"] = "main"
        _auto_end(state)
        return
    if verb == "sea":
        state["sel"] = arg
        state["step"] = "sea"
        return
    if verb == "sea_to":
        _sea_move(state, s, arg)
        return
    if verb == "recruit":
        state["sel"] = arg
        state["step"] = "recruit"
        return
    if verb == "place":
        b = state["sel"]
        state["loc"][b] = arg
        state["steps"][b] = B_STEPS[b]
        state["moved"][b] = 3
        C.forget(state, b)  # a recruit could be any block of the pool (5.4)
        state["ap"] -= 1
        state["sel"] = -1
        state["step"] = "main"
        public(state, f"{role} recruits a block in {AREA_NAMES[arg]}.")
        private(state, role, f"You recruit {BLOCK_NAME[b]} in {AREA_NAMES[arg]}.")
        _check_rescue(state)
        _auto_end(state)
        return
    if verb == "main":
        a = state["todo"][0][2]
        _set_main(state, a, arg)
        public(state, f"{role} declares the Main Attack on {AREA_NAMES[a]} across "
                      f"{_border_label(arg, a)}.")
        state["todo"].pop(0)
        if not state["todo"]:
            _next_player(state)
        return
    if verb == "plague":
        _plague(state, s, arg)
        if state["result"] is None:
            _end_action(state)
        return
    if verb == "muster":
        state["target"] = arg
        state["step"] = "muster"
        state["moves"] = []
        public(state, f"{role} musters at {AREA_NAMES[arg]}.")
        return
    raise IllegalAction(f"Unknown action {verb}.")


def _border_label(bid: int, a: int) -> str:
    if bid >= SEA_BORDER:
        return f"the {SEA_ZONES[bid - SEA_BORDER]}"
    x, y, _ = BORDERS[bid]
    return f"the {AREA_NAMES[x if y == a else y]} border"


def _step_block(state: State, s: int, q: int) -> None:
    b = state["sel"]
    path = state["path"]
    p = path[-1]
    bid = _bid(p, q)
    occ = C.occupancy(state)
    enemy_there = occ[1 - s][q] > 0
    loc = state["loc"]
    loc[b] = q
    state["moved"][b] = 1
    state["bc"][s][bid] += 1
    ent = state["ent"][s][q]
    if bid not in ent:
        ent.append(bid)
    state["via"][b] = bid
    path.append(q)
    if enemy_there:
        if occ[s][q] == 0 and state["atk"][q] < 0:
            state["atk"][q] = s
            state["main"][q] = -1
        elif state["atk"][q] == 1 - s:
            state["reserve"][b] = 2
    stop = enemy_there or BORDER_RED[bid] or len(path) - 1 >= _max_dist(state) or q == state["target"]
    if not stop:
        occ[s][q] += 1
        occ[s][p] -= 1
        if not _next_steps(state, s, occ):
            stop = True
    if stop:
        _stop_block(state, s)


def _bid(p: int, q: int) -> int:
    for n, bid in ADJ[p]:
        if n == q:
            return bid
    raise IllegalAction("Not adjacent.")


def _stop_block(state: State, s: int) -> None:
    state["moves"].append(list(state["path"]))
    state["sel"] = -1
    state["path"] = []
    _check_rescue(state)
    if state["step"] == "path" and state["target"] >= 0:
        state["step"] = "muster"
        occ = C.occupancy(state)
        if not _muster_blocks(state, s, occ):
            _flush_moves(state, s)
            _end_action(state)
        return
    state["step"] = "group"
    _auto_group(state, s)


def _auto_group(state: State, s: int) -> None:
    """Close the group when none of its blocks can move any more."""
    occ = C.occupancy(state)
    if not _group_blocks(state, s, state["grp"], occ):
        _flush_moves(state, s)
        state["grp"] = -1
        state["step"] = "main"
        _auto_end(state)


def _flush_moves(state: State, s: int) -> None:
    """Log the moves of the group as area paths with counts (research §4.6)."""
    moves = state["moves"]
    if not moves:
        return
    counts: dict[tuple[int, ...], int] = {}
    for path in moves:
        counts[tuple(path)] = counts.get(tuple(path), 0) + 1
    parts = [f"{n} {'block' if n == 1 else 'blocks'} {' → '.join(AREA_NAMES[a] for a in path)}"
             for path, n in counts.items()]
    public(state, f"{ROLES[s]} moves " + "; ".join(parts) + ".")
    state["moves"] = []


def _sea_move(state: State, s: int, d: int) -> None:
    b = state["sel"]
    a = state["loc"][b]
    occ = C.occupancy(state)
    attacking = occ[1 - s][d] > 0
    z = _first_zone(a, d)
    pairs = state["pairs"]
    if attacking:
        state["ap"] -= 1
        state["pirate"][b] = shared_zones(a, d)
        if occ[s][d] == 0 and state["atk"][d] < 0:
            state["atk"][d] = s
            state["main"][d] = -1
    elif [a, d] in pairs:
        pairs.remove([a, d])
    else:
        state["ap"] -= 1
        if PORT[a] == 2 and PORT[d] == 2:
            pairs.append([a, d])
    state["loc"][b] = d
    state["moved"][b] = 2
    bid = SEA_BORDER + z
    state["via"][b] = bid
    ent = state["ent"][s][d]
    if bid not in ent:
        ent.append(bid)
    state["sel"] = -1
    state["step"] = "main"
    public(state, f"{ROLES[s]} moves 1 block by sea {AREA_NAMES[a]} → {AREA_NAMES[d]}"
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
    public(state, f"{ROLES[s]} plays Plague on {AREA_NAMES[a]}: {len(victims)} block(s) lose a step, "
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
        state["moved"][h] = 3
        mark_reveal(state)
        public(state, "Henry VI is rescued from the Tower and becomes the Lancastrian Pretender.")


# ======================================================================= battle phase (6.x)
def _start_battle_phase(state: State) -> None:
    state["phase"] = "battle"
    state["step"] = "choose"
    state["side"] = -1
    state["battles"] = C.contested_areas(state)
    if not state["battles"]:
        _start_supply(state)
        return
    public(state, "Battle Phase.")
    if len(state["battles"]) == 1:
        _choose_battle(state, state["battles"][0])


def _choose_battle(state: State, a: int) -> None:
    state["battles"].remove(a)
    public(state, f"Battle in {AREA_NAMES[a]}.")
    if BATTLE is None:
        _placeholder_battle(state, a)
    else:
        BATTLE.start_battle(state, a)
        if state["battle"] is not None or state["result"] is not None:
            return
    _after_battle(state)


def _placeholder_battle(state: State, a: int) -> None:
    """Used only while battle.py is missing: the attackers are eliminated. NOT the rules."""
    att = state["atk"][a]
    if att < 0:
        att = 1 - state["p1"]
    public(state, "(The battle module is not built yet: placeholder, the attackers are eliminated.)")
    for b in C.blocks_in(state, a, att):
        C.eliminate(state, b)
        if state["result"] is not None:
            return


def _after_battle(state: State) -> None:
    _check_rescue(state)
    if state["result"] is not None:
        return
    occ = C.occupancy(state)
    state["battles"] = [a for a in state["battles"] if occ[0][a] and occ[1][a]]
    if not state["battles"]:
        _start_supply(state)
    elif len(state["battles"]) == 1:
        _choose_battle(state, state["battles"][0])


# ======================================================================= decisions (supply, political)
def _start_supply(state: State) -> None:
    state["phase"] = "supply"
    state["step"] = ""
    state["stage"] = 0
    state["todo"] = []
    state["marked"] = []
    public(state, "Supply Phase.")
    _advance(state)


def _advance(state: State) -> None:
    """Run automatic steps until a player must decide or the phase is over."""
    while state["result"] is None:
        todo = state["todo"]
        if todo:
            if _auto_decision(state):
                continue
            return
        ph = state["phase"]
        if ph == "supply":
            if not _supply_stage(state):
                return
        elif ph == "political":
            if not _political_stage(state):
                return
        else:
            return


def _supply_stage(state: State) -> bool:
    """Queue the decisions of the next Supply Phase stage. False when the phase has ended."""
    st = state["stage"]
    state["stage"] = st + 1
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
                    public(state, f"{BLOCK_NAME[h]} becomes King in {AREA_NAMES[lh]} (6.81).")
                    break
                if lh == MINOR:
                    state["todo"].append(["enter", king, h, 1])
                    break
        return True
    if st == 1:  # 6.82 minors
        for side in (king, pret):
            if state["minors_owed"][side] > 0:
                state["todo"].append(["enter", side, -1, 0])
        return True
    if st == 2:  # 9.1 executions
        for b, side in ((CLARENCE_L, 1), (EXETER_Y, 0)):
            lb = state["loc"][b]
            if lb < N_AREAS or lb == POOL:
                state["todo"].append(["execute", side, b, 0])
        return True
    if st == 3:  # 7.1, 7.2 supply limits
        occ = C.occupancy(state)
        for side in (pret, king):
            for a in range(N_AREAS):
                n = occ[side][a]
                if not n:
                    continue
                if a in EXILE_LIMIT:
                    extra = len(_exile_extras(state, side, a)) - EXILE_LIMIT[a]
                else:
                    extra = n - SUPPLY_LIMIT[a]
                if extra > 0:
                    state["todo"].append(["reduce", side, a, extra])
        return True
    # end of the Game Turn
    state["todo"] = []
    if state["turn"] >= LAST_TURN:
        _start_political(state)
    else:
        state["turn"] += 1
        _start_turn(state)
    return False


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


def _decision_options(state: State) -> list[Action]:
    kind, side, subj, n = state["todo"][0]
    if kind == "enter":
        h = subj if subj >= 0 else _senior_minor(state, side)
        if h < 0:
            return []
        return [("enter", AREA_NAMES[a]) for a in _entry_areas(state, side, h)]
    if kind == "execute":
        return [("execute", None), ("spare", None)]
    if kind == "reduce":
        marked = state["marked"]
        if subj in EXILE_LIMIT:
            cands = _exile_extras(state, side, subj)
        else:
            cands = C.blocks_in(state, subj, side)
        return [("reduce", BLOCK_KEY[b]) for b in cands if b not in marked]
    if kind == "home":
        return [("home", AREA_NAMES[a]) for a in _home_options(state, side, subj)]
    if kind == "disband":
        return [("disband", BLOCK_KEY[b]) for b in _exile_extras(state, side, subj) if B_TYPE[b] != HEIR]
    if kind == "main":
        return [("main", _border_arg(bid, subj)) for bid in state["ent"][side][subj]]
    return []


def _legal_decision(state: State) -> list[Action]:
    if not state["todo"]:
        return []
    return _decision_options(state)


def _auto_decision(state: State) -> bool:
    """Resolve the head decision if there is no real choice. True if something was done."""
    if not state["todo"]:
        return False
    head = state["todo"][0]
    kind, side, subj, n = head
    opts = _decision_options(state)
    if kind == "execute":
        return False
    if kind == "enter" and not opts:
        state["minors_owed"][side] = 0
        state["todo"].pop(0)
        return True
    if kind in ("reduce", "disband"):
        if not opts or n <= 0:
            state["todo"].pop(0)
            return True
        if len(opts) <= n:  # every candidate must go: no choice (one at a time; _advance loops)
            _apply_decision(state, side, kind, BLOCK_ID[opts[0][1]], advance=False)
            return True
        return False
    if kind == "home":
        if len(opts) <= 1:
            _go_home(state, side, subj, AREA_ID[opts[0][1]] if opts else -1)
            state["todo"].pop(0)
            return True
        return False
    if len(opts) == 1:
        verb, arg = opts[0]
        _apply_decision(state, side, verb, _decode(state, side, verb, arg), advance=False)
        return True
    return False


def _apply_decision(state: State, s: int, verb: str, arg: Any, advance: bool = True) -> None:
    """Apply a Supply/Political decision; then run on (unless called from _advance itself)."""
    head = state["todo"][0]
    kind, side, subj, n = head
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
            public(state, f"{BLOCK_NAME[h]} comes of age and becomes King in {AREA_NAMES[arg]} (6.81).")
            state["todo"].pop(0)
        else:
            public(state, f"{BLOCK_NAME[h]} enters play in {AREA_NAMES[arg]} (6.82).")
            if state["minors_owed"][side] <= 0 or _senior_minor(state, side) < 0:
                state["minors_owed"][side] = 0
                state["todo"].pop(0)
    elif verb in ("execute", "spare"):
        state["todo"].pop(0)
        if verb == "execute":
            public(state, f"{role} executes {BLOCK_NAME[subj]} (9.1).")
            C.eliminate(state, subj)
        else:
            private(state, role, f"You spare {BLOCK_NAME[subj]}.")
    elif verb == "reduce":
        state["marked"].append(arg)
        head[3] = n - 1
        if head[3] <= 0:
            state["todo"].pop(0)
        public(state, f"{role} loses a step in {AREA_NAMES[subj]} (supply).")
        if C.reduce(state, arg):
            _log_eliminations(state, [arg], s)
    elif verb == "home":
        _go_home(state, s, subj, arg)
        state["todo"].pop(0)
    elif verb == "disband":
        state["loc"][arg] = POOL
        head[3] = n - 1
        if head[3] <= 0:
            state["todo"].pop(0)
        public(state, f"{role} sends an exile from {AREA_NAMES[subj]} to the pool (7.2).")
    else:
        raise IllegalAction(f"Unknown action {verb}.")
    if advance and state["result"] is None:
        _advance(state)


# ======================================================================= political turn (8.x)
def _start_political(state: State) -> None:
    state["phase"] = "political"
    state["step"] = ""
    state["stage"] = 0
    state["todo"] = []
    public(state, f"Political Turn after campaign {state['campaign']}.")
    _advance(state)


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


def _political_stage(state: State) -> bool:
    st = state["stage"]
    state["stage"] = st + 1
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
        public(state, "Levies, Bombards and the Welsh disband; mercenaries go home; the Rebel disbands (8.1).")
        # 8.2 usurpation
        king = state["king"]
        counts = _usurpation_counts(state)
        public(state, f"Usurpation count (8.2): York {counts[0]}, Lancaster {counts[1]}.")
        if counts[1 - king] > counts[king]:
            new = C.pretender_block(state)
            state["king"] = 1 - king
            state["king_block"] = new
            public(state, f"{ROLES[1 - king]} usurps the throne: {BLOCK_NAME[new] if new >= 0 else 'no heir'} "
                          f"is King; {ROLES[king]} is now the Pretender.")
        if state["campaign"] >= state["last_campaign"]:
            winner = state["king"]
            if state["prisoner"] >= 0 and winner == 0:
                public(state, "Henry VI, still a prisoner, is murdered in the Tower.")
            state["result"] = ROLES[winner]
            public(state, f"The game ends: {ROLES[winner]} holds the throne and wins (9.0).")
            return False
        return True
    if st in (1, 2):
        # 8.3 the Pretender goes home, then 8.4 the King goes home
        side = 1 - state["king"] if st == 1 else state["king"]
        for b in range(N_BLOCKS):
            a = loc[b]
            if a < N_AREAS and AREA_KIND[a] != EXILE and _owner(state, b) == side \
                    and B_TYPE[b] in (HEIR, NOBLE, CHURCH):
                state["todo"].append(["home", side, b, 0])
        return True
    if st == 3:
        # exile limits at reset (7.2, 8.5)
        for side in (1 - state["king"], state["king"]):
            for a in EXILE_AREAS[side]:
                extra = len(_exile_extras(state, side, a)) - EXILE_LIMIT[a]
                if extra > 0:
                    state["todo"].append(["disband", side, a, extra])
        return True
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
    public(state, f"Campaign reset (8.5): campaign {state['campaign']} begins; cards are shuffled and dealt.")
    _deal(state)
    return False


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
        private(state, ROLES[side], f"{BLOCK_NAME[b]} goes to the pool.")
    else:
        state["loc"][b] = a
        if B_TYPE[b] == HEIR:
            C.learn(state, b)  # named in the log
            public(state, f"{BLOCK_NAME[b]} goes home to {AREA_NAMES[a]}.")
        else:
            private(state, ROLES[side], f"{BLOCK_NAME[b]} goes home to {AREA_NAMES[a]}.")


RULES = Richard3Rules()

__all__ = ["RULES", "Richard3Rules", "B_FIRE", "B_INIT", "B_LOYALTY"]
