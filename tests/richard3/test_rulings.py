"""One test per ruling of roses/games/richard3/RULINGS.md (A1-A11, E-rulings)."""

from __future__ import annotations

import random

from roses.ai.sim import acting
from roses.games.richard3 import action as moves
from roses.games.richard3 import common as C
from roses.games.richard3 import political, supply
from roses.games.richard3.data import (
    AREA_ID,
    B_STEPS,
    BLOCK_NAME,
    CROWN_AREAS,
    N_AREAS,
    PRISON,
    border_between,
)
from tests.richard3.helpers import (
    RULES,
    A,
    B,
    L,
    Y,
    act,
    args,
    keep_hands,
    move,
    new,
    phase,
    play,
    put,
    step_name,
    todo,
)


def test_a1_main_attack_chosen_by_attacker() -> None:
    """A1 (6.3): the attacker picks the Main Attack border when he ends his Action Phase."""
    s = keep_hands(new())
    for k in ("Buckingham/L", "Shrewsbury/L"):
        put(s, k, "Chester")
    for k in ("Norfolk/Y", "Suffolk/Y"):
        put(s, k, "Derby")
    put(s, "Hastings/Y", "Warwick")
    play(s, "AP4", "AP2")
    move(s, Y, "Derby", [("Norfolk/Y", ["Chester"]), ("Suffolk/Y", ["Chester"])])
    move(s, Y, "Warwick", [("Hastings/Y", ["Chester"])])
    act(s, Y, "end")
    assert step_name(s) == "declare" and RULES.active(s) == [Y]
    act(s, Y, "main", "Warwick")
    assert s["main"][A("Chester")] == border_between(A("Chester"), A("Warwick"))
    assert s["reserve"][B("Norfolk/Y")] == 1 and s["reserve"][B("Suffolk/Y")] == 1
    assert s["reserve"][B("Hastings/Y")] == 0
    assert RULES.active(s) == [L]


def _shown_pretender(s: dict[str, object]) -> object:
    """The Pretender's block as every view names it (views.build_views finds him itself)."""
    shown = {RULES.view(s, role)["pretender_block"] for role in (Y, L, "Observer")}
    assert len(shown) == 1
    return shown.pop()


def test_a2_pretender_replaced_at_once_king_not() -> None:
    """A2 (3.21, 6.81): a dead Pretender is replaced at once, a dead King only at the Supply
    Phase; the views name the new Pretender at once too."""
    s = new()
    assert C.pretender_block(s) == B("Duke of York/Y")
    assert _shown_pretender(s) == BLOCK_NAME[B("Duke of York/Y")]
    C.eliminate(s, B("Duke of York/Y"))
    assert C.pretender_block(s) == B("March/Y")
    assert _shown_pretender(s) == BLOCK_NAME[B("March/Y")]
    C.eliminate(s, B("Henry VI/L"))
    assert C.king_block(s) == -1


def test_a3_kingmaker_one_campaign_prince_edward_pretender() -> None:
    """A3 (p.9): Kingmaker is campaign 2 only; Henry VI is a prisoner; Prince Edward is Pretender;
    the prisoner counts for Lancaster at Usurpation."""
    s = new("kingmaker")
    assert s["campaign"] == 2 and s["last_campaign"] == 2
    assert s["loc"][B("Henry VI/L")] == PRISON and s["prisoner"] == B("Henry VI/L")
    assert C.pretender_block(s) == B("Prince Edward/L")
    assert C.king_block(s) == B("March/Y")
    counts = political.usurpation_counts(s)
    assert counts[1] == 1  # only the prisoner: everything else Lancastrian is in exile or the pool
    occ = C.occupancy(s)
    assert occ[0][AREA_ID["Middlesex"]] == 1 and occ[1][AREA_ID["Middlesex"]] == 0


def test_a3_kingmaker_rescue() -> None:
    """A3: a Lancastrian block occupying London frees Henry VI, who becomes the Pretender."""
    s = keep_hands(new("kingmaker"))
    put(s, "March/Y", "Kent")
    put(s, "Pembroke/L", "Essex")
    play(s, "AP2", "AP4")
    assert s["p1"] == 1
    move(s, L, "Essex", [("Pembroke/L", ["Middlesex"])])
    assert s["loc"][B("Henry VI/L")] == AREA_ID["Middlesex"] and s["prisoner"] == -1
    assert C.pretender_block(s) == B("Henry VI/L")
    assert _shown_pretender(s) == BLOCK_NAME[B("Henry VI/L")]


def test_a4_piracy_non_attacking_moves_still_pair() -> None:
    """A4: under Piracy a non-attacking major-port sea move still pairs."""
    s = keep_hands(new())
    play(s, "Piracy", "AP2")
    act(s, Y, "sea", "Warwick/Y")
    act(s, Y, "sea_to", "East Anglia")
    assert s["stack"][0]["ap"] == 1
    act(s, Y, "sea", "Salisbury/Y")
    act(s, Y, "sea_to", "East Anglia")
    assert s["stack"][0]["ap"] == 1


def test_a5_surprise_red_still_stops() -> None:
    """A5: with Surprise three blocks may cross a red border, and each must stop."""
    s = keep_hands(new())
    for k in ("Norfolk/Y", "Suffolk/Y", "Arundel/Y", "Essex/Y"):
        put(s, k, "Cumbria")
    play(s, "Surprise", "AP2")
    act(s, Y, "move", "Cumbria")
    for k in ("Norfolk/Y", "Suffolk/Y", "Arundel/Y"):
        act(s, Y, "block", k)
        act(s, Y, "to", "Lancaster")
        assert step_name(s) == "group"
    act(s, Y, "block", "Essex/Y")
    assert "Lancaster" not in args(s, Y, "to")


def test_a6_bombard_may_sea_move() -> None:
    """A6 (5.3, 3.24): the Bombard is not a city levy and may sea move."""
    s = keep_hands(new())
    put(s, "Bombard/Y", "Calais")
    play(s, "AP4", "AP2")
    assert "Bombard/Y" in args(s, Y, "sea")


def test_a8_heirs_never_disbanded_to_pool() -> None:
    """A8: exile extras sent to the pool at the reset are never heirs."""
    s = new()
    for k in ("Henry VI/L", "Exeter/L", "Somerset/L", "Oxford/L"):
        put(s, k, "Scotland")
    frame = {"step": "disband", "side": 1, "subj": A("Scotland"), "n": 3}
    s["stack"] = [{"step": "political", "stage": 4}, frame]
    assert [a for _, a in RULES.steps["disband"].options(s, frame, L)] == ["Oxford/L"]


def test_a9_all_extras_disbanded_at_reset() -> None:
    """A9, C114 (7.2, 8.5): every extra exile goes to the pool at the reset, owner's choice."""
    s = new()
    for k in ("Norfolk/Y", "Suffolk/Y"):
        put(s, k, "Ireland")
    frame = {"step": "political", "stage": 3}
    s["stack"] = [frame]
    RULES.steps["political"].run(s, frame)
    assert todo(s) == [["disband", 0, A("Ireland"), 2]]


def test_a11_defence_bonus_split() -> None:
    """A11 (2.2, 2.3): Exeter keeps his shield +1 in Cornwall, Henry VI takes the crown +1;
    a royal Exeter alone gets +2."""
    s = new()
    present = [B("Henry VI/L"), B("Exeter/L")]
    assert C.defence_bonus(s, B("Exeter/L"), A("Cornwall"), present) == 1
    assert C.defence_bonus(s, B("Henry VI/L"), A("Cornwall"), present) == 1
    assert C.defence_bonus(s, B("Exeter/L"), A("Cornwall"), [B("Exeter/L")]) == 2
    assert C.defence_bonus(s, B("Devon/L"), A("Cornwall"), present) == 1
    assert C.defence_bonus(s, B("March/Y"), A("Cornwall"), [B("March/Y")]) == 0  # no crown for the Pretender


def test_e2_royal_minor_without_crown_goes_to_exile() -> None:
    """E2 (6.82): a royal minor with no friendly or vacant crown area enters in an own exile area."""
    s = new()
    york = [b for b in range(63) if C.owner(s, b) == 0 and s["loc"][b] == 40][:len(CROWN_AREAS)]
    for b, a in zip(york, CROWN_AREAS, strict=False):
        s["loc"][b] = a
        s["steps"][b] = 1
    s["loc"][B("Henry VI/L")] = AREA_ID["Lincoln"]
    assert all(C.occupancy(s)[0][a] for a in CROWN_AREAS[:len(york)])
    assert len(york) == len(CROWN_AREAS)
    assert supply.entry_areas(s, 1, B("Prince Edward/L")) == [AREA_ID["Scotland"], AREA_ID["France"]]


def test_a8_auto_disband_all_non_heirs_then_reset() -> None:
    """A8, A9: when only non-heirs can go, all of them go to the pool without a question and the
    Political Turn runs on to the next campaign (regression: nested automatic decisions)."""
    from roses.games.richard3.data import POOL
    s = new()
    for k in ("Henry VI/L", "Exeter/L", "Somerset/L", "Oxford/L", "Beaumont/L"):
        put(s, k, "France")
    put(s, "Prince Edward/L", "France")
    put(s, "Richmond/L", "France")
    s["stack"] = [{"step": "political", "stage": 3}]
    RULES.steps.settle(s)
    assert s["loc"][B("Oxford/L")] == POOL and s["loc"][B("Beaumont/L")] == POOL
    assert s["loc"][B("Henry VI/L")] == A("France")
    assert phase(s) == "mulligan" and s["campaign"] == 2


def test_k1_sides_remember_blocks_they_saw() -> None:
    """K1 (4.2, p.10 setup, 6.1, 5.4): the setup is public, so each side knows the enemy blocks
    on the map; battles reveal blocks for good; a recruit is unknown; the pool forgets."""
    s = new("richard-iii")
    known = s["known"]
    assert known[1][B("Gloucester/Y")] == s["steps"][B("Gloucester/Y")] and known[1][B("Stanley/Y")] > 0
    assert known[0][B("Buckingham/L")] > 0 and known[0][B("Richmond/L")] > 0
    assert known[1][B("Westmoreland/Y")] == 0 and known[0][B("Shrewsbury/L")] == 0  # pools
    assert all(known[0][b] == 0 for b in range(len(known[0])) if C.owner(s, b) == 0)
    # Random play: after every recruit the recruit is unknown; after every battle, every block
    # revealed in it and still on the map is known to its enemy with the strength it ended at.
    picker = random.Random(4)
    recruits = battles = 0
    for seed in range(1, 40):
        s = new("wars-of-the-roses", seed)
        for _ in range(600):
            turn = acting(RULES, s)
            if turn is None:
                break
            role, options = turn
            verb, arg = options[picker.randrange(len(options))]
            before = s["battle"]
            revealed = list(before["revealed"]) if before else []
            sel = moves.selected(s)
            RULES.action(s, role, verb, arg)
            if verb == "place":
                recruits += 1
                assert s["known"][0][sel] == s["known"][1][sel] == 0
            if before is not None and s["battle"] is None:
                battles += 1
                for b in revealed:
                    if s["loc"][b] < N_AREAS:
                        assert s["known"][1 - C.owner(s, b)][b] == max(1, s["steps"][b])
        if recruits >= 5 and battles >= 5:
            break
    assert recruits >= 5 and battles >= 5


def test_k1_named_heirs_and_campaign_reset_are_remembered() -> None:
    """K1 (8.3/8.4, 8.5): an heir going home is named, so he is known; a noble going home is
    followed but not named (still unknown if it was); at the reset a face-down block standing
    up where it lay is known, and every remembered block is known at full strength."""
    s = new()
    heir, noble = B("March/Y"), B("Warwick/Y")
    C.forget(s, heir)
    C.forget(s, noble)
    supply.go_home(s, 0, heir, A("Middlesex"))
    supply.go_home(s, 0, noble, A("Calais"))
    assert s["known"][1][heir] == s["steps"][heir] and s["known"][1][noble] == 0
    # 8.5: the Burgundians lie face-down at home (eliminated, unknown to Lancaster); Kent was
    # last seen at one step.
    burg, kent = B("Burgundian/Y"), B("Kent/Y")
    C.forget(s, burg)
    s["down"][burg] = 1
    s["known"][1][kent] = 1
    for k in ("Henry VI/L", "Exeter/L", "Somerset/L", "Oxford/L", "Beaumont/L", "Prince Edward/L", "Richmond/L"):
        put(s, k, "France")
    s["stack"] = [{"step": "political", "stage": 3}]
    RULES.steps.settle(s)
    assert s["campaign"] == 2
    assert s["known"][1][burg] == s["steps"][burg] == B_STEPS[burg]
    assert s["known"][1][kent] == B_STEPS[kent]
