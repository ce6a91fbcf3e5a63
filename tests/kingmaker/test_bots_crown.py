"""The Kingmaker bots' coronation plan (ai.plan): the senior heir of an uncrowned house is crowned
inside a cathedral with an archbishop or two bishops (§Coronation Phase, L392-396). A bot picks
a cathedral it can take (§Siege, L222), takes one another faction holds by siege or storm, and
goes into its own."""

from __future__ import annotations

from roses.engine.contract import State
from roses.engine.game import Game
from roses.games.kingmaker import RULES, ai, evaluation
from roses.games.kingmaker import cards as K
from roses.games.kingmaker.common import Z_AWARD, W, faction_nobles, noble_strength
from tests.kingmaker.test_bots import _first_movement
from tests.kingmaker.test_bots_plan import _bot_choice, _only_heirs


def _crowning() -> tuple[Game, int, int]:
    """The first movement of a 3-player E2 game: Henry VI crowned in London, Richard of York (the
    senior heir of York, uncrowned) escorted by the strongest noble of the player to move, who
    holds an archbishop; every noble of that player beside the escort."""
    game = _first_movement()
    state = game.state
    w = W(state)
    b = w.board
    p = state["stack"][-1]["p"]
    escort = max(faction_nobles(state, p), key=lambda n: (noble_strength(state, n), -n))
    _only_heirs(state, {"richard_of_york": escort, "henry_vi": -1})
    henry = w.heir_codec.id("henry_vi")
    state["hcrown"][henry] = True
    state["hsq"][henry], state["hin"][henry] = b.places["london"].square, "london"
    arch = next(c for c in range(len(w.cards)) if w.cards[c].kind == K.BISHOP and w.cards[c].archbishop)
    state["cz"][arch], state["ch"][arch] = Z_AWARD, escort
    for n in faction_nobles(state, p):
        if state["nsq"][n] is not None:
            state["nsq"][n], state["nin"][n] = state["nsq"][escort], None
    return game, p, escort


def _total(state: State, p: int) -> int:
    return sum(noble_strength(state, n) for n in faction_nobles(state, p) if state["nsq"][n] is not None)


def _neutral_cathedrals(state: State) -> None:
    for pl in evaluation._cathedrals(state):
        state["pown"][pl] = -1


def test_a_cathedral_beyond_the_factions_strength_is_not_the_plan_l222() -> None:
    """L222 (§Siege) and L392-396: a cathedral the faction does not hold must be taken by a
    siege at least as strong as its garrison. The faction (160 troops) stands by Chichester
    (one step; garrison 200): with every cathedral neutral, its plan is Salisbury (five steps,
    garrison 0), not Chichester nor Winchester (three steps, garrison 200); once Chichester is
    the faction's own, Chichester."""
    game, p, escort = _crowning()
    state = game.state
    b = W(state).board
    _neutral_cathedrals(state)
    assert _total(state, p) < b.places["chichester"].garrison
    assert evaluation._travel(state, state["nsq"][escort])[b.places["chichester"].square] == 1
    assert ai.plan(state, p) == (b.places["salisbury"].square, "salisbury")
    state["pown"]["chichester"] = p
    assert ai.plan(state, p) == (b.places["chichester"].square, "chichester")


def _at_salisbury(owner: int | None) -> tuple[Game, int, str]:
    game, p, _escort = _crowning()
    state = game.state
    b = W(state).board
    _neutral_cathedrals(state)
    if owner is not None:
        state["pown"]["salisbury"] = p if owner == 0 else (p + 1) % 3
    sq = b.places["salisbury"].square
    for n in faction_nobles(state, p):
        if state["nsq"][n] is not None:
            state["nsq"][n], state["nin"][n] = sq, None
    return game, p, sq


def test_the_bot_besieges_the_cathedral_of_its_plan_l222() -> None:
    """L222 (§Siege), L392-396: the faction's nobles with its senior heir stand before Salisbury,
    a neutral cathedral (it cannot simply go in): in its combat phase the bot besieges or storms
    Salisbury, nothing else (not ending its combat phase)."""
    game, p, _sq = _at_salisbury(None)
    state = game.state
    role = f"P{p + 1}"
    state["stack"][-1] = {"step": "combat", "p": p}
    legal = RULES.legal_actions(state, role)
    assert ("siege", "salisbury") in legal and ("end", None) in legal
    choices = ai.search_choices(state, role, legal)
    assert choices and all(v in ("siege", "storm") and a == "salisbury" for v, a in choices)
    verb, arg = _bot_choice(state, role)
    assert (verb, arg) in choices


def test_the_nobles_go_into_their_own_cathedral_of_the_plan_l394() -> None:
    """L392-396: before Salisbury, the faction's own cathedral, the bot takes its nobles (the
    escort of the heir among them) inside, where the coronation phase may crown him."""
    game, p, sq = _at_salisbury(0)
    state = game.state
    role = f"P{p + 1}"
    assert ai.plan(state, p) == (sq, "salisbury")
    choices = ai.search_choices(state, role, RULES.legal_actions(state, role))
    assert choices and all(v == "enter" and a[1] == "salisbury" for v, a in choices)


def test_the_bot_fights_the_siege_of_its_plan_without_calling_it_off_l222() -> None:
    """L222 (§Siege): before the draw, the attacker may leave nobles out or call the attack
    off. The bot that besieges the cathedral of its plan fights with all its nobles: fighting
    is its only choice (not calling it off, nobody left out)."""
    game, p, _sq = _at_salisbury(None)
    role = f"P{p + 1}"
    game.state["stack"][-1] = {"step": "combat", "p": p}
    game.apply(role, "siege", "salisbury")
    state = game.state
    assert state["stack"][-1]["step"] == "battle"
    legal = RULES.legal_actions(state, role)
    assert ("call_off", None) in legal and ("fight", None) in legal
    assert ai.search_choices(state, role, legal) == [("fight", None)]


def test_the_bot_besieges_a_cathedral_it_matches_and_storms_only_with_a_margin_l222() -> None:
    """L222 (§Siege): a siege needs the garrison matched and always succeeds but on Bad Weather
    (E1/E2: resolved the next turn); a storm is a battle, and one that fails costs nobles.
    Before a neutral Salisbury whose garrison equals their strength, the faction's nobles
    besiege it (not storm it, nor end the combat phase); with 1.5 times its defence they
    besiege or storm. (Salisbury's garrison is set on the board for the test and restored after.)"""
    game, p, sq = _at_salisbury(None)
    state = game.state
    w = W(state)
    role = f"P{p + 1}"
    state["stack"][-1] = {"step": "combat", "p": p}
    mine = [n for n in faction_nobles(state, p) if state["nsq"][n] == sq]
    power = sum(noble_strength(state, n) for n in mine)
    garrison = power  # the defence equal to the attack: a siege is offered, no margin
    place = w.board.places["salisbury"]
    original = place.garrison
    object.__setattr__(place, "garrison", garrison)  # the board is shared: restored below
    try:
        assert ai.plan(state, p) == (sq, "salisbury")
        legal = RULES.legal_actions(state, role)
        assert ("siege", "salisbury") in legal and ("storm", "salisbury") in legal and ("end", None) in legal
        assert ai.search_choices(state, role, legal) == [("siege", "salisbury")]
        game.apply(role, "siege", "salisbury")
        legal = RULES.legal_actions(game.state, role)
        assert ("call_off", None) in legal
        assert ai.search_choices(game.state, role, legal) == [("fight", None)]
    finally:
        object.__setattr__(place, "garrison", original)
    game, p, sq = _at_salisbury(None)
    state = game.state
    state["stack"][-1] = {"step": "combat", "p": p}
    object.__setattr__(place, "garrison", int(power / ai.BATTLE_MARGIN))
    try:
        legal = RULES.legal_actions(state, role)
        choices = ai.search_choices(state, role, legal)
        assert set(choices) == {("siege", "salisbury"), ("storm", "salisbury")}
    finally:
        object.__setattr__(place, "garrison", original)
