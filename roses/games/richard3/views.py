"""Views, secrets, invariants, text rendering and action labels for Richard III.

Hidden information (4.2; RULINGS.md, log policy and K1): a role sees its own blocks in full; of enemy blocks only the
number per area (plus what battle.py reveals in the current battle); its own hand and pool; the
other hand, the opponent's card before both are played, and the undealt cards never. See
RULINGS.md "Log policy" for what the log says.
"""

from __future__ import annotations

from typing import Any

from roses.engine.contract import OBSERVER, Rules, State, View
from roses.engine.logview import log_view
from roses.engine.steps import StepRules, options_map
from roses.games.richard3 import battle
from roses.games.richard3 import common as C
from roses.games.richard3.data import (
    AREA_ID,
    AREA_KIND,
    AREA_NAMES,
    B_FIRE,
    B_HOME,
    B_INIT,
    B_LOYALTY,
    B_PAIR,
    B_SIDE,
    B_STEPS,
    B_TYPE,
    BLOCK_ID,
    BLOCK_KEY,
    BLOCK_NAME,
    BORDER_LIMIT,
    CARD_AP,
    CARD_EVENT,
    CARD_NAME,
    CARD_TAG,
    DEAD,
    ENTERABLE,
    EXILE,
    EXILE_AREAS,
    EXILE_LIMIT,
    EXILE_OF,
    HEIRS,
    MINOR,
    N_AREAS,
    N_BLOCKS,
    N_BORDERS,
    N_CARDS,
    OFF,
    POOL,
    PRISON,
    REBEL_BLOCK,
    ROLES,
    SCENARIOS,
    SPECIAL_NAMES,
    TYPE_NAMES,
    border_name,
)


def _side(role: str) -> int:
    return 0 if role == "York" else 1 if role == "Lancaster" else -1


def _where(loc: int) -> str:
    return AREA_NAMES[loc] if loc < N_AREAS else SPECIAL_NAMES.get(loc, "?")


# ======================================================================= view
def build_view(rules: StepRules, state: State, role: str) -> View:
    side = _side(role)
    active = rules.active(state)
    phase = rules.steps.phase(state)
    occ = C.occupancy(state)
    loc = state["loc"]
    kb = state["king_block"]
    pb = C.pretender_block(state)
    v: View = {
        "prompt": "",
        "log": [],
        "active": active,
        "scenario": state["scenario"],
        "campaign": state["campaign"],
        "last_campaign": state["last_campaign"],
        "turn": state["turn"],
        "phase": phase,
        "king": ROLES[state["king"]],
        "pretender": ROLES[1 - state["king"]],
        "king_block": BLOCK_NAME[kb] if kb >= 0 else None,
        "pretender_block": BLOCK_NAME[pb] if pb >= 0 else None,
        "p1": ROLES[state["p1"]] if phase not in ("card", "mulligan") else None,
        "counts": {"York": occ[0], "Lancaster": occ[1]},
        "heirs": {ROLES[s]: [{"name": BLOCK_NAME[h], "rank": i + 1, "status": _heir_status(state, h)}
                             for i, h in enumerate(HEIRS[s])] for s in (0, 1)},
        "minors_owed": {"York": state["minors_owed"][0], "Lancaster": state["minors_owed"][1]},
        "prisoner": state["prisoner"] >= 0,
        "border_counts": {ROLES[s]: [[bid, n] for bid, n in enumerate(state["bc"][s]) if n] for s in (0, 1)},
        "hand_size": {ROLES[s]: len(state["hands"][s]) for s in (0, 1)},
        "mulligan_used": {ROLES[s]: bool(state["mulligan_used"][s]) for s in (0, 1)},
        "battles": [
            {"area": a, "name": AREA_NAMES[a], "attacker": ROLES[state["atk"][a]] if state["atk"][a] >= 0 else None,
             "main": state["main"][a]}
            for a in range(N_AREAS) if occ[0][a] and occ[1][a]],
    }
    # cards
    played = state["played"]
    both = played[0] >= 0 and played[1] >= 0 or phase not in ("card", "mulligan")
    v["played"] = {ROLES[s]: (_card(played[s]) if played[s] >= 0 and (both or s == side)
                              else ("hidden" if played[s] >= 0 else None)) for s in (0, 1)}
    v["role"] = role
    v["result"] = state["result"]
    revealed: set[int] = set()
    if state["battle"] is not None:
        revealed = set(state["battle"].get("revealed", []))
    blocks = []
    hidden: dict[str, dict[str, int]] = {}
    for b in range(N_BLOCKS):
        lb = loc[b]
        if lb in (OFF, DEAD):
            continue
        o = C.owner(state, b)
        if o == side:
            blocks.append(_block_dict(state, b, o, False))
        elif lb < N_AREAS:
            if b in revealed:
                blocks.append(_block_dict(state, b, o, True))
            else:
                h = hidden.setdefault(AREA_NAMES[lb], {})
                h[ROLES[o]] = h.get(ROLES[o], 0) + 1
    v["blocks"] = blocks
    v["hidden"] = hidden
    if side >= 0:
        v["hand"] = [_card(c) for c in state["hands"][side]]
        v["pool"] = [BLOCK_KEY[b] for b in range(N_BLOCKS) if loc[b] == POOL and C.owner(state, b) == side]
        v["pools"] = {ROLES[side]: len(v["pool"])}
    if phase == "action":
        fr = state["stack"][0]
        s = fr["side"]
        sel = fr["sel"]
        grp, tgt = fr["grp"], fr["target"]
        v["action"] = {"player": ROLES[s], "ap": fr["ap"], "event": fr["event"] or None,
                       "group": AREA_NAMES[grp] if grp >= 0 else None,
                       "path": [AREA_NAMES[a] for a in fr["path"]],
                       "selected": (BLOCK_KEY[sel] if s == side else "hidden") if sel >= 0 else None,
                       "muster": AREA_NAMES[tgt] if tgt >= 0 else None}
    decision = _decision(state)
    if decision is not None:
        kind, s, subj, n = decision
        d: dict[str, Any] = {"kind": kind, "player": ROLES[s], "count": n}
        if kind in ("reduce", "disband", "main"):
            d["area"] = subj
        elif kind == "execute" or s == side and subj >= 0:
            d["block"] = BLOCK_NAME[subj]
        v["decision"] = d
    if state["battle"] is not None:
        v["battle"] = battle.view_part(state, role)
    v.update(log_view(state["log"], role))
    v["prompt"] = _prompt(rules, state, role)
    if role in active:
        v["actions"] = options_map(rules.legal_actions(state, role))
    return v


def _card(c: int) -> dict[str, Any]:
    return {"id": c, "name": CARD_NAME[c], "ap": CARD_AP[c], "event": CARD_EVENT[c], "tag": CARD_TAG[c]}


def _block_dict(state: State, b: int, o: int, revealed: bool) -> dict[str, Any]:
    """A block as the web client draws it; flags that are false/zero are left out."""
    d: dict[str, Any] = {"key": BLOCK_KEY[b], "name": BLOCK_NAME[b], "side": ROLES[o], "type": TYPE_NAMES[B_TYPE[b]],
                         "steps": state["steps"][b], "max": B_STEPS[b], "rating": f"{B_INIT[b]}{B_FIRE[b]}",
                         "where": _where(state["loc"][b])}
    if B_LOYALTY[b]:
        d["loyalty"] = B_LOYALTY[b]
    if state["down"][b]:
        d["down"] = True
    m = state["moved"][b]
    if m:
        d["moved" if m != 3 else "recruited"] = True
    if state["reserve"][b]:
        d["reserve"] = state["reserve"][b]
    if revealed:
        d["revealed"] = True
    return d


def _heir_status(state: State, h: int) -> str:
    lh = state["loc"][h]
    if lh == DEAD:
        return "dead"
    if lh == OFF:
        return "defected"
    if lh == MINOR:
        return "minor"
    if lh == PRISON:
        return "prisoner"
    if h == state["king_block"]:
        return "King"
    if h == C.pretender_block(state):
        return "Pretender"
    return "alive"


def _decision(state: State) -> tuple[str, int, int, int] | None:
    """The pending decision a view shows: (kind, side, subject, count), as the steps on the
    stack say (Main Attack declarations, Supply and Political decisions)."""
    stack = state["stack"]
    if not stack or state["result"] is not None:
        return None
    fr = stack[-1]
    name = fr["step"]
    if name == "declare":
        return ("main", fr["side"], fr["area"], 0)
    if name in ("enter", "execute", "reduce", "home", "disband"):
        return (name, fr["side"], fr["subj"], fr["n"])
    return None


def _prompt(rules: StepRules, state: State, role: str) -> str:
    if state["result"] is not None:
        return f"Game over: {state['result']} wins."
    return rules.steps.prompt(state, role)


# ======================================================================= secrets
def secrets(rules: Rules, state: State, role: str) -> set[str]:
    """Tokens that must not appear in anything sent to role now (never one that legitimately does).

    * the key (e.g. ``"Warwick/Y"``) of every enemy block in play or in the pool that is not
      revealed in the current battle. Keys are shown only in the owner's view and, for revealed
      participants, in the battle part; log lines name blocks by title, never by key;
    * the tag of every card in the other hand(s) (including a played, unrevealed card) and of
      every undealt card. Tags are shown only in the holder's hand.
    """
    side = _side(role)
    revealed: set[int] = set()
    if state["battle"] is not None:
        revealed = set(state["battle"].get("revealed", []))
    out: set[str] = set()
    loc = state["loc"]
    king = state["king"]
    for b in range(N_BLOCKS):
        lb = loc[b]
        if lb in (DEAD, OFF) or b in revealed:
            continue
        o = B_SIDE[b]
        if o == 2:
            o = 1 - king
        if o != side:
            out.add(BLOCK_KEY[b])
    for s in (0, 1):
        if s != side:
            out.update(CARD_TAG[c] for c in state["hands"][s])
    out.update(CARD_TAG[c] for c in state["deck"])
    if state["battle"] is not None:
        out |= battle.secrets_part(state, role)
    return out


# ======================================================================= invariants
def check_invariants(rules: StepRules, state: State) -> list[str]:
    p: list[str] = []
    phase = rules.steps.phase(state)
    loc, steps, down = state["loc"], state["steps"], state["down"]
    for name, n in (("loc", N_BLOCKS), ("steps", N_BLOCKS), ("down", N_BLOCKS), ("moved", N_BLOCKS),
                    ("reserve", N_BLOCKS), ("via", N_BLOCKS), ("pirate", N_BLOCKS), ("atk", N_AREAS),
                    ("main", N_AREAS)):
        if len(state[name]) != n:
            p.append(f"{name} has length {len(state[name])}")
    if p:
        return p
    valid = set(range(N_AREAS)) | {POOL, MINOR, OFF, DEAD, PRISON}
    for b in range(N_BLOCKS):
        lb = loc[b]
        if lb not in valid:
            p.append(f"{BLOCK_KEY[b]} at invalid location {lb}")
            continue
        if lb < N_AREAS and not ENTERABLE[C.owner(state, b)][lb]:
            p.append(f"{BLOCK_KEY[b]} in the enemy exile area {AREA_NAMES[lb]}")
        if lb in (DEAD, OFF):
            if steps[b] != 0:
                p.append(f"{BLOCK_KEY[b]} is {_where(lb)} with {steps[b]} steps")
        elif down[b]:
            if steps[b] != 0:
                p.append(f"face-down {BLOCK_KEY[b]} has steps")
            if lb != POOL and not (B_TYPE[b] == 5 and lb < N_AREAS and AREA_KIND[lb] == EXILE):
                p.append(f"face-down {BLOCK_KEY[b]} at {_where(lb)}")
        elif not 1 <= steps[b] <= B_STEPS[b]:
            p.append(f"{BLOCK_KEY[b]} has {steps[b]} steps at {_where(lb)}")
        pr = B_PAIR[b]
        if pr >= 0 and pr > b and loc[pr] not in (DEAD, OFF) and lb not in (DEAD, OFF):
            p.append(f"both versions of {BLOCK_KEY[b]} in play")
        if B_TYPE[b] != 0 and lb in (MINOR, PRISON):
            p.append(f"{BLOCK_KEY[b]} is a non-heir at {_where(lb)}")
        if lb == POOL and B_TYPE[b] == 0:
            p.append(f"heir {BLOCK_KEY[b]} in the pool")
    # (the Rebel may walk into Scotland when Lancaster is Pretender: only its deployment is barred)
    if loc[REBEL_BLOCK] < N_AREAS and AREA_KIND[loc[REBEL_BLOCK]] == EXILE and EXILE_OF[loc[REBEL_BLOCK]] != \
            1 - state["king"]:
        p.append("the Rebel is in the King's exile area")
    # border counts (5.21; Surprise +1)
    for s in (0, 1):
        bonus = 1 if state["surprise"] == s else 0
        for bid in range(N_BORDERS):
            if state["bc"][s][bid] > BORDER_LIMIT[bid] + bonus:
                p.append(f"{ROLES[s]} crossed {border_name(bid)} {state['bc'][s][bid]} times")
    # cards
    cards = sorted(state["hands"][0] + state["hands"][1] + state["deck"] + state["discard"])
    if cards != list(range(N_CARDS)):
        p.append(f"cards not conserved: {cards}")
    if phase == "card":
        t = state["turn"]
        for s in (0, 1):
            if len(state["hands"][s]) != 8 - t:
                p.append(f"{ROLES[s]} holds {len(state['hands'][s])} cards in turn {t}")
    # King / Pretender
    kb = state["king_block"]
    if kb >= 0:
        if B_TYPE[kb] != 0 or B_SIDE[kb] != state["king"]:
            p.append(f"King block {BLOCK_KEY[kb]} is not an heir of the King's side")
        elif loc[kb] >= N_AREAS:
            p.append(f"the King {BLOCK_KEY[kb]} is at {_where(loc[kb])}")
    if state["prisoner"] >= 0 and loc[state["prisoner"]] != PRISON:
        p.append("prisoner flag without a prisoner")
    if any(x < 0 for x in state["minors_owed"]):
        p.append("negative minors owed")
    if state["result"] is None:
        for s in (0, 1):
            if not C.heirs_alive(state, s):
                p.append(f"{ROLES[s]} has no heir but the game goes on")
    elif phase != "over":
        p.append("result set but phase is not over")
    # no battle left open outside the Action and Battle Phases
    if phase in ("card", "mulligan", "supply", "political"):
        occ = C.occupancy(state)
        for a in range(N_AREAS):
            if occ[0][a] and occ[1][a]:
                p.append(f"{AREA_NAMES[a]} is contested in the {phase} phase")
    # exile limits right after the campaign reset (7.2, 8.5)
    if phase == "mulligan" and state["turn"] == 1:
        for s in (0, 1):
            for a in EXILE_AREAS[s]:
                extras = [b for b in C.blocks_in(state, a, s)
                          if not (B_TYPE[b] == 5 and _home(b) == a) and B_TYPE[b] != 0]
                if len(extras) > EXILE_LIMIT[a] and state["campaign"] > _first_campaign(state):
                    p.append(f"{AREA_NAMES[a]} over its exile limit after the reset")
    if state["battle"] is not None:
        p.extend(battle.check_invariants_part(state))
    if state["battle"] is None and phase == "battle" and state["result"] is None \
            and not state["battles"]:
        p.append("Battle Phase waiting with no battle to choose")
    return p


def _home(b: int) -> int:
    return B_HOME[b]


def _first_campaign(state: State) -> int:
    return int(SCENARIOS[state["scenario"]]["first_campaign"])


# ======================================================================= text
def describe(view: View) -> str:
    lines = [f"Richard III — {view.get('scenario')} — campaign {view.get('campaign')}, turn {view.get('turn')}, "
             f"{view.get('phase')} phase. King: {view.get('king')} ({view.get('king_block')}); "
             f"Pretender: {view.get('pretender')} ({view.get('pretender_block')})."]
    if view.get("p1"):
        lines.append(f"Player 1: {view['p1']}. Cards played: {view.get('played')}")
    counts = view.get("counts", {})
    own: dict[int, list[str]] = {}
    for b in view.get("blocks", []):
        if b["where"] in AREA_ID and b["side"] == view.get("role"):
            own.setdefault(AREA_ID[b["where"]], []).append(
                f"{b['name']} {b['steps']}/{b['max']} {b['rating']}" + (" (down)" if b.get("down") else ""))
    for a in range(N_AREAS):
        y = counts.get("York", [0] * N_AREAS)[a]
        la = counts.get("Lancaster", [0] * N_AREAS)[a]
        if y or la:
            mine = "; ".join(own.get(a, []))
            lines.append(f"  {AREA_NAMES[a]:<12} York {y}  Lancaster {la}" + (f"   [{mine}]" if mine else ""))
    if "hand" in view:
        lines.append("Hand: " + ", ".join(c["name"] for c in view["hand"]))
    if view.get("pool"):
        lines.append("Pool: " + ", ".join(view["pool"]))
    for r, hs in view.get("heirs", {}).items():
        lines.append(f"{r} heirs: " + ", ".join(f"{h['name']} ({h['status']})" for h in hs))
    if "action" in view:
        a = view["action"]
        lines.append(f"{a['player']} acting: {a['ap']} AP" + (f", {a['event']}" if a["event"] else ""))
    if "battle" in view:
        lines.append(f"Battle: {view['battle']}")
    lines.append(view.get("prompt", ""))
    return "\n".join(lines)


def label(state: State, role: str, verb: str, arg: Any) -> str:
    if state.get("battle") is not None:
        return battle.label_part(state, role, verb, arg)
    if arg is None:
        return {"keep": "Keep the hand", "redeal": "Ask for a redeal", "stop": "Stop here",
                "end_group": "End this group", "end": "End the Action Phase", "execute": "Execute him",
                "spare": "Spare him"}.get(verb, verb.replace("_", " "))
    if verb == "play":
        if isinstance(arg, int) and 0 <= arg < N_CARDS:
            return f"Play {CARD_NAME[arg]} ({CARD_AP[arg]} AP{', event' if CARD_EVENT[arg] else ''})"
        return f"Play card {arg}"
    if verb in ("block", "sea", "recruit", "reduce", "disband") and arg in BLOCK_ID:
        b = BLOCK_ID[arg]
        where = state["loc"][b]
        return {"block": "Move", "sea": "Sea move", "recruit": "Recruit", "reduce": "Reduce",
                "disband": "Send to the pool"}[verb] + f" {BLOCK_NAME[b]}" + (f" ({_where(where)})" if where < N_AREAS else "")
    if verb == "main":
        return f"Main Attack from {arg}" if arg in AREA_ID else f"Main Attack from the {arg}"
    if isinstance(arg, str) and arg in AREA_ID:
        return {"move": "Activate the group in", "to": "Move to", "sea_to": "Sea move to", "place": "Deploy in",
                "muster": "Muster at", "plague": "Plague on", "battle": "Fight the battle in", "enter": "Enter in",
                "home": "Send home to"}.get(verb, verb) + f" {arg}"
    return f"{verb} {arg}"


__all__ = ["build_view", "check_invariants", "describe", "label", "secrets", "OBSERVER"]
