"""The optional umpire (umpire.py): rulings (L7, L13) and adjudication as logged actions that
replay reproduces, combats fought on a table with the result the umpire enters (L203, L226,
L271), and what the umpire sees (research §5 items 6 and 13)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from roses.engine.contract import OBSERVER, canonical_json
from roses.engine.errors import BadOptions, IllegalAction, NotYourTurn
from roses.engine.game import Game, digest
from roses.games.kingmaker import RULES
from roses.games.kingmaker.common import Z_CHANC, Z_HAND, Z_NOBLE, W
from tests.kingmaker.helpers import (
    EXAMPLE_BOARD,
    event_on_top,
    play_out_setup,
    put,
    staged,
    turn_of,
)
from tests.kingmaker.test_situations import DECK

OPTS: dict[str, Any] = {"players": 3, "board": EXAMPLE_BOARD, "umpire": True}


def test_umpire_seat_only_with_the_option() -> None:
    assert RULES.roles("campaign", {"players": 3}) == ["P1", "P2", "P3"]
    assert RULES.roles("campaign", OPTS) == ["P1", "P2", "P3", "umpire"]
    with pytest.raises(BadOptions):
        RULES.setup(1, "campaign", {"players": 3, "tabletop": True})  # a table needs an umpire
    with pytest.raises(BadOptions):
        RULES.setup(1, "campaign", {"players": 3, "umpire": "yes"})
    state = play_out_setup(RULES.setup(1, "campaign", {"players": 3, "board": EXAMPLE_BOARD}))
    with pytest.raises(NotYourTurn):
        RULES.check_turn(state, "umpire")
    with pytest.raises(NotYourTurn):
        RULES.action(state, "umpire", "rule", "No umpire in this game.")


def test_ruling_is_logged_and_replayed_l7() -> None:
    """L7, L13: the umpire's ruling is published, kept, and part of the action log."""
    game = Game.new(RULES, 2, "campaign", OPTS)
    while game.state["round"] == 0:
        role = game.active()[0]
        verb, arg = RULES.legal_actions(game.state, role)[0]
        game.apply(role, verb, arg)
    assert "umpire" not in game.active()
    game.apply("umpire", "rule", "A noble in a refuge port with no ship stays until the next Gales card.")
    assert game.state["rulings"] == [[1, "A noble in a refuge port with no ship stays until the next Gales card."]]
    for role in ("P1", "P2", OBSERVER):
        assert any("The umpire rules: A noble in a refuge port" in line for line in RULES.log_for(game.state, role))
        assert RULES.view(game.state, role)["rulings"] == game.state["rulings"]
    rebuilt = Game.from_record(RULES, game.record())
    assert rebuilt.digest() == game.digest()


@pytest.mark.parametrize("bad", ["", "   ", "x" * 2001, "bell\x07", 42, None])
def test_bad_ruling_is_refused_and_changes_nothing(bad: Any) -> None:
    state = play_out_setup(RULES.setup(2, "campaign", OPTS))
    before = digest(state)
    with pytest.raises(IllegalAction):
        RULES.action(state, "umpire", "rule", bad)
    assert digest(state) == before


def test_adjudication_ends_the_campaign_by_the_umpire() -> None:
    state = play_out_setup(RULES.setup(2, "campaign", OPTS))
    with pytest.raises(IllegalAction):
        RULES.action(state, "umpire", "adjudicate", "P9")
    RULES.action(state, "umpire", "adjudicate", "P2")
    assert RULES.result(state) == "P2"
    assert RULES.milestones(state) == ["end_umpire"]
    with pytest.raises(IllegalAction):
        RULES.action(state, "umpire", "rule", "Too late.")


def test_umpire_sees_hands_and_chancery_never_the_decks() -> None:
    """Research §5 item 6: hands seen by their holder and the umpire; Chancery by the umpire
    only; deck order by no one."""
    state = play_out_setup(RULES.setup(2, "campaign", OPTS))
    w = W(state)
    view = RULES.view(state, "umpire")
    for c, z in enumerate(state["cz"]):
        if z == Z_HAND:
            assert w.cards[c].id in view["hands"][state["roles"][state["ch"][c]]]
        if z == Z_CHANC:
            assert w.cards[c].id in view["chancery_cards"]
    text = canonical_json(view)
    assert not [t for t in RULES.secrets(state, "umpire") if t in text]
    assert "chancery_cards" not in RULES.view(state, "P1") and "hands" not in RULES.view(state, OBSERVER)
    assert "rule" in view["umpire"]["standing"] and "actions" not in view


def _table_battle(tmp_path: Path) -> tuple[dict[str, Any], list[int], list[int]]:
    state = staged(tmp_path, deck=DECK)
    state["opts"].update(umpire=True, tabletop=True)
    a = [put(state, 0, "percy", "C2"), put(state, 0, "stanley", "C2")]    # 100 + 50
    d = [put(state, 1, "neville", "C2"), put(state, 1, "mowbray", "C2")]  # 50 + 50
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    return state, a, d


def test_battle_fought_on_a_table_takes_the_umpires_result_l203(tmp_path: Path) -> None:
    """L203: the umpire has the battle fought on a table and enters its result: the nobles he
    names die, and the defenders lose as if by card (captured, K28 Booty aside)."""
    state, a, d = _table_battle(tmp_path)
    w = W(state)
    deck_before = list(state["edeck"])
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    assert RULES.active(state) == ["umpire"]
    assert RULES.default_action(state, "umpire") == ("cards", None)
    RULES.action(state, "umpire", "table")
    assert ("kill", "neville") in RULES.legal_actions(state, "umpire")
    RULES.action(state, "umpire", "kill", "neville")
    assert ("kill", "neville") not in RULES.legal_actions(state, "umpire")
    RULES.action(state, "umpire", "done")
    RULES.action(state, "umpire", "outcome", "attacker")
    assert state["edeck"] == deck_before  # no Event card drawn
    assert state["cz"][w.cid("neville")] != Z_NOBLE
    assert state["ncap"][w.cid("mowbray")] == 0  # captured by P1
    assert all(state["cz"][n] == Z_NOBLE and state["ncap"][n] < 0 for n in a)
    assert any("Tabletop result entered by the umpire" in line for line in RULES.log_for(state, "P3"))


def test_defender_wins_on_the_table(tmp_path: Path) -> None:
    state, a, d = _table_battle(tmp_path)
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    RULES.action(state, "umpire", "table")
    RULES.action(state, "umpire", "done")
    RULES.action(state, "umpire", "outcome", "defender")
    assert all(state["ncap"][n] == 1 for n in a)  # the attackers are P2's captives


def test_umpire_lets_the_card_decide_by_default(tmp_path: Path) -> None:
    """The published default (``cards``): the combat is decided by the Event card as usual
    (§7.2 situation 4: 3-2 gives the attacker the victory; Stanley is on the killed list)."""
    state, a, d = _table_battle(tmp_path)
    w = W(state)
    event_on_top(state, "r32")
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    RULES.action(state, "umpire", *RULES.default_action(state, "umpire"))
    assert state["cz"][w.cid("stanley")] != Z_NOBLE
    assert all(state["ncap"][n] == 0 for n in d)


def test_every_seat_sees_the_combat_put_to_the_umpire_and_what_he_may_enter(tmp_path: Path) -> None:
    """The pending combat is public (views.tabletop_view, L203): every seat's view has its kind,
    place, sides with their nobles and strengths, the stage and what each outcome does; the
    nobles the umpire names killed are in his view only until he enters the outcome. The
    umpire's choices are labelled in words (the page and the order language use them)."""
    state, a, d = _table_battle(tmp_path)
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    views = {r: RULES.view(state, r) for r in ("P1", "P2", "P3", OBSERVER, "umpire")}
    for role, view in views.items():
        t = view["tabletop"]
        assert (t["kind"], t["square"], t["attacker"], t["defender"], t["stage"]) == ("battle", "C2", "P1", "P2", "mark"), role
        assert sorted(n["id"] for n in t["attackers"]) == ["percy", "stanley"]
        assert sorted((n["id"], n["role"]) for n in t["defenders"]) == [("mowbray", "P2"), ("neville", "P2")]
        assert (t["attack"], t["defence"]) == (150, 100)
        assert t["outcomes"] == {"attacker": "the attacker won", "defender": "the defender won",
                                 "indecisive": "indecisive: nobody won"}
        # ruling K74: which results need a noble of their side left alive (the page greys them out)
        assert {o: sorted(ids) for o, ids in t["needs_survivor"].items()} == {
            "attacker": ["percy", "stanley"], "defender": ["mowbray", "neville"]}
    assert "killed" in views["umpire"]["tabletop"] and "killed" not in views["P2"]["tabletop"]
    labels = {(v, a): RULES.label(state, "umpire", v, a) for v, a in RULES.legal_actions(state, "umpire")}
    assert labels == {("cards", None): "let the Event card decide", ("table", None): "have it fought on a table"}
    RULES.action(state, "umpire", "table")
    RULES.action(state, "umpire", "kill", "neville")
    assert RULES.view(state, "umpire")["tabletop"]["killed"] == ["neville"]
    assert "killed" not in RULES.view(state, "P2")["tabletop"]
    assert RULES.label(state, "umpire", "kill", "mowbray") == "Mowbray was killed on the table"
    RULES.action(state, "umpire", "done")
    assert RULES.label(state, "umpire", "outcome", "attacker") == "the attacker won"
    RULES.action(state, "umpire", "outcome", "attacker")
    assert all("tabletop" not in RULES.view(state, r) for r in ("P1", "umpire"))


def test_a_siege_on_the_table_says_what_each_outcome_does() -> None:
    from roses.games.kingmaker.views import OUTCOME_WORDS

    assert OUTCOME_WORDS["siege"]["attacker"] == "the attacker won: the place is taken"
    assert OUTCOME_WORDS["siege"]["indecisive"] == "indecisive: it stays under siege"


def _killed_on_the_table(tmp_path: Path, killed: list[str]) -> tuple[dict[str, Any], list[int], set[str]]:
    """The battle of :func:`_table_battle` fought on a table with ``killed`` named: the state,
    the attackers and the outcomes the umpire may then enter."""
    state, a, d = _table_battle(tmp_path)
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    RULES.action(state, "umpire", "table")
    for noble in killed:
        RULES.action(state, "umpire", "kill", noble)
    RULES.action(state, "umpire", "done")
    return state, a, {arg for verb, arg in RULES.legal_actions(state, "umpire") if verb == "outcome"}


def test_a_side_whose_nobles_the_umpire_named_all_killed_cannot_win_on_the_table_k74(tmp_path: Path) -> None:
    """Ruling K74 (L203): after the umpire names every attacking noble killed, "the attacker
    won" is no longer a result he may enter (nobody would be left to capture or take anything);
    the same for a defending side in a battle; refused without change."""
    state, a, outcomes = _killed_on_the_table(tmp_path, ["percy", "stanley"])
    assert outcomes == {"defender", "indecisive"}
    before = canonical_json(state)
    with pytest.raises(IllegalAction):
        RULES.action(state, "umpire", "outcome", "attacker")
    assert canonical_json(state) == before
    RULES.action(state, "umpire", "outcome", "defender")
    assert all(state["cz"][n] != Z_NOBLE for n in a)


def test_a_defending_side_all_killed_cannot_win_a_battle_on_the_table_k74(tmp_path: Path) -> None:
    assert _killed_on_the_table(tmp_path, ["neville", "mowbray"])[2] == {"attacker", "indecisive"}
    assert _killed_on_the_table(tmp_path, ["neville"])[2] == {"attacker", "defender", "indecisive"}


def test_which_results_need_a_survivor_k74() -> None:
    """Ruling K74 (L203) as data: a side with nobles needs one alive to win; a besieged place's
    garrison holds it with every noble inside killed; ships without nobles need none."""
    from roses.games.kingmaker.combat import survivor_needed

    assert survivor_needed({"kind": "battle", "a": [3, 4], "d": [7]}) == {"attacker": [3, 4], "defender": [7]}
    assert survivor_needed({"kind": "siege", "a": [3], "d": [7, 8]}) == {"attacker": [3]}
    assert survivor_needed({"kind": "sea_battle", "a": [3], "d": []}) == {"attacker": [3]}
    assert survivor_needed({"kind": "sea_battle", "a": [], "d": []}) == {}
