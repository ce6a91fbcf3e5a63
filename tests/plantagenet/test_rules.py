"""The playable skeleton on the engine contract: sequence of play, views (§5), fuzzing."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from roses.engine.contract import actions_to_list, canonical_json
from roses.engine.errors import IllegalAction, NotYourTurn
from roses.engine.fuzz import _view_problems, fuzz
from roses.engine.game import Game
from roses.engine.logview import LOG_WINDOW
from roses.engine.registry import get_rules
from roses.engine.steps import StepRules
from roses.games.plantagenet import RULES, wars
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.components import load
from roses.games.plantagenet.rules import current_step
from roses.games.plantagenet.services import influence_of
from roses.games.plantagenet.setup import SCENARIOS, scenario_data, threshold
from roses.terminal import play_terminal

from .helpers import play_random, run_frames


def _play_out(state: dict[str, Any]) -> dict[str, Any]:
    return play_random(state, seed=1)


def _quiet(state: dict[str, Any]) -> tuple[str, str, Any]:
    """A quiet action of the active role: Continue, Pay, Done, Lock (a Plan) or Pass (a
    Command card) where offered, else its first option."""
    role = RULES.active(state)[0]
    opts = RULES.legal_actions(state, role)
    quiet = [o for verb in ("continue", "pay", "done", "end", "lock", "pass", "decline")
             for o in opts if o[0] == verb]
    verb, arg = (quiet or opts)[0]
    return role, verb, arg


def _advance(state: dict[str, Any]) -> dict[str, Any]:
    return RULES.action(state, *_quiet(state))


def test_registered() -> None:
    assert get_rules("plantagenet") is RULES
    assert RULES.scenarios == SCENARIOS
    assert RULES.roles("ia-henry-vi") == ["York", "Lancaster"]
    assert RULES.scenario_names()["bosworth"].startswith("III(B)")
    # every scenario plays to its end by the rules (docs/plantagenet/fuzz.md), in the browser and
    # against bots (docs/ai.md): the lobby offers it without the preview switch
    assert RULES.preview is False


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_fuzz_every_scenario(scenario: str, tmp_path: Path) -> None:
    report = fuzz(RULES, scenario, 2, seed=5, save_dir=tmp_path, replay_every=1)
    assert report.ok, report.summary()
    assert report.games == 2


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_hidden_mats_fuzz(scenario: str, tmp_path: Path) -> None:
    report = fuzz(RULES, scenario, 1, seed=9, options={"hidden_mats": True}, save_dir=tmp_path)
    assert report.ok, report.summary()


def test_rebel_acts_first_2_2_4() -> None:
    s = RULES.setup(1, "ia-henry-vi")
    assert RULES.active(s) == ["York"]  # Yorkists are the Rebels in Ia: they draw first (3.1.2)
    v = RULES.view(s, "York")
    assert v["prompt"].startswith("Arts of War (3.1.2): deploy the Capability")
    assert "actions" not in RULES.view(s, "Lancaster")
    assert RULES.view(s, "Lancaster")["prompt"] == "Arts of War (3.1.2): York deploys Capabilities."
    assert [f["side"] for f in reversed(s["stack"]) if f["step"] == "arts_of_war"] == ["York", "Lancaster"]
    s2 = RULES.setup(1, "ii-warwicks-rebellion")
    assert s2["stack"][-1]["side"] == "Lancaster"  # Lancastrians are the Rebels in II


def test_sequence_levy_campaign_end_campaign_second_turn_has_pay() -> None:
    s = RULES.setup(1, "ic-somersets-return")
    seen = []
    while s["box"] == 5:
        step = (RULES.steps.phase(s), current_step(s))
        if step not in seen:
            seen.append(step)
        s = _advance(s)
    assert [x for x in seen if x[1] in ("arts_of_war", "exiles", "muster", "plan", "actions")] == [
        ("levy", "arts_of_war"), ("levy", "exiles"), ("levy", "muster"),
        ("campaign", "plan"), ("campaign", "actions")]
    # The second Levy draws Events (3.1.3, no choice in it), then Pays (3.2).
    assert not s["first_turn"]
    assert current_step(s) in ("pay_troops", "pay_lords", "pay_vassals", "exiles", "muster")
    log = RULES.log_for(s, "Observer")
    turn6 = log[log.index("Turn 6 (Jan-Mar): Levy."):]
    assert sum("(3.1.3)" in line for line in turn6) == 4


def test_sequence_of_play_is_the_decision_stack_2_2_1_2_2_4() -> None:
    """No phase/step/waiting fields: the stack says where play is. The Turn's steps are queued
    on the Calendar frame, one frame per side in player order (Rebel, then King's side)."""
    s = RULES.setup(1, "ia-henry-vi")
    assert isinstance(RULES, StepRules)
    assert not {"phase", "step", "waiting"} & set(s)
    assert [f["step"] for f in reversed(s["stack"])] == [
        "arts_of_war", "arts_of_war", "skip_pay", "ready_vassals", "exiles", "exiles", "muster", "muster", "end_levy",
        "begin_campaign", "plan", "command",
        "tides_of_war", "disembark", "victory_check", "grow", "waste", "reset", "calendar"]
    assert [f["side"] for f in reversed(s["stack"]) if f["step"] == "muster"] == ["York", "Lancaster"]
    assert s["stack"][0] == {"step": "calendar"}
    v = RULES.view(s, "Observer")
    assert (v["phase"], v["step"]) == ("levy", "arts_of_war")
    b = RULES.setup(1, "bosworth")
    assert [f["step"] for f in b["stack"]] == ["bosworth"]  # both sides choose at once
    assert RULES.active(b) == ["Lancaster", "York"]
    assert RULES.view(b, "York")["phase"] == "battle"


def test_view_carries_recent_log_lines_only() -> None:
    """Views carry the last LOG_WINDOW lines the role may read and ``log_more``; the whole log
    is ``log_for`` (as Richard III's views do)."""
    s = RULES.setup(1, "ia-henry-vi")
    v = RULES.view(s, "York")
    assert v["log"] == RULES.log_for(s, "York") and v["log_more"] is False
    n0 = len(v["log"])
    for i in range(LOG_WINDOW + 5):
        s["log"].append(f"line {i}")
    s["log"].append(["Lancaster", "a secret"])
    v = RULES.view(s, "York")
    assert len(v["log"]) == LOG_WINDOW and v["log"][-1] == f"line {LOG_WINDOW + 4}" and v["log_more"]
    assert RULES.view(s, "Lancaster")["log"][-1] == "a secret"
    assert len(RULES.log_for(s, "York")) == n0 + LOG_WINDOW + 5  # not the secret


@pytest.mark.parametrize("scenario", [s for s in SCENARIOS if s != "bosworth"])
def test_games_end_at_last_calendar_box(scenario: str) -> None:
    s = _play_out(RULES.setup(2, scenario))
    last = scenario_data()[scenario]["last_box"]
    assert s["box"] <= last
    assert s["result"] in ("York", "Lancaster", "Draw")
    if s["box"] < last:  # ended early only by a Campaign or Threshold Victory (4.8.3)
        t = threshold(s)
        assert sv.campaign_victory(s) is not None or (t is not None and influence_of(s, s["result"]) >= t)
    assert RULES.active(s) == [] and RULES.legal_actions(s, "York") == []
    assert RULES.view(s, "York")["prompt"].startswith("Game over")


def test_wars_of_the_roses_goes_on_after_war_i_6_1_2() -> None:
    """6.1.2 Renewed War: the winner of War I chooses the second War, whose winner chooses the
    third; the game's result is the third War's (6.0 Final Victory) unless a Dynastic Victory
    ended it first."""
    s = _play_out(RULES.setup(2, "wars-of-the-roses"))
    winners = s["wars"]["winners"]
    assert s["war"] == ("IIY" if winners["I"] == "York" else "IIL") or s["war"].startswith("III")
    if "III" in winners:
        assert s["result"] == winners["III"] and s["war"] == ("IIIY" if winners["II"] == "York" else "IIIL")
    else:
        assert s["wars"].get("dynastic")


def test_automatic_war_victory_is_immediate_6_3() -> None:
    """6.3 War I: removal of Henry VI and Somerset (1) "immediately wins the War for the
    Yorkists": the game ends with the next action, in the Levy, not at End Campaign (4.8.3)."""
    s = RULES.setup(1, "wars-of-the-roses")
    sv.remove_lord(s, "henry_vi")
    sv.remove_lord(s, "somerset_1")
    s = _advance(s)
    assert s["wars"]["winners"] == {"I": "York"} and s["war"] == "IIY" and s["result"] is None
    log = RULES.log_for(s, "Observer")
    ended = next(i for i, line in enumerate(log) if line.startswith("War Victory (6.0)"))
    assert "Tides of War" not in " ".join(log[:ended])
    # Standalone scenarios have no such victory: the same removals end nothing at once.
    ia = RULES.setup(1, "ia-henry-vi")
    sv.remove_lord(ia, "henry_vi")
    sv.remove_lord(ia, "somerset_1")
    ia = _advance(ia)
    assert ia["result"] is None


def test_bosworth_ends_with_the_battle() -> None:
    """On Bosworth Field: the game ends when the Battle does, with its result (6.0 III(B))."""
    s = _play_out(RULES.setup(2, "bosworth"))
    assert s["result"] in ("York", "Lancaster", "Draw")
    assert s["battle"] is not None and s["battle"]["winner"] == (None if s["result"] == "Draw" else s["result"])


def test_grow_and_waste_and_special_rules_skip() -> None:
    s = RULES.setup(1, "ia-henry-vi")
    s["exhaustion"] = {"Ely": "depleted", "London": "exhausted"}
    s["lords"]["york"]["mat"]["assets"]["provender"] = 9
    for lid in ("york", "march", "henry_vi", "somerset_1"):
        s["lords"][lid]["mat"]["assets"]["coin"] = 9  # no Pillage or Disband for want of Pay (3.2.1)
    while s["box"] < 6:
        s = _advance(s)
    assert s["exhaustion"] == {"London": "depleted"}  # Grow after box 4 (4.8.4)
    assert s["lords"]["york"]["mat"]["assets"]["provender"] == 5  # Waste after box 5 only: 9 -> 5
    r = RULES.setup(1, "iii-my-kingdom-for-a-horse")  # Ravaged Land: no Grow or Waste
    r["exhaustion"] = {"Ely": "depleted"}
    while r["box"] < 5 and r["result"] is None:
        r = _advance(r)
    assert r["exhaustion"] == {"Ely": "depleted"}


def test_illegal_actions_refused_without_change() -> None:
    s = RULES.setup(1, "ia-henry-vi")
    before = canonical_json(s)
    with pytest.raises(NotYourTurn):
        RULES.check_turn(s, "Lancaster")
    with pytest.raises(IllegalAction):
        RULES.action(s, "Lancaster", "continue")
    with pytest.raises(IllegalAction):
        RULES.action(s, "York", "muster", "Ely")
    assert canonical_json(s) == before


def test_views_hide_decks_and_plans_section_5() -> None:
    s = RULES.setup(1, "ia-henry-vi")
    s["aow"]["Lancaster"]["deck"].remove("L13")
    s["aow"]["Lancaster"]["held"].append("L13")
    y = RULES.view(s, "York")
    lan = RULES.view(s, "Lancaster")
    obs = RULES.view(s, "Observer")
    assert isinstance(lan["aow"]["Lancaster"]["deck"], list) and lan["aow"]["Lancaster"]["held"] == ["L13"]
    assert y["aow"]["Lancaster"] == {"deck": 21, "drawn": 0, "held": 1, "in_effect": [], "set_aside": []}
    assert isinstance(y["command"]["Lancaster"]["deck"], int)
    assert '"L13"' in RULES.secrets(s, "York")
    assert '"L13"' not in canonical_json(y) and '"L13"' not in canonical_json(obs)
    assert _view_problems(RULES, s, ["York", "Lancaster"], RULES.active(s)) == []


def test_hidden_mats_option_1_5_3() -> None:
    s = RULES.setup(1, "ic-somersets-return", {"hidden_mats": True})
    y, lan = RULES.view(s, "York"), RULES.view(s, "Lancaster")
    assert y["lords"]["warwick_y"]["mat"]["capabilities"] == ["L23"]
    assert lan["lords"]["warwick_y"]["mat"] == "hidden"
    assert lan["lords"]["warwick_y"]["locale"] == "London"  # locations stay public
    assert isinstance(lan["lords"]["somerset_1"]["mat"], dict)
    assert '"L23"' in RULES.secrets(s, "Lancaster")
    assert _view_problems(RULES, s, ["York", "Lancaster"], RULES.active(s)) == []
    open_s = RULES.setup(1, "ic-somersets-return")
    assert isinstance(RULES.view(open_s, "Lancaster")["lords"]["warwick_y"]["mat"], dict)


def test_view_contents() -> None:
    s = RULES.setup(1, "ia-henry-vi")
    v = RULES.view(s, "Observer")
    assert v["influence"] == {"net": 0, "York": 0, "Lancaster": 0}
    assert v["threshold"] == 40
    assert v["stronghold_markers"]["Fortress"] == {"side": "York", "value": 1}
    assert "actions" not in v
    assert actions_to_list(RULES.view(s, "York")["actions"]) == RULES.legal_actions(s, "York")
    assert "Henry VI @ London" in RULES.describe(v)


def test_game_record_replay_and_terminal() -> None:
    game = Game.new(RULES, 4, "ic-somersets-return")
    while game.result() is None:
        game.apply(*_quiet(game.state))
    game.replay()
    out: list[str] = []
    answers = iter(["1"] * 200 + ["q"])
    play_terminal(RULES, "ib-towton", 1, {}, read=lambda _p: next(answers), write=out.append)
    assert any("Deploy it on" in line for line in out)  # the steps' own labels


def test_card_conservation_invariant() -> None:
    s = RULES.setup(1, "ic-somersets-return")
    assert RULES.check_invariants(s) == []
    assert "L23" in s["aow"]["Lancaster"]["in_game"]
    s["aow"]["York"]["deck"].pop()
    assert any("lost or added" in p for p in RULES.check_invariants(s))
    s = RULES.setup(1, "ic-somersets-return")
    s["aow"]["York"]["held"].append(s["aow"]["York"]["deck"][0])
    assert any("two zones" in p for p in RULES.check_invariants(s))


def test_card_conservation_across_sides_mats_and_succession_1_9_6_2_2() -> None:
    """Every Arts of War card in exactly one zone of its own side (deck, drawn, held, in effect,
    set aside, a mat) or out of the game: a card slipped into the other side's zone or onto a
    mat while still in its deck is caught; the cards a Succession removes "wherever they are"
    (a mat included) and adds (to the deck) keep the count (6.2.2 ARTS OF WAR)."""
    s = RULES.setup(1, "ic-somersets-return")
    cid = s["aow"]["York"]["deck"].pop()
    s["aow"]["Lancaster"]["deck"].append(cid)
    assert any("other side" in p for p in RULES.check_invariants(s))
    s = RULES.setup(1, "ic-somersets-return")
    s["lords"]["warwick_y"]["mat"]["capabilities"].append(s["aow"]["York"]["deck"][0])
    assert any("two zones" in p for p in RULES.check_invariants(s))
    s = RULES.setup(1, "ic-somersets-return")
    assert "L23" in s["lords"]["warwick_y"]["mat"]["capabilities"]
    wars.remove_card(s, "L23")  # on a mat, with its Special Vassal
    assert "L23" not in s["aow"]["Lancaster"]["in_game"] and s["special_vassals"]["montagu"] is None
    gone = next(c for c in load().cards if c[0] == "Y" and c not in s["aow"]["York"]["in_game"])
    wars.add_card(s, gone)
    assert gone in s["aow"]["York"]["deck"] and RULES.check_invariants(s) == []


def test_brief_rebellion_skips_waste_ic() -> None:
    """Ic Brief Rebellion: no Waste (4.8.5) after box 5, the only Waste box of the scenario."""
    for rule in (True, False):
        s = RULES.setup(1, "ic-somersets-return")
        s["stack"] = []
        if not rule:
            s["special_rules"].remove("brief_rebellion")
        assert s["box"] == 5
        mat = s["lords"]["warwick_y"]["mat"]
        mat["assets"]["provender"] = 9
        run_frames(s, {"step": "waste"})
        assert mat["assets"]["provender"] == (9 if rule else 5)


@pytest.mark.parametrize("options", [None, {"hidden_mats": True}])
def test_views_together_are_each_roles_view_and_share_the_public_parts(options: dict[str, Any] | None) -> None:
    """`views` makes the parts every role sees alike once (the board, the tracks; the Lords
    unless mats are hidden, 1.5.3) and gives each role exactly its own `view`."""
    from roses.engine.fuzz import game_seed

    pick = random.Random(2)
    s = RULES.setup(game_seed(4, 0), "ii-warwicks-rebellion", options)
    roles = ["York", "Lancaster", "Observer"]
    for _ in range(400):
        if RULES.result(s) is not None:
            break
        together = RULES.views(s, roles)
        assert [canonical_json(v) for v in together] == [canonical_json(RULES.view(s, r)) for r in roles]
        assert together[0]["favour"] is together[1]["favour"]
        assert (together[0]["lords"] is together[1]["lords"]) == (options is None)
        active = RULES.active(s)
        role = active[0] if len(active) == 1 else pick.choice(active)
        legal = RULES.legal_actions(s, role)
        s = RULES.action(s, role, *legal[pick.randrange(len(legal))])
