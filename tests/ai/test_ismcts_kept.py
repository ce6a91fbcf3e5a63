"""ISMCTS keeps the states its iterations reach at well-visited nodes, per determinisation,
and starts later iterations on the same determinisation from them (ISMCTSBot.kept): a state
reached without a die rolled or a card shuffled depends only on the determinisation and the
actions, so the search is the same with or without them: same move, same statistics, same
visits and values at the root."""

from __future__ import annotations

import random
from typing import Any

from roses.ai.bot import Determinizer
from roses.ai.ismcts import ISMCTSBot, Node
from roses.ai.sim import acting
from roses.engine.fuzz import game_seed
from roses.games.richard3 import RULES


def _positions() -> list[tuple[dict[str, Any], str]]:
    """Positions of random Richard III games with a choice: Action Phases, battles (dice at
    every fire), supply, cards."""
    picker = random.Random(4)
    out: list[tuple[dict[str, Any], str]] = []
    for index in range(3):
        state = RULES.setup(game_seed(2, index), "richard-iii")
        while (turn := acting(RULES, state)) is not None:
            role, legal = turn
            if len(legal) > 1 and picker.random() < 0.06:
                out.append((RULES.copy_state(state), role))
            state = RULES.action(state, role, *legal[picker.randrange(len(legal))])
    return out


def _kept_states(node: Node) -> int:
    return len(node.kept or ()) + sum(_kept_states(c) for c in node.children.values())


def _search(settings: dict[str, Any], state: dict[str, Any], role: str,
            roots: list[Node] | None = None) -> tuple[Any, ...]:
    roots = [] if roots is None else roots
    bot = ISMCTSBot(**settings)
    bot.on_root = roots.append  # the decision's root, for its children
    d = bot.decide(RULES, RULES.view(state, role), role, Determinizer.bind(RULES, state, role))
    children = sorted((str(k), n.visits, n.avail, n.total) for k, n in roots[0].children.items()) if roots else []
    stats = {k: v for k, v in d.stats.items() if k != "seconds"}
    return d.action, stats, children


def test_kept_states_leave_the_search_unchanged() -> None:
    positions = _positions()
    assert len(positions) >= 10
    used = 0
    for state, role in positions:
        plain = _search({"seed": 9, "iterations": 400, "kept": 0}, state, role)
        kept = {"seed": 9, "iterations": 400, "keep_after": 1}  # keep at every node visited before
        roots: list[Node] = []
        assert _search(kept, state, role, roots) == plain
        used += bool(roots) and _kept_states(roots[0]) > 0
    assert used >= len(positions) // 2
