"""A finished game's view says who won and by which rule (5.1-5.3, 6.0), read from the final
position left as it ended; an unfinished game's view has no end."""

from __future__ import annotations

import random

from roses.engine import Game, get_rules
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.common import end_game
from roses.games.plantagenet.records import Where
from roses.games.plantagenet.setup import threshold

RULES = get_rules("plantagenet")
AVOID = {"remove", "cancel", "leave", "disband", "exile", "undo"}


def _finished(scenario: str, seed: int) -> Game:
    game = Game.new(RULES, seed, scenario, {"hidden_mats": True})
    rnd = random.Random(seed)
    while game.result() is None:
        role = game.active()[0]
        legal = RULES.legal_actions(game.state, role)
        good = [a for a in legal if a[0] not in AVOID] or legal
        marches = [a for a in good if a[0] == "march"]
        game.apply(role, *(rnd.choice(marches) if marches and rnd.random() < 0.7 else rnd.choice(good)))
    return game


def test_no_end_while_the_game_goes_on() -> None:
    game = Game.new(RULES, 1, "ia-henry-vi", {})
    assert RULES.view(game.state, "York")["end"] is None


def test_campaign_victory_5_1_names_the_side_without_lords() -> None:
    """5.1: an Ia game that ends when Lancaster has no Lord on the map (the first such seed of
    random play): York wins by 5.1, and both sides' views and the observer's say so, with the
    board left as it ended."""
    game = next(g for g in (_finished("ia-henry-vi", seed) for seed in range(1, 40))
                if sv.lacks_lords(g.state, "Lancaster") and not sv.lacks_lords(g.state, "York"))
    assert game.result() == "York"
    assert sv.lacks_lords(game.state, "Lancaster") and not sv.lacks_lords(game.state, "York")
    for role in ("York", "Lancaster", "Observer"):
        end = RULES.view(game.state, role)["end"]
        assert end == {"winner": "York", "rule": "5.1", "title": "Campaign Victory",
                       "why": "Lancaster had no Lords left on the map (and none coming back from Exile): York wins."}
    assert any(d["where"] == Where.MAP for d in game.state["lords"].values())  # York's Lords still stand


def test_threshold_victory_5_2_and_scenario_end_5_3() -> None:
    game = Game.new(RULES, 2, "ia-henry-vi", {})
    state = game.state
    limit = threshold(state)
    assert limit is not None
    state["influence"] = -limit  # Lancaster at the threshold (5.2)
    end_game(state, "Lancaster")
    end = RULES.view(state, "York")["end"]
    assert (end["winner"], end["rule"], end["title"]) == ("Lancaster", "5.2", "Threshold Victory")
    assert f"reached {limit} Influence" in end["why"]
    # the last Turn over with York ahead by 3 (5.3)
    state = Game.new(RULES, 2, "ia-henry-vi", {}).state
    state["box"] = state["last_box"]
    state["influence"] = 3
    end_game(state, "York")
    end = RULES.view(state, "Lancaster")["end"]
    assert (end["rule"], end["why"]) == ("5.3", "The scenario's last Turn ended with York ahead by 3 Influence.")


def test_test_of_arms_and_bosworth_6_0() -> None:
    """Ib's Test of Arms (Favour at York decides) and Bosworth (the Battle decides)."""
    towton = _finished("ib-towton", 7)
    end = RULES.view(towton.state, "York")["end"]
    assert (end["rule"], end["title"], end["winner"]) == ("6.0", "Test of Arms", towton.result())
    bosworth = _finished("bosworth", 1)
    end = RULES.view(bosworth.state, "York")["end"]
    assert (end["rule"], end["title"], end["winner"]) == ("6.0", "Bosworth", bosworth.result())
    assert end["why"] == f"The Battle of Bosworth decides the scenario: {bosworth.result()} won the Battle."
