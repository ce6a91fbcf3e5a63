"""The Kingmaker bots gather before a battle (ai._assault): an heir escorted by an enemy stack
is taken by defeating it (§Capture of Royal Heirs, L277; §Battle); the faction whose plan he is
attacks that stack only once its attackers there have ai.BATTLE_MARGIN times its strength, and
then attacks it."""

from __future__ import annotations

from roses.games.kingmaker import RULES, ai
from roses.games.kingmaker.common import W, faction_nobles, noble_strength, strength
from tests.kingmaker.test_bots import _first_movement
from tests.kingmaker.test_bots_plan import _bot_choice, _only_heirs


def test_a_faction_gathers_before_it_attacks_the_escort_of_its_heir_l277() -> None:
    """L277, §Battle: Henry VI escorted by the weakest noble of another player in the open.
    With only the weakest noble of the player to move beside him (the rest on their way), the
    bot's combat phase offers no battle against that stack; with the whole faction there (more
    than 1.5 times the escort), the battle against it is its only choice."""
    game = _first_movement()
    state = game.state
    w = W(state)
    p = state["stack"][-1]["p"]
    role = f"P{p + 1}"
    enemy = (p + 1) % 3
    escort = min(faction_nobles(state, enemy), key=lambda n: (noble_strength(state, n), n))
    mine = sorted((n for n in faction_nobles(state, p) if state["nsq"][n] is not None),
                  key=lambda n: (noble_strength(state, n), n))
    target = next(s for s in sorted(w.board.squares) if w.board.squares[s].land
                  and not w.board.places_at.get(s) and all(state["nsq"][n] != s for n in w.nobles))
    state["nsq"][escort], state["nin"][escort] = target, None
    _only_heirs(state, {"henry_vi": escort})
    away = next(s for s in sorted(w.board.land_distances(target)) if w.board.land_distances(target)[s] == 3
                and not w.board.places_at.get(s))
    for n in mine:
        state["nsq"][n], state["nin"][n] = away, None
    first = mine[0]
    state["nsq"][first] = target
    assert noble_strength(state, first) < ai.BATTLE_MARGIN * noble_strength(state, escort)
    assert ai.objective(state, p) == target
    state["stack"][-1] = {"step": "combat", "p": p}
    fight = [a for a in RULES.legal_actions(state, role) if a[0] in ("battle", "ambush") and a[1][0] == target]
    assert fight
    choices = ai.search_choices(state, role, RULES.legal_actions(state, role))
    assert not [a for a in choices if a in fight]
    assert ("end", None) in choices
    for n in mine:
        state["nsq"][n] = target
    assert strength(state, mine, attack=True) >= ai.BATTLE_MARGIN * noble_strength(state, escort)
    legal = RULES.legal_actions(state, role)
    assert ai.search_choices(state, role, legal) == [a for a in legal if a[0] == "battle" and a[1][0] == target]


def test_a_faction_with_its_king_crowned_executes_a_captured_rival_heir_l283() -> None:
    """L283 (§Capture of Noble Counters: a captured heir may be executed) and L404-415 (the last
    royal heir alive, crowned, wins): a faction holding Henry VI crowned and Richard of York
    captured executes Richard (each rival heir alive stands between it and victory), not its
    King."""
    game = _first_movement()
    state = game.state
    w = W(state)
    p = state["stack"][-1]["p"]
    role = f"P{p + 1}"
    escort = next(n for n in faction_nobles(state, p) if state["nsq"][n] is not None)
    _only_heirs(state, {"henry_vi": escort, "richard_of_york": escort, "edward_of_march": -1})
    state["hcrown"][w.heir_codec.id("henry_vi")] = True
    assert ("execute_heir", "henry_vi") in RULES.legal_actions(state, role)
    assert _bot_choice(state, role) == ("execute_heir", "richard_of_york")
