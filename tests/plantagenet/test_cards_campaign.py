"""Arts of War cards whose halves act in the Campaign (4.x) or when a Lord is replaced (6.2.2).

Each test names the card half and the section it changes."""

from __future__ import annotations

from typing import Any

from roses.games.plantagenet import RULES, arts, wars
from roses.games.plantagenet.records import Where
from roses.games.plantagenet.setup import setup_state

from .helpers import act, place, run_frames, war_state

State = dict[str, Any]


def deploy(s: State, lord: str, cid: str) -> None:
    """Take ``cid`` out of its deck and put it on ``lord``'s mat as a Capability (3.4.6)."""
    side = "York" if cid[0] == "Y" else "Lancaster"
    s["aow"][side]["deck"].remove(cid)
    s["aow"][side]["drawn"].append(cid)
    arts.deploy_capability(s, lord, cid)


# ----- Y34 / Y35: "discard when he becomes Richard III" (6.2.2 REPLACE, Scenario III) ------------
def test_y34_y35_capabilities_discarded_when_king_richard_replaces_gloucester_6_0_iii() -> None:
    """Y34 So wise, so young and Y35 Kingdom United hold "as Gloucester": when Scenario III's
    King Richard puts Richard III in Gloucester's place at a Muster, both go back to the deck."""
    s = setup_state(3, "iii-my-kingdom-for-a-horse")
    s["stack"] = []
    s["first_turn"] = False
    deploy(s, "gloucester_2", "Y34")
    deploy(s, "gloucester_2", "Y35")
    run_frames(s, {"step": "muster", "side": "York"})
    act(s, "king_richard")
    assert s["lords"]["richard_iii"]["mat"]["capabilities"] == []
    assert "Y34" in s["aow"]["York"]["deck"] and "Y35" in s["aow"]["York"]["deck"]
    assert any("Gloucester is now Richard III" in str(line) for line in s["log"][-3:])
    assert RULES.check_invariants(s) == []


def test_y34_kept_when_march_becomes_edward_iv_and_discarded_for_richard_iii_6_2_2() -> None:
    """6.3 IIY Succession: REPLACE of Gloucester by Richard III (wars.replace_heir) discards Y34;
    a replacement of another Lord leaves Capabilities alone."""
    s = war_state("IIY", "G", "H M S1 S2")
    s["stack"] = []
    place(s, "gloucester_1", "London")
    deploy(s, "gloucester_1", "Y34")
    wars.replace_heir(s, "gloucester_1", "richard_iii", "test: Gloucester becomes King")
    assert s["lords"]["richard_iii"]["where"] == Where.MAP
    assert "Y34" not in s["lords"]["richard_iii"]["mat"]["capabilities"]
    assert "Y34" in s["aow"]["York"]["deck"]
    assert RULES.check_invariants(s) == []

