"""Hidden information, refused actions, invariants and the core hand-over (4.2, 6.3: Reserves
stay hidden until they join; the engine contract's IllegalAction and secrets rules)."""

from __future__ import annotations

import json
import random

import pytest

from roses.engine.contract import canonical_json
from roses.engine.errors import IllegalAction
from roses.engine.game import digest
from roses.games.richard3 import battle as BT
from roses.games.richard3 import common as C
from roses.games.richard3.data import AREA_ID, BLOCK_ID, BLOCK_NAME, N_BLOCKS
from tests.richard3 import helpers as H
from tests.richard3.helpers import phase
from tests.richard3.test_battle_kit import (
    RULES,
    L,
    Y,
    base,
    begin,
    do,
    enter,
    group,
    log_text,
    pass_until,
    turn,
)

SECRET = "Suffolk/Y"


def _with_reserve() -> dict:
    s = base()
    enter(s, "Oxford/L", "Oxford")
    enter(s, "Norfolk/Y", "Oxford", frm="Warwick")
    enter(s, SECRET, "Oxford", frm="Leicester", reserve=1)
    return begin(s, "Oxford", Y)


def test_enemy_reserves_hidden_until_they_join() -> None:
    """§4.2, C88: before round 2 Lancaster (and observers) see York's Reserve only as a count: its
    key and name appear in no view and no log line; York sees its own Reserve. After it joins it
    is revealed to all."""
    s = _with_reserve()
    for role in (L, "Observer"):
        part = BT.view_part(s, role)
        assert part["hidden_reserves"] == {Y: 1, L: 0}
        full = canonical_json(RULES.view(s, role))
        assert SECRET not in full and BLOCK_NAME[BLOCK_ID[SECRET]] not in full
        assert SECRET in RULES.secrets(s, role) and SECRET in BT.secrets_part(s, role)
    own = BT.view_part(s, Y)
    mine = [b for b in own["blocks"] if b["key"] == SECRET]
    assert mine and mine[0]["reserve"] is True
    assert BT.secrets_part(s, Y) == set()
    assert "Duke of Suffolk" not in log_text(s)
    pass_until(s, lambda x: x["battle"]["round"] == 2)
    assert "Duke of Suffolk" in log_text(s)
    part = BT.view_part(s, L)
    assert part["hidden_reserves"] == {Y: 0, L: 0}
    assert SECRET in [b["key"] for b in part["blocks"]]
    assert SECRET not in RULES.secrets(s, L)


def test_refused_actions_leave_state_untouched_and_leak_nothing() -> None:
    """IllegalAction for anything not legal now, with the state unchanged and no hidden block
    named in the message (even when the action names the hidden Reserve)."""
    s = _with_reserve()
    before = digest(s)
    tries = [(L, "fire", SECRET), (Y, "fire", SECRET), (Y, "retreat", [SECRET, "Leicester"]),
             (L, "charge", ["Oxford/L", SECRET]), (Y, "fire", "Oxford/L"), (L, "no-such-verb", None),
             (Y, "hit", SECRET), (L, "fire", ["bad", 1]), (L, "fire", {"x": 1}), (Y, "end_regroup", None)]
    for role, verb, arg in tries:
        with pytest.raises(IllegalAction) as err:
            BT.apply(s, role, verb, arg)
        msg = str(err.value)
        assert SECRET not in msg and "Suffolk" not in msg
        assert digest(s) == before


def test_view_part_shape_and_prompt() -> None:
    """view_part: area, round, roles, step, turn, blocks with steps and ratings, last roll, prompt;
    the core merges it under "battle" and uses its prompt."""
    s = _with_reserve()
    part = BT.view_part(s, L)
    for key in ("area", "round", "attacker", "defender", "step", "turn", "blocks", "hidden_reserves",
                "last", "prompt"):
        assert key in part
    assert part["area"] == "Oxford" and part["round"] == 1 and part["attacker"] == Y
    ox = [b for b in part["blocks"] if b["key"] == "Oxford/L"][0]
    assert ox["steps"] == 3 and ox["rating"] == "A2"
    v = RULES.view(s, L)
    assert v["battle"]["area"] == "Oxford" and v["prompt"] == part["prompt"]
    assert "actions" in v and "fire" in v["actions"]
    do(s, L, "fire", "Oxford/L", dice=(1, 5, 6))
    last = BT.view_part(s, Y)["last"]
    assert last["dice"] == [1, 5, 6] and last["hits"] == 1 and last["block"] == "Oxford/L"
    assert last["damage"] == [["Norfolk/Y", 1, False]]
    assert BT.view_part(s, Y)["prompt"].endswith("blocks (fire, pass).")
    json.dumps(s)


def test_only_the_acting_role_has_actions() -> None:
    s = _with_reserve()
    assert BT.active(s) == [L] and RULES.active(s) == [L]
    assert BT.legal_actions(s, Y) == [] and RULES.legal_actions(s, Y) == []
    with pytest.raises(IllegalAction):
        RULES.action(s, Y, "fire", "Norfolk/Y")


def test_labels() -> None:
    s = _with_reserve()
    for verb, arg in BT.legal_actions(s, L):
        assert BT.label_part(s, L, verb, arg)
    assert BT.label_part(s, Y, "retreat", ["Norfolk/Y", "Warwick"]) == "Duke of Norfolk: retreat to Warwick"
    assert RULES.label(s, L, "fire", "Oxford/L") == "Earl of Oxford: fire"  # the core delegates


def test_through_the_core_battle_then_supply() -> None:
    """The core hands the battle to battle.py and takes over when it is done (C13, 6.1)."""
    s = H.keep_hands(H.new())
    H.clear_map(s)
    H.put(s, "Henry VI/L", "Lincoln")
    H.put(s, "Wiltshire/L", "Wilts")
    H.put(s, "Norfolk/Y", "Sussex")
    H.play(s, "AP2", "AP2")
    H.move(s, Y, "Sussex", [("Norfolk/Y", ["Wilts"])])
    H.to_battle_or_supply(s)
    assert phase(s) == "battle" and s["battle"] is not None
    steps = 0
    while s["battle"] is not None and steps < 100:
        role = RULES.active(s)[0]
        verb, arg = RULES.legal_actions(s, role)[0]
        H.act(s, role, verb, arg)
        steps += 1
    assert s["battle"] is None
    assert phase(s) in ("supply", "card", "over", "battle") and not RULES.check_invariants(s)
    occ0 = sum(1 for b in range(N_BLOCKS) if s["loc"][b] == AREA_ID["Wilts"] and b == BLOCK_ID["Norfolk/Y"])
    occ1 = sum(1 for b in range(N_BLOCKS) if s["loc"][b] == AREA_ID["Wilts"] and b == BLOCK_ID["Wiltshire/L"])
    assert not (occ0 and occ1)


def _random_battle(seed: int) -> dict:
    """A random battle position: both sides 1-4 blocks, some Reserves, random entries."""
    r = random.Random(seed)
    s = base(seed=seed)
    area = r.choice(["Oxford", "Leicester", "Warwick", "Wilts", "Essex", "Middlesex", "Derby"])
    a = AREA_ID[area]
    from roses.games.richard3.data import ADJ, AREA_NAMES
    nbs = [AREA_NAMES[q] for q, _ in ADJ[a]]
    york = ["Norfolk/Y", "Suffolk/Y", "Herbert/Y", "March/Y", "Warwick/Y", "Bombard/Y", "Duke of York/Y",
            "Burgundian/Y", "London levy/Y"]
    lanc = ["Henry VI/L", "Clifford/L", "Northumberland/L", "Kent/L", "Stanley/L", "Exeter/L",
            "Welsh/L", "Bombard/L", "Oxford/L"]
    att = r.choice([Y, L])
    atk_keys = r.sample(york if att == Y else lanc, r.randint(1, 4))
    def_keys = r.sample(lanc if att == Y else york, r.randint(1, 4))
    main = r.choice(nbs)
    for k in def_keys:
        enter(s, k, area, steps=r.randint(1, 2))
    for k in atk_keys:
        frm = main if r.random() < 0.6 else r.choice(nbs)
        enter(s, k, area, frm=frm, reserve=0 if frm == main else 1)
    if r.random() < 0.3:
        s["treason"] = r.choice([0, 1])
    return begin(s, area, att, p1=r.choice([Y, L]))


def test_random_battles_keep_invariants_and_secrets() -> None:
    """Random play of many random battles: invariants hold, the state stays JSON, no secret
    appears in any role's battle view, and every battle ends."""
    for seed in range(60):
        s = _random_battle(seed)
        area = s["battle"]["area"] if s["battle"] is not None else -1
        r = random.Random(seed)
        n = 0
        while s["battle"] is not None and s["result"] is None:
            assert BT.check_invariants_part(s) == [], (seed, BT.check_invariants_part(s))
            for role in (Y, L, "Observer"):
                text = canonical_json(BT.view_part(s, role))
                for tok in BT.secrets_part(s, role):
                    assert tok not in text
            role = turn(s)
            acts = BT.legal_actions(s, role)
            assert acts, (seed, s["battle"])
            verb, arg = r.choice(acts)
            BT.apply(s, role, verb, arg)
            n += 1
            assert n < 500
        json.dumps(s)
        if s["result"] is None:
            assert all(s["reserve"][b] == 0 for b in range(N_BLOCKS) if s["loc"][b] == area)
            assert not (any(s["loc"][b] == area and C.owner(s, b) == 0 for b in range(N_BLOCKS))
                        and any(s["loc"][b] == area and C.owner(s, b) == 1 for b in range(N_BLOCKS)))


def test_group_and_turn_helpers_agree_with_active() -> None:
    s = _with_reserve()
    assert turn(s) == L and group(s) == ["Oxford/L"]


def test_apply_accepts_exactly_the_legal_actions() -> None:
    """apply() accepts every listed action and refuses every other candidate (validation is a
    fast path for battle turns; it must agree with legal_actions)."""
    from roses.games.richard3.common import copy_state as _copy
    from roses.games.richard3.data import ADJ, AREA_NAMES, BLOCK_KEY
    verbs = ("fire", "pass", "retreat", "charge", "treachery", "hit", "treason", "keep_treason",
             "regroup", "end_regroup")
    checked = 0
    for seed in range(4):
        s = _random_battle(seed)
        r = random.Random(seed)
        while s["battle"] is not None and s["result"] is None:
            role = turn(s)
            legal = BT.legal_actions(s, role)
            area = s["battle"]["area"]
            keys = [BLOCK_KEY[b] for b in range(N_BLOCKS) if s["loc"][b] == area]
            places = [AREA_NAMES[q] for q, _ in ADJ[area]] + ["Calais", "Scotland"]
            cands: list[tuple[str, object]] = [(v, None) for v in verbs]
            cands += [(v, k) for v in verbs for k in keys]
            cands += [(v, [k, x]) for v in ("retreat", "charge", "treachery", "regroup") for k in keys
                      for x in keys + places]
            for v, a in cands:
                c = _copy(s)
                try:
                    BT.apply(c, role, v, a)
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert accepted == ((v, a) in legal), (seed, v, a)
                checked += 1
            v, a = r.choice(legal)
            BT.apply(s, role, v, a)
    assert checked > 500


def test_undo_policy_pass_undoable_within_turn_dice_not() -> None:
    """Undo (roses.engine.game): a pass that keeps the same role acting may be taken back; a fire
    (dice) or a join of Reserves (reveal) may not."""
    from roses.engine.game import Game
    s = base()
    enter(s, "Oxford/L", "Oxford")
    enter(s, "Norfolk/Y", "Oxford", frm="Warwick")
    enter(s, "Suffolk/Y", "Oxford", frm="Warwick")
    begin(s, "Oxford", Y)
    g = Game(rules=RULES, seed=1, scenario="wars-of-the-roses", state=s)
    g.apply(L, "pass", "Oxford/L")
    g.apply(Y, "pass", "Norfolk/Y")
    assert g.can_undo(Y)
    g.undo(Y)
    assert g.state["battle"]["acted"] == [BLOCK_ID["Oxford/L"]]
    g.apply(Y, "fire", "Norfolk/Y")
    assert not g.can_undo(Y)


def test_determinised_battles_look_the_same() -> None:
    """§4.2 via the AI contract: a determinisation of a battle position (hidden blocks, Reserves
    included, re-sampled) gives the same view to the role, so the battle dict names no hidden
    block (roses.ai.checks)."""
    from roses.ai.checks import _check_position
    picker = random.Random(5)
    for seed in range(25):
        s = _random_battle(seed)
        r = random.Random(seed)
        k = 0
        while s["battle"] is not None and s["result"] is None and k < 24:
            if k % 6 == 0:
                for role in (Y, L):
                    assert _check_position(RULES, s, role, picker, 3) == [], (seed, k, role)
            role = turn(s)
            v, a = r.choice(BT.legal_actions(s, role))
            BT.apply(s, role, v, a)
            k += 1


def test_view_part_shares_nothing_mutable_with_the_state() -> None:
    """A view is a copy: changing it leaves the state (and its digest) alone."""
    s = _with_reserve()
    do(s, L, "fire", "Oxford/L", dice=(1, 1, 6))
    before = digest(s)
    part = BT.view_part(s, Y)
    part["last"]["dice"].append(6)
    part["last"]["damage"][0][1] = 99
    part["blocks"][0]["steps"] = 0
    assert digest(s) == before
