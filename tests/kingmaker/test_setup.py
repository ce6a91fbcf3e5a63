"""Kingmaker setup (campaign rules L51-112; research §7.2 situations 1-3)."""

from __future__ import annotations

import pytest

from roses.engine.errors import BadOptions, IllegalAction
from roses.engine.registry import available_games, get_rules
from roses.games.kingmaker import RULES
from roses.games.kingmaker import cards as K
from roses.games.kingmaker.common import (
    Z_ASIDE,
    Z_AWARD,
    Z_CHANC,
    Z_DECK,
    Z_HAND,
    Z_NOBLE,
    W,
)
from roses.games.kingmaker.setup import first_player
from tests.kingmaker.helpers import hand_ids, new_game, play_out_setup

SET_ASIDE = {K.PLANTAGENET, K.FRENCH_AID, K.PARDON}


def test_registered_and_offered_in_the_lobby() -> None:
    """Every checklist item is built and the fuzz matrix is clean (docs/kingmaker/coverage.md),
    so Kingmaker is no longer a preview game: the lobby offers it without the preview switch."""
    assert "kingmaker" in available_games()
    rules = get_rules("kingmaker")
    assert rules.preview is False
    assert rules.roles("campaign", {"players": 5}) == ["P1", "P2", "P3", "P4", "P5"]
    assert set(rules.options_schema()) >= {"players", "rules", "rounds", "event_deck"}


@pytest.mark.parametrize("bad", [{"players": 1}, {"players": 9}, {"rules": "e3"}, {"colour": "red"}])
def test_bad_options_are_refused(bad: dict) -> None:
    with pytest.raises(BadOptions):
        RULES.setup(1, "campaign", bad)


@pytest.mark.parametrize(("players", "dealt", "each"), [(2, 36, 18), (4, 36, 9), (5, 36, 7), (6, 36, 6),
                                                       (7, 35, 5), (8, 40, 5)])
@pytest.mark.parametrize("level", ["basic", "e1", "e2"])
def test_deal_sizes_l59_situation_1(players: int, dealt: int, each: int, level: str) -> None:
    """§7.2 situation 1 (L55-70): 36/35/40 cards dealt evenly (ruling K1: 5 players get 7
    each, the 36th stays in the deck); no hand holds a set-aside card."""
    state = new_game(players, level, seed=players)
    w = W(state)
    for p in range(players):
        held = [c for c in range(len(w.cards)) if state["ch"][c] == p and state["cz"][c] in (Z_HAND, Z_NOBLE)]
        assert len(held) >= each
        # a player dealt no noble draws nobles until he has one (L67): only nobles are added
        extra_nobles = len(held) - each
        if extra_nobles:
            assert sum(1 for c in held if w.cards[c].is_noble) == 1
        for c in held:
            assert w.cards[c].kind not in SET_ASIDE
            assert not w.cards[c].lies_in  # Scottish Foot (E1), Irish Kerns (E2)
    in_deck = [c for c in range(len(w.cards)) if state["cz"][c] == Z_DECK]
    assert sorted(in_deck) == sorted(state["cdeck"])
    # The set-aside cards are back in the deck (L70), the Plantagenets excepted (ruling K5).
    for c, card in enumerate(w.cards):
        if card.kind in (K.FRENCH_AID, K.PARDON) or (card.lies_in and K.LEVELS.index(card.level) <= K.LEVELS.index(level)):
            assert state["cz"][c] == Z_DECK
        if card.kind == K.PLANTAGENET:
            assert state["cz"][c] == Z_ASIDE


def test_basic_seven_players_deck_size() -> None:
    """§7.2 situation 1: a basic 7-player game deals 35 of the 77 cards; the Crown deck then
    holds 77 - 35 - 2 Plantagenets (ruling K5) - any nobles drawn for a player dealt none."""
    state = new_game(7, "basic", seed=3)
    w = W(state)
    dealt = sum(1 for c in range(len(w.cards)) if state["cz"][c] in (Z_HAND, Z_NOBLE))
    assert len(state["cdeck"]) == 77 - dealt - 2
    assert dealt >= 35


def _arrange_hand(state, p, ids):
    """Give player p exactly the cards ``ids`` (others back to the deck), during the arrangement."""
    w = W(state)
    for c in range(len(w.cards)):
        if state["ch"][c] == p and state["cz"][c] in (Z_HAND, Z_NOBLE):
            state["cz"][c], state["ch"][c] = Z_DECK, -1
            state["cdeck"].append(c)
    for cid in ids:
        c = w.cid(cid)
        if c in state["cdeck"]:
            state["cdeck"].remove(c)
        state["cz"][c] = Z_NOBLE if w.cards[c].is_noble else Z_HAND
        state["ch"][c] = p


def test_titles_and_offices_situation_2() -> None:
    """§7.2 situation 2 (L60-66): untitled A, B and titled C; titles T1-T3, offices O1-O4.
    A and B get one title each, the third goes to Chancery; A, B and C get one office each,
    the fourth goes to Chancery; a second title for A is refused."""
    state = new_game(2, "basic", seed=5)
    w = W(state)
    # Clear player 2's cards so they cannot collide with player 1's test hand.
    other = [c for c in range(len(w.cards)) if state["ch"][c] == 1 and state["cz"][c] in (Z_HAND, Z_NOBLE)]
    hand = ["audley", "berkeley", "percy", "earl_of_kent", "earl_of_essex", "duke_of_exeter",
            "marshal", "treasurer", "admiral", "chancellor"]
    for c in other:
        if w.cards[c].id in hand:
            state["cz"][c], state["ch"][c] = Z_DECK, -1
            state["cdeck"].append(c)
    if not any(state["cz"][n] == Z_NOBLE and state["ch"][n] == 1 for n in w.nobles):
        n = next(n for n in w.nobles if w.cards[n].id not in hand and state["cz"][n] == Z_DECK)
        state["cdeck"].remove(n)
        state["cz"][n], state["ch"][n] = Z_NOBLE, 1
    _arrange_hand(state, 0, hand)
    RULES.action(state, "P1", "give", ["earl_of_kent", "audley"])
    with pytest.raises(IllegalAction):
        RULES.action(state, "P1", "give", ["earl_of_essex", "audley"])  # one title each
    with pytest.raises(IllegalAction):
        RULES.action(state, "P1", "done")  # a title can still go to Berkeley
    RULES.action(state, "P1", "give", ["earl_of_essex", "berkeley"])
    for office, noble in (("marshal", "audley"), ("treasurer", "berkeley"), ("admiral", "percy")):
        RULES.action(state, "P1", "give", [office, noble])
    with pytest.raises(IllegalAction):
        RULES.action(state, "P1", "give", ["chancellor", "percy"])  # one office each
    RULES.action(state, "P1", "done")
    assert state["cz"][w.cid("duke_of_exeter")] == Z_CHANC
    assert state["cz"][w.cid("chancellor")] == Z_CHANC
    assert state["cz"][w.cid("earl_of_kent")] == Z_AWARD and state["ch"][w.cid("earl_of_kent")] == w.cid("audley")
    assert hand_ids(state, 0) == []


def test_first_player_senior_bishop_situation_3() -> None:
    """§7.2 situation 3 (L98-100): nobody holds the Chancellor; P2 holds the Bishop of
    Durham, P4 the Archbishop of York: P4 plays first."""
    state = play_out_setup(new_game(4, "basic", seed=7))
    w = W(state)
    for c in range(len(w.cards)):
        if w.cards[c].kind in (K.BISHOP, K.OFFICE) and state["cz"][c] == Z_AWARD:
            state["cz"][c], state["ch"][c] = Z_DECK, -1
            state["cdeck"].append(c)
    p2 = next(n for n in w.nobles if state["cz"][n] == Z_NOBLE and state["ch"][n] == 1)
    p4 = next(n for n in w.nobles if state["cz"][n] == Z_NOBLE and state["ch"][n] == 3)
    for cid, n in (("bishop_of_durham", p2), ("archbishop_of_york", p4)):
        c = w.cid(cid)
        state["cdeck"].remove(c)
        state["cz"][c], state["ch"][c] = Z_AWARD, n
    assert first_player(state) == 3
    c = w.cid("chancellor")
    state["cdeck"].remove(c)
    state["cz"][c], state["ch"][c] = Z_AWARD, p2
    assert first_player(state) == 1


def test_setup_reaches_the_first_turn_with_every_noble_placed() -> None:
    state = play_out_setup(new_game(3, "basic", seed=11))
    w = W(state)
    assert state["round"] == 1
    for n in w.nobles:
        if state["cz"][n] == Z_NOBLE:
            assert state["nsq"][n] is not None
    henry = w.heir_codec.id("henry_vi")
    assert state["hcrown"][henry]  # L420
    assert RULES.check_invariants(state) == []
