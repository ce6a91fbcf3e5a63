"""Determinism that survives storage: a state read back from the store (JSON with sorted keys)
plays on byte for byte like the one kept in memory, for every game (``roses fuzz
--reload-check``), and the Plantagenet rules that followed a dict's order no longer do."""

from __future__ import annotations

import json
from typing import Any

import pytest

from roses.engine import get_rules
from roses.engine.contract import canonical_json
from roses.engine.fuzz import divergence, fuzz, reloaded
from roses.games.plantagenet import arts
from roses.games.plantagenet import effects as fx
from roses.games.plantagenet.components import SIDES

# (game, scenario, games): seeded games per game, a few scenarios of Plantagenet among them the
# Bosworth scenario, whose Battle listed and routed the Lords in the order of a dict
CASES = [
    ("richard3", "richard-iii", 3),
    ("plantagenet", "bosworth", 4),
    ("plantagenet", "ib-towton", 2),
    ("kingmaker", "campaign", 1),
]


@pytest.mark.parametrize(("game", "scenario", "games"), CASES)
def test_a_copy_reloaded_after_every_step_plays_on_the_same(game: str, scenario: str, games: int) -> None:
    report = fuzz(get_rules(game), scenario, games, seed=3, check_views_every=0, replay_every=0,
                  save_dir=None, reload_check=True)
    assert report.games == games and report.actions > 0
    assert report.divergences == 0, [f.message for f in report.failures]
    assert report.ok, [f.message for f in report.failures]


def test_the_reload_check_finds_a_rule_that_follows_a_dicts_order() -> None:
    """A log line written in a dict's order: the twin read back with sorted keys differs."""
    state: dict[str, Any] = {"log": [], "held": {"York": 1, "Lancaster": 2}}
    kept, twin = state, reloaded(state)
    for s in (kept, twin):
        s["log"].append(", ".join(s["held"]))
    problem = divergence(kept, twin)
    assert problem is not None and "log line 0" in problem


def _this_levy_card(side: str) -> str:
    rules = get_rules("plantagenet")
    state = rules.setup(1, "ia-henry-vi")
    return next(c for c in state["aow"][side]["in_game"] if fx.duration(c) == "this_levy")


def test_events_ended_are_listed_york_first_before_and_after_a_reload() -> None:
    """3.4.6 NOTE: "this Levy" Events end after Muster. The log line names them in a fixed order
    (York's, then Lancaster's), the same for a state reloaded from the store."""
    rules = get_rules("plantagenet")
    state = rules.setup(1, "ia-henry-vi")
    cards = {side: _this_levy_card(side) for side in SIDES}
    for side, cid in cards.items():
        for zone in ("deck", "held", "drawn"):
            if cid in state["aow"][side][zone]:
                state["aow"][side][zone].remove(cid)
        state["aow"][side]["in_effect"].append(cid)
    twin = json.loads(canonical_json(state))
    assert list(twin["aow"]) == sorted(twin["aow"])
    assert arts.discard_in_effect(state, "this_levy") == [cards["York"], cards["Lancaster"]]
    assert arts.discard_in_effect(twin, "this_levy") == [cards["York"], cards["Lancaster"]]
    assert state["log"][-1] == twin["log"][-1]
    assert canonical_json(state) == canonical_json(twin)


def test_a_plantagenet_setup_has_its_keys_in_the_stored_order() -> None:
    state = get_rules("plantagenet").setup(7, "bosworth")
    twin = json.loads(canonical_json(state))
    for part in ("lords", "vassals", "aow"):
        assert json.dumps(state[part]) == json.dumps(twin[part]), part
