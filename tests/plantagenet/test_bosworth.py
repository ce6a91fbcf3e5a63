"""On Bosworth Field (6.0 III(B)): the secret simultaneous choice of Capabilities and Array, the
reveal, and the Battle to its result."""

from __future__ import annotations

from typing import Any

import pytest

from roses.engine.contract import canonical_json
from roses.engine.errors import CannotUndo, IllegalAction
from roses.engine.fuzz import _view_problems
from roses.engine.game import Game
from roses.games.plantagenet import RULES
from roses.games.plantagenet.battle import BOSWORTH_ATTACKER

State = dict[str, Any]

YORK_PICKS = ["Y36:norfolk", "Y32:richard_iii", "Y1:richard_iii", "Y13:northumberland_y2"]
LANC_PICKS = ["L13:oxford", "L35:jasper_tudor_2", "L1:henry_tudor", "L36:henry_tudor"]


def past_cards(s: State) -> None:
    """Decline the Capabilities' decisions before Round 1: Culverins & Falconets (York's Y1, then
    Lancaster's L1, Defender first) and Vanguard (Y36)."""
    RULES.action(s, "York", "done")
    RULES.action(s, "Lancaster", "done")
    RULES.action(s, "York", "decline")


def choose(s: State, side: str, picks: list[str], front: list[str]) -> None:
    for p in picks:
        RULES.action(s, side, "capability", p)
    for f in front:
        RULES.action(s, side, "front", f)


def test_both_sides_choose_at_once_in_secret_bosworth() -> None:
    """Both sides act at the same time; neither sees the other's choices until both lock in."""
    s = RULES.setup(4, "bosworth")
    assert RULES.active(s) == ["Lancaster", "York"]
    choose(s, "York", YORK_PICKS, ["center:richard_iii", "left:norfolk"])
    assert RULES.view(s, "York")["bosworth"]["front"] == {
        "center": "richard_iii", "left": "norfolk", "right": "northumberland_y2"}  # the last one placed itself
    RULES.action(s, "York", "lock")
    assert RULES.active(s) == ["Lancaster"]
    lan = RULES.view(s, "Lancaster")
    text = canonical_json(lan)
    for token in ("Y36", "Y32", "Y13"):
        assert f'"{token}"' not in text and token not in text
    assert '"left":"norfolk"' not in text
    assert lan["bosworth"]["locked"] == ["York"]
    assert "Y36" in str(RULES.secrets(s, "Lancaster"))
    assert _view_problems(RULES, s, ["York", "Lancaster"], RULES.active(s)) == []
    with pytest.raises(IllegalAction):
        RULES.action(s, "York", "capability", "Y2:norfolk")
    reveals = s.get("reveals", 0)
    choose(s, "Lancaster", LANC_PICKS, ["left:oxford", "center:henry_tudor"])
    RULES.action(s, "Lancaster", "lock")
    assert s["reveals"] > reveals
    assert "Y36" not in str(RULES.secrets(s, "Lancaster"))  # revealed: no longer a secret
    past_cards(s)
    b = s["battle"]
    assert b["round"] == 1 and b["attacker"] == BOSWORTH_ATTACKER == "Lancaster" and b["defender"] == "York"
    assert b["front"]["York"] == ["norfolk", "richard_iii", "northumberland_y2"]
    # Lancaster's left faces York's right (index 2): the Attacker's positions mirror the Defender's.
    assert b["front"]["Lancaster"] == ["jasper_tudor_2", "henry_tudor", "oxford"]
    assert s["lords"]["norfolk"]["mat"]["capabilities"] == ["Y36"]
    assert s["lords"]["jasper_tudor_2"]["mat"]["special_vassals"] == ["thomas_stanley"]
    assert b["lords"]["oxford"]["valour"] == 2 + 2  # L13 Expert Counsellors: +2 Valour (1.5.2)
    assert "Y36" in canonical_json(RULES.view(s, "Lancaster"))
    assert RULES.check_invariants(s) == []
    assert RULES.active(s) == ["York"]  # the Defender declares Flight first (RULINGS R41)


def test_capability_limits_bosworth() -> None:
    """Eligible badges only, at most two Capabilities per Lord, none twice by name (3.4.6)."""
    s = RULES.setup(4, "bosworth")
    args = {a for v, a in RULES.legal_actions(s, "York") if v == "capability"}
    assert "Y36:norfolk" in args and "Y36:richard_iii" not in args  # Vanguard: Norfolk only
    assert not any(a.startswith(("Y34:", "Y35:")) for a in args)  # Gloucester's cards: no Lord here
    RULES.action(s, "York", "capability", "Y1:richard_iii")
    args = {a for v, a in RULES.legal_actions(s, "York") if v == "capability"}
    assert "Y2:richard_iii" not in args and "Y2:norfolk" in args  # same name (Culverins & Falconets)
    RULES.action(s, "York", "capability", "Y32:richard_iii")
    args = {a for v, a in RULES.legal_actions(s, "York") if v == "capability"}
    assert not any(a.endswith(":richard_iii") for a in args)  # two already
    RULES.action(s, "York", "capability", "Y3:norfolk")
    RULES.action(s, "York", "capability", "Y4:norfolk")
    assert {v for v, _ in RULES.legal_actions(s, "York")} == {"front"}


def test_undo_before_lock_in_but_not_across_the_other_side_or_the_reveal() -> None:
    g = Game.new(RULES, 5, "bosworth")
    g.apply("York", "capability", "Y2:norfolk")
    assert g.can_undo("York")
    g.apply("York", ".undo")
    assert g.state["stack"][-1]["picks"]["York"] == []
    g.apply("York", "capability", YORK_PICKS[0])
    g.apply("Lancaster", "capability", "L1:oxford")
    assert not g.can_undo("York")  # the last action was the other side's
    for p in YORK_PICKS[1:]:
        g.apply("York", "capability", p)
    g.apply("York", "front", "center:richard_iii")
    g.apply("York", "front", "left:norfolk")
    g.apply("York", "lock")
    with pytest.raises(CannotUndo):
        g.apply("York", ".undo")  # locking in passed the decision on


def test_bosworth_battle_result_is_the_game_result() -> None:
    """The Battle's winner wins the scenario; all Routed is a draw (no Spoils, Losses or Death
    checks: the scenario ends with the Battle)."""
    s = RULES.setup(4, "bosworth")
    choose(s, "York", YORK_PICKS, ["center:richard_iii", "left:norfolk"])
    RULES.action(s, "York", "lock")
    choose(s, "Lancaster", LANC_PICKS, ["left:oxford", "center:henry_tudor"])
    RULES.action(s, "Lancaster", "lock")
    past_cards(s)
    RULES.action(s, "York", "flee", "richard_iii")
    RULES.action(s, "York", "flee", "norfolk")
    rolls = s["rolls"]
    RULES.action(s, "York", "flee", "northumberland_y2")
    assert s["result"] == "Lancaster" and s["stack"] == []
    assert s["rolls"] == rolls  # no Death checks
    s2 = RULES.setup(4, "bosworth")
    choose(s2, "York", YORK_PICKS, ["center:richard_iii", "left:norfolk"])
    RULES.action(s2, "York", "lock")
    choose(s2, "Lancaster", LANC_PICKS, ["left:oxford", "center:henry_tudor"])
    RULES.action(s2, "Lancaster", "lock")
    past_cards(s2)
    for lid in ("norfolk", "richard_iii"):
        RULES.action(s2, "York", "flee", lid)
    RULES.action(s2, "York", "done")
    for lid in ("henry_tudor", "oxford", "jasper_tudor_2"):
        RULES.action(s2, "Lancaster", "flee", lid)
    assert s2["result"] == "York" and s2["battle"]["winner"] == "York"
