"""Bots at a Kingmaker table: the random bot and a search bot play through the rules contract
with the determiniser (roses.ai)."""

from __future__ import annotations

import pytest

from roses.ai.bot import Determinizer
from roses.ai.factory import make_bot
from roses.engine.contract import State, canonical_json
from roses.engine.game import Game
from roses.games.kingmaker import RULES, ai, evaluation
from roses.games.kingmaker.common import E_HAND, Z_NOBLE, W, heir_loc
from roses.games.kingmaker.play import event_deck


def test_random_and_search_bots_play_a_few_turns() -> None:
    game = Game.new(RULES, 3, "campaign", {"players": 3, "rules": "e1"})
    bots = {"P1": make_bot("random", seed=1), "P2": make_bot("ismcts:i5", seed=2), "P3": make_bot("random", seed=3)}
    for _ in range(250):
        if game.result() is not None:
            break
        role = game.active()[0]
        view = game.view(role)
        verb, arg = bots[role].choose(RULES, view, role, Determinizer.bind(RULES, game.state, role))
        game.apply(role, verb, arg)
    assert game.state["round"] >= 1
    game.replay()


def _play_whole_game(bot_name: str, players: int, rules: str, seed: int, rounds: int) -> tuple[Game, int]:
    """A whole game of ``bot_name`` bots (the round limit ``rounds``, ruling K50); returns the
    game and how many times a position recurred within one player's turn."""
    game = Game.new(RULES, seed, "campaign", {"players": players, "rules": rules, "rounds": rounds})
    bots = {role: make_bot(bot_name, seed=seed * 10 + i) for i, role in enumerate(game.state["roles"])}
    seen: set[tuple[int, str]] = set()
    recurred = 0
    for _ in range(6000):
        if game.result() is not None:
            break
        state = game.state
        key = (state["tno"], canonical_json({k: v for k, v in state.items() if k != "log"}))
        recurred += key in seen
        seen.add(key)
        role = game.active()[0]
        verb, arg = bots[role].choose(RULES, game.view(role), role, Determinizer.bind(RULES, state, role))
        game.apply(role, verb, arg)
    return game, recurred


@pytest.mark.parametrize(("bot_name", "players", "rules", "rounds"), [
    ("random", 3, "e1", 30), ("random", 4, "e2", 30), ("random", 2, "basic", 30),
    ("heuristic:1", 3, "e2", 3), ("ismcts:i4", 3, "e1", 2),
])
def test_bots_finish_whole_games_without_a_position_recurring_in_a_turn_k90(
        bot_name: str, players: int, rules: str, rounds: int) -> None:
    """Ruling K90: a round trip that changes nothing (select/back, sail/back, deal/back, leave
    and re-enter the same place, the same offer, an attack called off) is not offered again
    until the decision changes, so no bot (whose choice depends only on what it sees) can
    repeat a position within a turn, and every game reaches its end (victory or the round
    limit, K50)."""
    game, recurred = _play_whole_game(bot_name, players, rules, 7, rounds)
    assert recurred == 0
    assert game.result() is not None
    assert game.state["end"] in ("round_limit", "last_heir_crowned", "beaufort_crowned", "parliament")


def test_select_and_back_is_not_offered_again_until_something_changes_k90() -> None:
    """Ruling K90 (L122-183): backing out of a noble chosen to move removes him from the
    choices of this movement until another action changes the position."""
    game = Game.new(RULES, 3, "campaign", {"players": 3, "rules": "e1"})
    state = game.state
    for _ in range(400):  # to the first movement phase with a noble to move
        role = game.active()[0]
        legal = RULES.legal_actions(state, role)
        if state["stack"][-1]["step"] == "move" and any(v == "select" for v, _ in legal):
            break
        game.apply(role, *legal[-1] if legal[-1][0] == "end" else legal[0])
        state = game.state
    role = game.active()[0]
    noble = next(a for v, a in RULES.legal_actions(state, role) if v == "select")
    game.apply(role, "select", noble)
    game.apply(role, "back")
    assert ("select", noble) not in RULES.legal_actions(game.state, role)
    other = [a for a in RULES.legal_actions(game.state, role) if a[0] == "select"]
    if other:  # another noble moves: the position changed, the first may be chosen again
        game.apply(role, *other[0])
        to = next(a for a in RULES.legal_actions(game.state, role) if a[0] == "to")
        game.apply(role, *to)
        assert ("select", noble) in RULES.legal_actions(game.state, role)


def _first_movement() -> Game:
    """A 3-player E2 game played (first legal action each time) to its first movement phase."""
    game = Game.new(RULES, 5, "campaign", {"players": 3, "rules": "e2"})
    for _ in range(600):
        state = game.state
        if state["stack"] and state["stack"][-1]["step"] == "move":
            return game
        role = game.active()[0]
        legal = RULES.legal_actions(state, role)
        game.apply(role, *legal[-1] if legal[-1][0] == "end" else legal[0])
    raise AssertionError("no movement phase")


def _noble_of(state: State, p: int) -> int:
    w = W(state)
    return next(n for n in w.nobles if state["cz"][n] == Z_NOBLE and state["ch"][n] == p
                and state["nsq"][n] is not None and state["ncap"][n] < 0)


def test_evaluation_values_heirs_seniority_the_crown_and_rival_heirs_dead_l404() -> None:
    """L404-415: victory is the last royal heir, crowned. The evaluation rises with an heir
    held, more with the senior one of his house (the only one who may be crowned, L392), more
    again once he is crowned; it rises when a rival heir dies; and once his King is crowned a
    faction gains by executing the other heirs it holds (each stands between it and victory)."""
    state = _first_movement().state
    w = W(state)
    henry, margaret, york = (w.heir_codec.id(x) for x in ("henry_vi", "margaret", "richard_of_york"))
    for h in range(len(w.heirs)):
        state["hesc"][h], state["hcrown"][h] = -1, False
    base = evaluation.evaluate(state, "P1")
    state["hesc"][margaret] = _noble_of(state, 0)
    junior = evaluation.evaluate(state, "P1")
    state["hesc"][margaret] = -1
    state["hesc"][henry] = _noble_of(state, 0)
    senior = evaluation.evaluate(state, "P1")
    state["hcrown"][henry] = True
    crowned = evaluation.evaluate(state, "P1")
    assert base < junior < senior < crowned
    state["hdead"][york] = True  # a rival heir dies
    assert evaluation.evaluate(state, "P1") > crowned
    state["hesc"][margaret] = _noble_of(state, 0)  # a second heir held, besides the crowned King
    holding = evaluation.evaluate(state, "P1")
    state["hdead"][margaret], state["hesc"][margaret] = True, -1  # ... executed
    assert evaluation.evaluate(state, "P1") > holding
    # The other players see the same position from the other side.
    assert evaluation.evaluate(state, "P2") < 0 < evaluation.evaluate(state, "P1")
    terms = evaluation.evaluation_terms(state, "P1")
    assert terms["claim"] > 0 and terms["fallen"] > 0


def test_evaluation_is_the_result_once_the_game_is_over() -> None:
    state = _first_movement().state
    state["result"] = "P2"
    assert RULES.evaluate_all(state, ["P1", "P2", "P3"]) == {"P1": -1.0, "P2": 1.0, "P3": -1.0}


def test_bots_deal_only_in_their_crown_phase_and_ally_only_with_a_player_without_heirs() -> None:
    """Bots (ai.search_choices) do not open the dealing menu while moving; in the menu they
    propose an alliance only to a player who holds no heir (the evaluation's alliance term)."""
    game = _first_movement()
    state = game.state
    legal = RULES.legal_actions(state, "P" + str(state["stack"][-1]["p"] + 1))
    role = "P" + str(state["stack"][-1]["p"] + 1)
    assert ("deal", None) in legal
    assert ("deal", None) not in ai.search_choices(state, role, legal)
    game.apply(role, "deal")
    state = game.state
    p = state["stack"][-1]["p"]
    w = W(state)
    for h in range(len(w.heirs)):
        state["hesc"][h] = -1
    q = (p + 1) % 3
    state["hesc"][w.heir_codec.id("henry_vi")] = _noble_of(state, q)
    picked = ai.search_choices(state, role, RULES.legal_actions(state, role))
    allies = {a for v, a in picked if v == "ally"}
    assert "P" + str(q + 1) not in allies and "P" + str((p + 2) % 3 + 1) in allies


def test_bots_summon_parliament_with_their_own_king_or_none_crowned_l404() -> None:
    """L404: Parliament's support for a crowned King under one's control wins; a bot summons
    it (its Parliament phase) while it controls a crowned King. With no King crowned (the
    Chancellor's Parliament) it summons too: the summoner proposes first for every Chancery
    card and alone for the bishops (L355, L362). With another player's King crowned it passes."""
    state = _first_movement().state
    w = W(state)
    p = state["stack"][-1]["p"]
    role = f"P{p + 1}"
    actions = [("summon", "london"), ("summon", "york"), ("pass", None)]
    state["stack"].append({"step": "parliament", "p": p})
    for h in range(len(w.heirs)):
        state["hesc"][h], state["hcrown"][h] = -1, False
    assert ai.search_choices(state, role, actions) == [("summon", "london")]
    henry = w.heir_codec.id("henry_vi")
    state["hcrown"][henry] = True
    state["hesc"][henry] = _noble_of(state, (p + 1) % 3)
    assert ai.search_choices(state, role, actions) == [("pass", None)]
    state["hesc"][henry] = _noble_of(state, p)
    assert ai.search_choices(state, role, actions) == [("summon", "london")]


def _vote(state: State, motion: str, **session: object) -> None:
    state["stack"].append({"step": "session", "stage": "victory_done", **session})
    state["stack"].append({"step": "vote", "motion": motion, "text": "", "voters": [0, 1, 2], "ballots": {},
                           "choices": [], "votes": [[10, 0], [10, 0], [10, 0]]})


def test_bots_vote_for_their_own_king_and_against_another_l404() -> None:
    """L404: Parliament's support for a crowned King wins the game. A bot votes for its own
    King and against another player's (the vote is simultaneous, so a search sees no
    difference between its ballots: ai.search_choices decides), and on a Chancery card for
    its own noble and against another faction's (L364)."""
    state = _first_movement().state
    ballots = [("vote", "yes"), ("vote", "no"), ("vote", "abstain")]
    _vote(state, "victory", victor=1)
    assert ai.search_choices(state, "P2", ballots) == [("vote", "yes")]
    assert ai.search_choices(state, "P1", ballots) == [("vote", "no")]
    assert ai.search_choices(state, "P3", ballots) == [("vote", "no")]
    del state["stack"][-2:]
    mine = _noble_of(state, 2)
    _vote(state, "award", recipient=mine)
    assert ai.search_choices(state, "P3", ballots) == [("vote", "yes")]
    assert ai.search_choices(state, "P1", ballots) == [("vote", "no")]


def _free_heirs(state: State) -> None:
    """Every heir alive, uncrowned and held by no one, where he stands."""
    w = W(state)
    for h in range(len(w.heirs)):
        if state["hesc"][h] >= 0:
            sq, inside, _ = heir_loc(state, h)
            state["hsq"][h], state["hin"][h], state["hesc"][h] = sq, inside, -1
        state["hdead"][h], state["hcrown"][h] = False, False


def test_evaluation_draws_a_force_to_an_heir_it_can_take_l277() -> None:
    """L277 (§Capture of Royal Heirs): an heir held by no one is taken by standing with him (in
    a place, after a siege). The evaluation's reach rises as a faction's nobles close on such an
    heir, and taking him is worth more than standing next to him: the heuristic bot marches on
    the heirs instead of sitting still."""
    state = _first_movement().state
    _free_heirs(state)
    w = W(state)
    b = w.board
    henry = w.heir_codec.id("henry_vi")
    n = _noble_of(state, 0)
    state["hsq"][henry], state["hin"][henry] = state["nsq"][n], None  # Henry alone in the open
    target = state["hsq"][henry]
    dist = b.land_distances(target)
    far = max((s for s in sorted(dist) if dist[s] < evaluation.REACH_STEPS and s in b.squares), key=dist.__getitem__)
    near = next(s for s in sorted(dist) if dist[s] == 1)
    values = []
    for sq in (far, near):
        state["nsq"][n], state["nin"][n] = sq, None
        values.append(evaluation.evaluation_terms(state, "P1")["reach"])
    state["nsq"][n] = target
    state["hesc"][henry] = n  # taken
    taken = evaluation.evaluate(state, "P1")
    state["hesc"][henry] = -1
    beside = evaluation.evaluate(state, "P1")
    assert 0 < values[0] < values[1]
    assert taken > beside


def test_evaluation_values_the_kings_road_to_parliament_l404() -> None:
    """L404, §Calling Parliament: the holder of a crowned King wins by a Parliament majority he
    summons with a Writ, his King in a town or city. His evaluation rises with his King inside
    such a place and with a Writ in hand."""
    state = _first_movement().state
    _free_heirs(state)
    w = W(state)
    b = w.board
    henry = w.heir_codec.id("henry_vi")
    n = _noble_of(state, 0)
    state["hcrown"][henry] = True
    state["hesc"][henry] = n
    london = "london"
    state["nsq"][n], state["nin"][n] = b.places[london].square, None
    state["pown"][london] = 0
    outside = next(s for s in sorted(b.squares) if not b.places_at.get(s))
    state["nsq"][n] = outside
    away = evaluation.evaluation_terms(state, "P1")["parliament"]
    state["nsq"][n], state["nin"][n] = b.places[london].square, london
    inside = evaluation.evaluation_terms(state, "P1")["parliament"]
    writ = next(e for e, c in enumerate(event_deck(state).cards) if c.kind == "writ")
    state["ez"][writ], state["eh"][writ] = E_HAND, 0
    ready = evaluation.evaluation_terms(state, "P1")["parliament"]
    assert 0 < away < inside < ready


def test_heuristic_bot_holding_a_crowned_king_wins_by_parliament_against_random_bots_l404() -> None:
    """L404 (§Victory Conditions), §Calling Parliament: a faction holding the sole crowned King
    in a town, with a Writ and a Commons majority, wins by Parliament. The heuristic bot
    (against two random bots) must carry it through: keep its King where Parliament may meet,
    summon it in its Parliament phase, present the Writ, attend, and vote for its King."""
    game = _first_movement()
    state = game.state
    w = W(state)
    b = w.board
    p = state["stack"][-1]["p"]
    _free_heirs(state)
    henry = w.heir_codec.id("henry_vi")
    n = _noble_of(state, p)
    state["hcrown"][henry], state["hesc"][henry] = True, n
    state["nsq"][n], state["nin"][n] = b.places["london"].square, "london"
    for pl in sorted(b.places):  # a Commons majority: the towns and cities are his
        if b.places[pl].commons is not None:
            state["pown"][pl] = p
    writ = next(e for e, c in enumerate(event_deck(state).cards) if c.kind == "writ")
    state["ez"][writ], state["eh"][writ] = E_HAND, p
    roles = state["roles"]
    bots = {role: make_bot("heuristic" if i == p else "random", seed=i) for i, role in enumerate(roles)}
    start = state["round"]
    for _ in range(3000):
        if game.result() is not None or game.state["round"] > start + 1:
            break
        role = game.active()[0]
        verb, arg = bots[role].choose(RULES, game.view(role), role, Determinizer.bind(RULES, game.state, role))
        game.apply(role, verb, arg)
    assert game.result() == roles[p]
    assert game.state["end"] == "parliament"
