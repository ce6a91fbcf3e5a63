"""ISMCTS keeps, per determinisation, who moves at a node and with which actions
(ISMCTSBot.turns) where the node was reached without a draw from the generator: they depend
only on the determinisation and the actions, so later iterations on it through the node read
them instead of listing the actions again. The search is the same with or without: same move,
same statistics, same visits, availabilities and values at the root; only fewer menus are made."""

from __future__ import annotations

import random
from typing import Any

import pytest

from roses.ai import ismcts
from roses.ai.bot import Determinizer
from roses.ai.ismcts import ISMCTSBot, Node
from roses.engine.contract import Rules
from roses.engine.fuzz import game_seed
from roses.engine.registry import get_rules
from tests.ai.positions import random_positions


def _positions(rules: Rules, scenario: str, games: int, rate: float) -> list[tuple[dict[str, Any], str]]:
    return random_positions(rules, scenario, seed=2, picker=4, games=games, steps=400, rate=rate)


def _turns_kept(node: Node) -> int:
    return len(node.turns or ()) + sum(_turns_kept(c) for c in node.children.values())


def _search(rules: Rules, settings: dict[str, Any], state: dict[str, Any],
            role: str) -> tuple[tuple[Any, ...], int, int]:
    """The search's move, statistics and root children; how many menus it made; how many
    turns it kept."""
    bot = ISMCTSBot(**settings)
    roots: list[Node] = []
    bot.on_root = roots.append  # the decision's root, for its children
    menus = [0]

    def counting_reader(rules: Rules) -> Any:  # the search's own, each call counted
        turn = ismcts._turn_reader(rules)

        def counted(st: Any) -> Any:
            menus[0] += 1
            return turn(st)

        return counted

    bot.turn_reader = counting_reader
    d = bot.decide(rules, rules.view(state, role), role, Determinizer.bind(rules, state, role))
    children = sorted((str(k), n.visits, n.avail, n.total) for k, n in roots[0].children.items()) if roots else []
    stats = {k: v for k, v in d.stats.items() if k != "seconds"}
    return (d.action, stats, children), menus[0], _turns_kept(roots[0]) if roots else 0


@pytest.mark.parametrize("game,scenario,games,rate", [("richard3", "richard-iii", 2, 0.08),
                                                      ("plantagenet", "ia-henry-vi", 3, 0.08)])
def test_kept_turns_leave_the_search_unchanged(game: str, scenario: str, games: int, rate: float) -> None:
    rules = get_rules(game)
    positions = _positions(rules, scenario, games, rate)
    assert len(positions) >= 8
    saved = kept_somewhere = 0
    for state, role in positions:
        plain, plain_menus, none_kept = _search(rules, {"seed": 9, "iterations": 300, "turns": 0}, state, role)
        assert none_kept == 0
        found, menus, kept = _search(rules, {"seed": 9, "iterations": 300}, state, role)
        assert found == plain
        assert menus <= plain_menus
        saved += plain_menus - menus
        kept_somewhere += kept > 0
    assert kept_somewhere >= len(positions) // 2
    assert saved > 0


def test_kept_turns_stop_at_their_budget() -> None:
    """At most ``turns`` turns are kept in a decision; the search is still the same."""
    rules = get_rules("plantagenet")
    state, role = _positions(rules, "ia-henry-vi", 1, 0.1)[0]
    plain, _, _ = _search(rules, {"seed": 3, "iterations": 200, "turns": 0}, state, role)
    few, _, kept = _search(rules, {"seed": 3, "iterations": 200, "turns": 5}, state, role)
    assert few == plain
    assert kept == 5


@pytest.mark.parametrize("game,scenario", [("richard3", "richard-iii"), ("plantagenet", "ia-henry-vi"),
                                           ("plantagenet", "bosworth"), ("kingmaker", "campaign")])
def test_the_search_reads_each_turn_as_search_acting(game: str, scenario: str) -> None:
    """The search reads who moves and with which actions as roses.ai.sim.search_acting does
    (Plantagenet straight from its current step; the games that keep their options through
    search_acting itself), at every position of random games, to their end."""
    rules = get_rules(game)
    turn_of = ismcts._turn_reader(rules)
    picker = random.Random(6)
    seen = 0
    for index in range(3):
        state = rules.setup(game_seed(3, index), scenario)
        for _ in range(600):
            expected = ismcts.search_acting(rules, state)
            assert turn_of(state) == expected
            seen += 1
            if expected is None:
                break
            role, legal = expected
            state = rules.action(state, role, *legal[picker.randrange(len(legal))])
    assert seen > 100
