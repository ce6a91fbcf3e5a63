"""Kingmaker hidden information (research §5 item 6): hands only to their holder, Chancery to
nobody, deck order to no one, Refuge turns hidden, Treachery picks face down; views and logs
scanned for the secrets, and determinisation keeps what a role knows."""

from __future__ import annotations

import random

from roses.engine.contract import OBSERVER, canonical_json
from roses.games.kingmaker import RULES
from roses.games.kingmaker.common import E_DECK, E_HAND, Z_CHANC, Z_DECK, Z_HAND
from roses.games.kingmaker.views import ctag, etag
from tests.kingmaker.helpers import new_game, play_out_setup


def _random_game(players: int, rules: str, seed: int, steps: int):
    state = new_game(players, rules, seed=seed)
    r = random.Random(seed)
    for _ in range(steps):
        if RULES.result(state) is not None:
            break
        role = r.choice(RULES.active(state))
        verb, arg = r.choice(RULES.legal_actions(state, role))
        RULES.action(state, role, verb, arg)
        yield state


def test_views_never_show_another_hand_chancery_or_deck_order() -> None:
    for state in _random_game(4, "e1", 21, 600):
        for p, role in enumerate([*state["roles"], OBSERVER]):
            text = canonical_json(RULES.view(state, role))
            for c, z in enumerate(state["cz"]):
                if z == Z_HAND and state["ch"][c] == p:
                    assert ctag(c) in text  # the holder sees his hand
                elif z in (Z_HAND, Z_DECK, Z_CHANC):
                    assert ctag(c) not in text
            for e, z in enumerate(state["ez"]):
                if z == E_HAND and state["eh"][e] == p:
                    assert etag(e) in text
                elif z in (E_HAND, E_DECK):
                    assert etag(e) not in text
            for token in RULES.secrets(state, role):
                assert token not in text


def test_drawn_crown_card_named_only_to_the_drawer() -> None:
    """L106: the Crown card drawn goes to the hand: only the drawer's log names it; the public
    line says only that a card was drawn."""
    state = list(_random_game(3, "basic", 5, 800))[-1]
    draws = [e for e in state["log"] if not isinstance(e, str) and e[1].startswith("You draw ")]
    assert draws
    for entry in draws:
        assert entry[0] in state["roles"]          # a private line
    public = [e[1] for e in state["log"] if not isinstance(e, str) and e[0] == ""]
    assert any(line.endswith("draws a Crown card.") for line in public)


def test_chancery_contents_are_hidden_from_everyone() -> None:
    state = play_out_setup(new_game(4, "basic", seed=8))
    for role in [*state["roles"], OBSERVER]:
        view = RULES.view(state, role)
        assert view["chancery"] == len(state["chancery"])
        for c in state["chancery"]:
            assert ctag(c) in RULES.secrets(state, role)


def test_determinize_keeps_own_hand_and_public_facts() -> None:
    states = list(_random_game(3, "e1", 33, 400))
    state = states[-1]
    for role in state["roles"]:
        p = state["roles"].index(role)
        d = RULES.determinize(state, role, 7)
        mine = [c for c, z in enumerate(state["cz"]) if z == Z_HAND and state["ch"][c] == p]
        assert [c for c, z in enumerate(d["cz"]) if z == Z_HAND and d["ch"][c] == p] == mine
        for q in range(3):
            count = sum(1 for c, z in enumerate(state["cz"]) if z == Z_HAND and state["ch"][c] == q)
            assert sum(1 for c, z in enumerate(d["cz"]) if z == Z_HAND and d["ch"][c] == q) == count
        assert len(d["cdeck"]) == len(state["cdeck"]) and len(d["chancery"]) == len(state["chancery"])
        assert RULES.view(d, role)["players"] == RULES.view(state, role)["players"]
        assert RULES.check_invariants(d) == []
        # two true states that look the same to the role give the same sample
        assert RULES.determinize(state, role, 7)["cdeck"] == d["cdeck"]
