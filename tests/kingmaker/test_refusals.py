"""Refusals that name the rule ("the exact reason for refusal"; each step's ``rule`` and
``why_not_<verb>`` methods, the engine's Step.why_not):
an order that is not one of the player's options now is refused with the reason and the
rulebook line, changes nothing, and names nothing hidden from him."""

from __future__ import annotations

from pathlib import Path

import pytest

from roses.engine.contract import canonical_json
from roses.engine.errors import IllegalAction
from roses.games.kingmaker import RULES
from roses.games.kingmaker.common import Z_CHANC, Z_HAND, W
from roses.games.kingmaker.views import ctag
from tests.kingmaker.helpers import award, give_hand, new_game, put, staged, take, turn_of
from tests.kingmaker.test_parliament import _session

MOVE = {"step": "move", "p": 0, "sel": None, "ship": None}


def refused(state, role: str, verb: str, arg=None) -> str:
    """The refusal of an order; the state is unchanged by it."""
    before = canonical_json(state)
    with pytest.raises(IllegalAction) as err:
        RULES.action(state, role, verb, arg)
    assert canonical_json(state) == before
    return str(err.value)


def _mover(tmp_path: Path, sq: str):
    state = staged(tmp_path)
    put(state, 0, "percy", sq)
    turn_of(state, 0, dict(MOVE), stage=2)
    RULES.action(state, "P1", "select", "percy")
    return state


def test_move_too_far_names_five_squares_l126(tmp_path: Path) -> None:
    state = _mover(tmp_path, "A6")
    text = refused(state, "P1", "to", "M6")
    assert "more than 5 squares" in text and "§Noble Counters" in text
    assert text.startswith("P1 cannot to M6 now: M6 is more") and "Now: Where does Percy move? You may: to, back." in text


def test_move_into_forest_stops_l128(tmp_path: Path) -> None:
    """The forest wall G1-G4: from open E4, H4 lies beyond a forest square (L128, ruling K9)."""
    text = refused(_mover(tmp_path, "E4"), "P1", "to", "H4")
    assert "forest" in text and "§Noble Counters" in text


def test_move_across_an_estuary_l130(tmp_path: Path) -> None:
    text = refused(_mover(tmp_path, "D6"), "P1", "to", "E6")
    assert "estuary" in text and "§Noble Counters" in text


def test_move_to_sea_needs_a_ship_l162(tmp_path: Path) -> None:
    text = refused(_mover(tmp_path, "E4"), "P1", "to", "G5")
    assert "sea square" in text and "§Sea Transportation" in text


def test_move_inside_a_neutral_place_l35_l191(tmp_path: Path) -> None:
    text = refused(_mover(tmp_path, "C3"), "P1", "to", "nottingham")
    assert "Nottingham is neutral" in text and "§Town, Cities, and Castles" in text and "besiege" in text


def test_move_unknown_square_and_no_selection(tmp_path: Path) -> None:
    state = _mover(tmp_path, "C3")
    assert "neither a square nor a place" in refused(state, "P1", "to", "ZZ99")
    RULES.action(state, "P1", "back")
    assert "first choose the noble" in refused(state, "P1", "to", "C2")


def test_select_another_faction_noble_l311(tmp_path: Path) -> None:
    state = staged(tmp_path)
    put(state, 0, "percy", "C3")
    put(state, 1, "mowbray", "C2")
    turn_of(state, 0, dict(MOVE), stage=2)
    text = refused(state, "P1", "select", "mowbray")
    assert "not a noble of your faction" in text and "§Alliances" in text


def test_assign_a_second_title_l64_and_office_to_untitled_l65(tmp_path: Path) -> None:
    """In play (L39, L64-65): Stafford, untitled, may take a title but no office; once titled,
    no second title."""
    state = staged(tmp_path)
    put(state, 0, "audley", "C3")
    give_hand(state, 0, "earl_of_essex")
    give_hand(state, 0, "chancellor")
    turn_of(state, 0, dict(MOVE), stage=2)
    text = refused(state, "P1", "assign", ["chancellor", "audley"])
    assert "no title" in text and "§Preparing to Play" in text
    RULES.action(state, "P1", "assign", ["earl_of_essex", "audley"])
    give_hand(state, 0, "earl_of_kent")
    text = refused(state, "P1", "assign", ["earl_of_kent", "audley"])
    assert "already has a title" in text and "§Preparing to Play" in text


def test_assign_to_a_noble_at_sea_or_of_another_player_l39(tmp_path: Path) -> None:
    state = staged(tmp_path)
    put(state, 1, "mowbray", "C2")
    put(state, 0, "audley", "C3")
    give_hand(state, 0, "earl_of_essex")
    turn_of(state, 0, dict(MOVE), stage=2)
    assert "not a noble of your faction" in refused(state, "P1", "assign", ["earl_of_essex", "mowbray"])
    state["nship"][W(state).cid("audley")] = 0
    state["nsq"][W(state).cid("audley")] = None
    text = refused(state, "P1", "assign", ["earl_of_essex", "audley"])
    assert "at sea" in text and "§Faction" in text


def test_a_card_not_held_is_refused_without_saying_where_it_is(tmp_path: Path) -> None:
    """A card in another hand or in Chancery: the refusal says only that the player does not
    hold it (hidden information stays hidden), and holds no card tag of others."""
    state = staged(tmp_path)
    put(state, 0, "audley", "C3")
    other = give_hand(state, 1, "earl_of_essex")
    chanc = take(state, "chancellor")
    state["cz"][chanc] = Z_CHANC
    state["chancery"].append(chanc)
    turn_of(state, 0, dict(MOVE), stage=2)
    for cid in ("earl_of_essex", "chancellor"):
        text = refused(state, "P1", "assign", [cid, "audley"])
        assert f"you hold no Crown card '{cid}'" in text
        assert "Chancery" not in text and "P2" not in text
        for tag in RULES.secrets(state, "P1"):
            assert tag not in text
    assert state["cz"][other] == Z_HAND


def test_arrange_a_title_to_a_titled_noble_l64() -> None:
    """Setup (L60-66): the dealt cards; a title offered to a noble who already has one."""
    state = new_game(players=3, seed=4)
    w = W(state)
    for role in state["roles"]:
        p = state["roles"].index(role)
        gives = [a for v, a in RULES.legal_actions(state, role) if v == "give"]
        titles = [a for a in gives if w.cards[w.cid(a[0])].kind == "title"]
        if not titles:
            continue
        card, noble = titles[0]
        RULES.action(state, role, "give", [card, noble])
        others = [c for c in range(len(w.cards)) if state["cz"][c] == Z_HAND and state["ch"][c] == p
                  and w.cards[c].kind == "title"]
        if not others:
            continue
        text = refused(state, role, "give", [w.cards[others[0]].id, noble])
        assert "already has a title" in text and "§Preparing to Play" in text
        return
    pytest.skip("no player of this deal holds two titles")


def test_parliament_ballot_and_proposal_refusals_l366_l370(tmp_path: Path) -> None:
    state, w = _session(tmp_path)
    RULES.action(state, "P3", "propose", "audley")
    RULES.action(state, "P1", "decline")
    text = refused(state, "P3", "propose", "audley")
    assert "declined" in text and "§Voting on Cards Distributed" in text
    RULES.action(state, "P3", "propose", "grey")
    RULES.action(state, "P2", "accept")
    text = refused(state, "P1", "vote", "maybe")
    assert "yes, no or abstain" in text and "§Voting on Cards Distributed" in text


def test_parliament_proposal_of_a_titled_noble_for_a_title_l64(tmp_path: Path) -> None:
    state, w = _session(tmp_path)
    award(state, "earl_of_kent", "audley")
    text = refused(state, "P3", "propose", "audley")
    assert "already has a title" in text and "§Preparing to Play" in text


def test_refusal_reasons_hold_nothing_hidden_in_random_play() -> None:
    """Every kind of wrong order, in positions of random games, gives a refusal with no secret
    of the refused role (Rules.secrets) and changes nothing."""
    import random

    rnd = random.Random(3)
    for seed in (1, 2):
        state = new_game(players=4, rules="e1", seed=seed)
        w = W(state)
        for _ in range(150):
            if state["result"] is not None:
                break
            role = rnd.choice(RULES.active(state))
            legal = RULES.legal_actions(state, role)
            verbs = sorted({v for v, _ in legal})
            wrong = [(v, x) for v in verbs for x in ("AF23", "london", "percy", w.cards[rnd.randrange(len(w.cards))].id,
                                                     [w.cards[rnd.randrange(len(w.cards))].id, "percy"])]
            for verb, arg in rnd.sample(wrong, min(4, len(wrong))):
                if (verb, arg) in legal:
                    continue
                text = refused(state, role, verb, arg)
                for tag in RULES.secrets(state, role):
                    assert tag not in text
                assert ctag(0) not in text or ctag(0) not in RULES.secrets(state, role)
            verb, arg = rnd.choice(legal)
            RULES.action(state, role, verb, arg)


def test_every_decision_step_names_its_rule() -> None:
    """Every step a player answers names its rule in a refusal (Step.rule, declared on its class),
    but the automatic turn and Chance steps and the two setup placements."""
    missing = {name for name, step in RULES.steps.by_name.items() if not step.rule}
    assert missing <= {"turn", "chance", "purge", "place"}, missing


def test_a_ransom_answer_refusal_names_l283(tmp_path: Path) -> None:
    from tests.kingmaker.test_rulings import _captive

    state, _ = _captive(tmp_path)
    give_hand(state, 1, "earl_of_kent")
    RULES.action(state, "P1", "ransom", ["grey", 1])
    text = refused(state, "P2", "pay", 3)
    assert "(§Capture of Noble Counters)" in text and "You may: pay, refuse." in text


# ----- the reasons declared on the steps (the engine's Step.why_not and Step.rule) ---------
def test_every_step_declares_its_reasons_and_rule_through_the_engine_hooks() -> None:
    """No step writes its own refusal: each one's ``rule`` is declared on its class (none set
    on an instance from a table), and its reasons are ``why_not_<verb>`` methods."""
    import importlib.util

    from roses.engine.steps import Step

    assert importlib.util.find_spec("roses.games.kingmaker.refusals") is None
    for name, step in RULES.steps.by_name.items():
        assert type(step).refusal is Step.refusal and type(step).why_not is Step.why_not, name
        assert "rule" not in vars(step), name
    reasons = {name: sorted(step._reasons) for name, step in RULES.steps.by_name.items() if step._reasons}
    assert reasons == {
        "arrange": ["asset", "assign", "done", "give", "play"],
        "move": ["assign", "embark", "enter", "play", "sail", "select", "to"],
        "combat": ["assign", "play"], "crown": ["assign", "play"],
        "parliament": ["summon"], "session": ["attend", "open", "writ"], "attend": ["attend", "open", "writ"],
        "vote": ["vote"], "propose": ["propose"],
    }


@pytest.mark.parametrize(("step", "rule"), [
    ("combat", "§Combat Phase"), ("captive", "§Capture of Noble Counters"),
    ("pardon", "King's Pardon, §Crown Card Key"), ("spoils", "§Alliances, §Transfers"),
    ("scuttle", "E1 §Sea Battles"), ("storm_port", "Storms at Sea, §Event Card Key"),
    ("summons", "Raid and Revolt, §Chance Phase, §Event Card Key"),
    ("permit", "§Faction, §Ship Counters, §Town, Cities, and Castles"), ("crown", "§Crown Deck Phase"),
    ("parl_place", "§Calling Parliament"), ("deal", "§Transfers"), ("tabletop", "§Battle, §Siege"),
])
def test_a_steps_rule_is_its_class_attribute(step: str, rule: str) -> None:
    assert vars(type(RULES.steps[step]))["rule"] == rule


def test_a_move_out_of_reach_exact_reason_noble_counters(tmp_path: Path) -> None:
    """§Noble Counters: five squares by land; the question of the step keeps its own mark."""
    assert refused(_mover(tmp_path, "A6"), "P1", "to", "M6") == (
        "P1 cannot to M6 now: M6 is more than 5 squares from A6 by land (§Noble Counters) (a road is "
        "followed without limit only from a road square, until a neutral or unfriendly place, §Noble "
        "Counters). Now: Where does Percy move? You may: to, back.")


def test_a_malformed_argument_gets_the_generic_refusal(tmp_path: Path) -> None:
    """A reason that cannot read the argument gives none: the step's rule and options instead."""
    assert refused(_mover(tmp_path, "A6"), "P1", "embark", ["percy", ["x"]]) == (
        "P1 cannot embark ['percy', ['x']] now: embark is not a choice at this point (§Movement Phase). "
        "Now: Where does Percy move? You may: to, back.")


def test_select_enter_and_card_exact_reasons_alliances_faction_preparing_to_play(tmp_path: Path) -> None:
    state = staged(tmp_path)
    put(state, 0, "percy", "C3")
    put(state, 0, "audley", "C3")
    put(state, 1, "mowbray", "C2")
    give_hand(state, 0, "chancellor")
    turn_of(state, 0, dict(MOVE), stage=2)
    now = " Now: Movement: move nobles and ships, or end the phase. You may: select, assign, deal, end."
    assert refused(state, "P1", "select", "mowbray") == (
        "P1 cannot select mowbray now: Mowbray is not a noble of your faction in play nor under your "
        "command (§Alliances)." + now)
    assert refused(state, "P1", "enter", ["percy", "nottingham"]) == (
        "P1 cannot enter ['percy', 'nottingham'] now: Percy is not in the square of Nottingham (C4)." + now)
    assert refused(state, "P1", "assign", ["chancellor", "audley"]) == (
        "P1 cannot assign ['chancellor', 'audley'] now: Audley has no title: offices go to titled nobles "
        "only (§Preparing to Play)." + now)
    assert refused(state, "P1", "play", "chancellor") == (
        "P1 cannot play chancellor now: Chancellor of England is not a noble: it is given to a noble or to "
        "the faction (assign)." + now)


def test_arrange_done_too_soon_exact_reason_preparing_to_play() -> None:
    state = new_game(players=3, seed=4)
    step, frame = RULES.steps.current(state)
    assert step.why_not(state, frame, "P1", "done", None) == (
        "every title that can go to an untitled noble, every office that can go to a titled one, and every "
        "bishop, mercenary, town and ship card must be placed first (§Preparing to Play)")


def test_parliament_exact_reasons_voting_on_cards_distributed(tmp_path: Path) -> None:
    state, w = _session(tmp_path)
    RULES.action(state, "P3", "propose", "audley")
    RULES.action(state, "P1", "decline")
    assert refused(state, "P3", "propose", "audley") == (
        "P3 cannot propose audley now: Audley has declined it (§Voting on Cards Distributed): propose "
        "another. Now: Parliament: propose a recipient for Earl of Essex, or pass (default: pass). "
        "You may: propose, pass.")
    RULES.action(state, "P3", "propose", "grey")
    RULES.action(state, "P2", "accept")
    assert refused(state, "P1", "vote", "maybe") == (
        "P1 cannot vote maybe now: a ballot is yes, no or abstain (§Voting on Cards Distributed). Now: "
        "Parliament votes: That Grey receive Earl of Essex? (default: abstain). You may: vote.")


def test_a_writ_to_ones_own_noble_exact_reason_calling_parliament(tmp_path: Path) -> None:
    state, w = _session(tmp_path)
    session = RULES.steps["session"]
    frame = {"step": "session", "p": 2, "sq": "B5"}
    assert session.why_not(state, frame, "P3", "writ", "stafford") == (
        "a Writ summons another player's noble, not one's own (§Calling Parliament)")
    assert session.why_not(state, frame, "P3", "open", None) == (
        "Parliament opens once at least one noble of another player is summoned by a Writ (§Calling Parliament)")
    assert RULES.steps["attend"].why_not(state, frame, "P1", "attend", "mowbray") == "Mowbray is not of your faction"


def test_sail_embark_and_summon_exact_reasons_ship_counters_sea_transportation_calling_parliament(
        tmp_path: Path) -> None:
    state = staged(tmp_path)
    put(state, 0, "percy", "C3")
    turn_of(state, 0, dict(MOVE), stage=2)
    step, frame = RULES.steps.current(state)
    assert step.why_not(state, frame, "P1", "sail", "ship_trinity") == "the Trinity is not a ship your faction controls"
    assert step.why_not(state, frame, "P1", "embark", ["percy", "ship_trinity"]) == (
        "the Trinity must be in a port of Percy's square to embark him (§Sea Transportation)")
    assert RULES.steps["parliament"].why_not(state, {"step": "parliament", "p": 0}, "P1", "summon", "london") == (
        "only the player controlling the sole King, or the Chancellor's player holding a Parliament card when "
        "there are two Kings or none, may summon Parliament (§Calling Parliament)")
