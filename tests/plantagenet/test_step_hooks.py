"""Plantagenet's steps declare what the engine asks of every decision through the engine's own
hooks (roses.engine.steps): the label of each option (``Step.option_label``), the reasons an
action is refused (``why_not_<verb>``) with the rule section (``Step.rule``)."""

from __future__ import annotations

import gzip
import json
import random
import re
from functools import cache
from typing import Any

import pytest

from roses.engine.contract import Rules, State, canonical_json
from roses.engine.errors import IllegalAction
from roses.engine.steps import Step
from roses.games.plantagenet import RULES
from roses.games.plantagenet.records import Where
from tests.plantagenet.corpus_tools import CORPUS
from tests.plantagenet.helpers import approach, place, run_frames, set_troops
from tests.plantagenet.test_battle import BATTLES, TROOPS, fresh, london_battle
from tests.plantagenet.test_campaign import _ia as campaign_ia
from tests.plantagenet.test_campaign import _to_plan
from tests.plantagenet.test_cards_battle import bare_battle
from tests.plantagenet.test_levy import _ia as levy_ia


@cache
def _records() -> tuple[dict[str, Any], ...]:
    """The first recorded game of each scenario with each option set (tests/plantagenet/corpus)."""
    seen: set[str] = set()
    out = []
    with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            rec = json.loads(line)
            key = rec["scenario"] + json.dumps(rec["options"], sort_keys=True)
            if key not in seen:
                seen.add(key)
                out.append(rec)
    return tuple(out)


#: Decisions that have a real choice (more than one option) in none of the positions below: they
#: declare their labels all the same (test_every_step_with_a_handler_labels_its_options).
SELDOM_ASKED = {"advance", "battle_event", "feed", "flank", "land", "pay_troops", "pay_vassals", "place_lord"}


@cache
def _positions() -> tuple[State, ...]:
    """Every position of the chosen recorded games, and of random Battles with several Lords a
    side (tests/plantagenet/test_battle.py: the Battle decisions that seldom have a real choice
    in whole games: Array, Advance, Death checks, Spoils...). Made once; tests only read them."""
    out = []
    for rec in _records():
        state = RULES.setup(int(rec["seed"]), rec["scenario"], rec["options"])
        for role, verb, arg in rec["actions"]:
            out.append(state)
            state = RULES.action(RULES.copy_state(state), role, verb, arg)
    for index, (scenario, locale, attackers, defenders) in enumerate(BATTLES):
        for seed in range(3):
            state = fresh(scenario)
            for lid, troops in TROOPS.get(index, {}).items():
                set_troops(state, lid, **troops)
            for lid, d in state["lords"].items():
                if d["where"] == Where.MAP and d["locale"] == locale and lid not in attackers + defenders:
                    place(state, lid, "Calais")
            approach(state, locale, attackers, [d for d in defenders if state["lords"][d]["where"] != Where.UNUSED])
            pick = random.Random(seed)
            while state["stack"] and state["result"] is None:
                out.append(state)
                (role,) = RULES.active(state)
                verb, arg = pick.choice(RULES.legal_actions(state, role))
                state = RULES.action(RULES.copy_state(state), role, verb, arg)
    return tuple(out)


def test_no_step_has_a_label_method_of_its_own_making() -> None:
    """Labels come only through ``Step.option_label`` (``StepRules.label`` asks it)."""
    assert type(RULES).label is not Rules.label
    assert "label" not in vars(type(RULES))  # the engine's StepRules.label does the work
    for step in RULES.steps.by_name.values():
        assert not hasattr(step, "action_label"), step.name


def test_every_step_with_a_handler_labels_its_options() -> None:
    """Every step class with a handler declares ``option_label`` and it returns None for a verb
    it does not handle."""
    for step in RULES.steps.by_name.values():
        if step.verbs:
            assert type(step).option_label is not Step.option_label, step.name


def test_every_legal_action_of_random_games_has_a_step_label() -> None:
    """At every position of one recorded game per scenario and option set, every legal action
    of every active role has a label from its step, never the generic ``verb arg`` text."""
    labelled: set[str] = set()
    generic: list[tuple[str, str, Any]] = []
    for state in _positions():
        for role in RULES.active(state):
            for verb, arg in RULES.legal_actions(state, role):
                text = RULES.label(state, role, verb, arg)
                if text == Rules.label(RULES, state, role, verb, arg):
                    generic.append((state["stack"][-1]["step"], verb, arg))
                labelled.add(state["stack"][-1]["step"])
    assert generic == []
    deciding = {name for name, step in RULES.steps.by_name.items() if step.verbs or name == "card_pick"}
    assert deciding - labelled <= SELDOM_ASKED, sorted(deciding - labelled - SELDOM_ASKED)
    assert len(labelled & deciding) >= 24


# ----- refusals: the reason in the rules' words and the rule section --------------------------------
def _refusal(state: State, role: str, verb: str, arg: Any = None) -> str:
    """The message of a refused action; the state is left as it was, and the message names
    nothing hidden from ``role`` (``RULES.secrets``: the other side's Held Events and Plan)."""
    before = canonical_json(state)
    with pytest.raises(IllegalAction) as refused:
        RULES.action(state, role, verb, arg)
    assert canonical_json(state) == before
    text = str(refused.value)
    for secret in RULES.secrets(state, role):
        assert not re.search(rf"\b{re.escape(secret.strip(chr(34)))}\b", text), secret
    return text


def test_every_step_names_its_rule_section() -> None:
    """Each step names the rulebook section it applies; a refusal without a reason of its own
    names it (here the Approach, 4.3.5)."""
    assert all(step.rule for step in RULES.steps.by_name.values())
    assert RULES.steps["array"].rule == "4.4.1" and RULES.steps["muster"].rule == "3.4"
    s = london_battle()
    assert _refusal(s, "Lancaster", "exile", "york") == (
        "Lancaster cannot exile york now: that is not one of the exile choices open now (4.3.5). Now: York, March "
        "Approach London: choose Battle or Exile for each of your Lords there (4.3.5). You may: fight, exile.")
    assert _refusal(s, "Lancaster", "march", "York").startswith(
        "Lancaster cannot march York now: march is not a choice at this point (4.3.5).")


def test_plan_refusals_4_1() -> None:
    """4.1: a Plan holds the Calendar's number of cards (4 in box 1), Pass cards only to fill it
    (4.1.1), a Lord's alike cards by number (1.9.2); each refusal speaks of the side's own cards."""
    s = _to_plan()
    now = " Now: Campaign Plan (4.1): choose card 1 of 4 for your Plan (so far, top first: empty). You may: add."
    assert _refusal(s, "York", "lock") == "York cannot lock now: your Plan holds 0 of the 4 cards it must hold (4.1)." + now
    assert _refusal(s, "York", "remove") == (
        "York cannot remove now: your Plan is empty: there is no card to take back (4.1.2)." + now)
    assert _refusal(s, "York", "add", "york-2") == (
        "York cannot add york-2 now: a Lord's Command cards are alike: add York's card 1 first (1.9.2)." + now)
    assert _refusal(s, "York", "add", "henry_vi-1") == (
        "York cannot add henry_vi-1 now: that is not a card of your Command deck (4.1.1)." + now)
    assert _refusal(s, "York", "add", "pass-1") == (
        "York cannot add pass-1 now: your Plan may hold 0 Pass cards: Pass cards fill out a Plan only when too few "
        "cards of your Lords on the map are left (4.1.1)." + now)
    for cid in ("york-1", "march-1", "york-2", "march-2"):
        RULES.action(s, "York", "add", cid)
    assert RULES.secrets(s, "Lancaster") >= {'"york-1"', '"march-2"'}
    assert _refusal(s, "Lancaster", "lock").startswith(  # York's Plan is not Lancaster's to know
        "Lancaster cannot lock now: your Plan holds 0 of the 4 cards it must hold (4.1). Now: Campaign Plan (4.1): "
        "choose card 1 of 4 for your Plan (so far, top first: empty).")
    assert _refusal(s, "York", "add", "york-3").startswith(
        "York cannot add york-3 now: your Plan has its 4 cards: lock it in, or take back the last card (4.1).")


def test_command_action_refusals_4_3_4_6_2() -> None:
    """A March goes to an adjacent Stronghold along a Way (4.3.3); Forage needs a Locale not
    Exhausted (4.6.2); with the card's actions spent only the free second Highway is left."""
    s = campaign_ia()
    place(s, "york", "London")
    run_frames(s, {"step": "actions", "side": "York", "lord": "york", "left": 2, "used": 0, "highway": None})
    head = "York at London: 2 Command actions left — March, Sail, Supply, Forage, Tax, Parley or Pass (4.2.2)."
    assert _refusal(s, "York", "march", "Bristol") == (
        "York cannot march Bristol now: Bristol is not adjacent to London by a Way (4.3.3). Now: " + head
        + " You may: march, forage, parley, pass.")
    assert _refusal(s, "York", "march", "Atlantis").startswith(
        "York cannot march Atlantis now: Atlantis is not a Locale of the map.")
    s["exhaustion"]["London"] = "exhausted"
    assert _refusal(s, "York", "forage").startswith("York cannot forage now: London is Exhausted (4.6.2).")
    s["stack"][-1].update(left=0, highway={"from": "St Albans", "group": ["york"]})
    assert _refusal(s, "York", "march", "Rochester").startswith(  # a Road
        "York cannot march Rochester now: no Command actions are left on this card: only the free second Highway "
        "March may follow (4.2.1, 4.3.3).")


def test_muster_refusals_3_4() -> None:
    """3.4: one Lord's Levy actions at a time, up to his Lordship; at an Enemy or Neutral
    Stronghold only Parley there (3.4 REQUIREMENTS)."""
    s = levy_ia()
    run_frames(s, {"step": "muster", "side": "York"})
    assert _refusal(s, "York", "levy_troops").startswith(
        "York cannot levy_troops now: first choose the Lord who takes Levy actions (3.4).")
    RULES.action(s, "York", "lord", "york")
    assert _refusal(s, "York", "lord", "march").startswith(
        "York cannot lord march now: York is taking his Levy actions: complete them before the next Lord (3.4).")
    s["lords"]["york"]["locale"] = "Wells"  # a Lancastrian Stronghold
    assert _refusal(s, "York", "levy_troops").startswith(
        "York cannot levy_troops now: York is at Wells, an Enemy or Neutral Stronghold: there he may only Parley "
        "for it (3.4).")
    s["lords"]["york"]["locale"] = "Ely"
    s["stack"][-1]["left"] = 0
    s["stack"][-1]["free"] = {"parley": 1}  # a card's free Parley keeps him acting
    assert _refusal(s, "York", "levy_troops").startswith(
        "York cannot levy_troops now: York has no Lordship left (3.4).")


def test_hits_refusals_4_4_2() -> None:
    """4.4.2 APPLY HITS: a Hit goes to an Unrouted unit of the side's Lords in the Engagement
    (everything in Battle is public)."""
    s = fresh()
    bare_battle(s, "London", "York", {"York": ["york"], "Lancaster": ["henry_vi"]})
    s["stack"] = [{"step": "battle", "stage": "strike"},
                  {"step": "hits", "side": "Lancaster", "lords": ["henry_vi"], "left": 2, "kind": "melee"}]
    RULES.steps.settle(s)
    assert _refusal(s, "Lancaster", "hit", "york:retinue").startswith(
        "Lancaster cannot hit york:retinue now: the Hits go to the units of Henry VI, the side's Lords in this "
        "Engagement (4.4.2).")
    s["battle"]["lords"]["henry_vi"]["retinue_routed"] = True
    assert _refusal(s, "Lancaster", "hit", "henry_vi:retinue").startswith(
        "Lancaster cannot hit henry_vi:retinue now: Henry VI's Retinue is Routed or gone: only Unrouted units take "
        "Hits (4.4.2).")


def test_odd_arguments_are_refused_with_a_message() -> None:
    """Every verb of the deciding step, with arguments no option has (wrong type, unknown id),
    is refused with a message at every 60th position of the recorded games: the reasons read an
    argument only after checking it."""
    odd: tuple[Any, ...] = (None, "x", "x:y", 3, [1], {"a": 1})
    refused = 0
    for state in _positions()[::60]:
        for role in RULES.active(state):
            step = RULES.steps[state["stack"][-1]["step"]]
            legal = RULES.legal_actions(state, role)
            for verb in sorted(step.verbs):
                for arg in odd:
                    if (verb, arg) not in legal:
                        assert _refusal(state, role, verb, arg).startswith(f"{role} cannot ")
                        refused += 1
    assert refused > 1000


def test_bosworth_capability_refusals_6_0_iii_b_3_4_6() -> None:
    """On Bosworth Field a side picks four Capabilities as for a Levy (3.4.6: the Lord's Livery
    Badge, two per Lord, never two of one name); a refusal speaks only of the side's own cards,
    Lords and picks, though both sides choose at once and in secret."""
    s = RULES.setup(1, "bosworth")
    now = (" Now: On Bosworth Field: choose Capability {n} of 4 and the Lord who takes it (at most two per Lord). "
           "You may: capability.")
    assert _refusal(s, "York", "capability", "Y34:norfolk") == (
        "York cannot capability Y34:norfolk now: Norfolk's Livery Badge may not hold Y34 So wise, so young "
        "(1.9.1, 3.4.6)." + now.format(n=1))
    assert _refusal(s, "York", "capability", "Y1:oxford") == (
        "York cannot capability Y1:oxford now: oxford is not one of your Lords on Bosworth Field." + now.format(n=1))
    assert _refusal(s, "York", "capability", "L1:norfolk") == (
        "York cannot capability L1:norfolk now: L1 is not one of your Arts of War cards left to choose."
        + now.format(n=1))
    RULES.action(s, "York", "capability", "Y1:norfolk")
    assert _refusal(s, "York", "capability", "Y2:norfolk") == (
        "York cannot capability Y2:norfolk now: Norfolk has a Capability named Culverins & Falconets already: a "
        "Lord's two differ (3.4.6)." + now.format(n=2))
    RULES.action(s, "York", "capability", "Y3:norfolk")
    assert _refusal(s, "York", "capability", "Y4:norfolk") == (
        "York cannot capability Y4:norfolk now: Norfolk has two Capabilities already: a Lord holds at most two "
        "(3.4.6)." + now.format(n=3))
    assert _refusal(s, "Lancaster", "capability", "Y4:norfolk").startswith(  # nothing of York's picks
        "Lancaster cannot capability Y4:norfolk now: norfolk is not one of your Lords on Bosworth Field.")


def test_array_refusals_4_4_1() -> None:
    """4.4.1 Battle Array: the Defenders fill Front center first, one Lord per position, with
    their own Lords (the Array is public)."""
    s = fresh("ii-warwicks-rebellion")
    for lid, d in s["lords"].items():
        if d["where"] == Where.MAP and d["locale"] == "Coventry" and lid not in BATTLES[1][2] + BATTLES[1][3]:
            place(s, lid, "Calais")
    approach(s, "Coventry", BATTLES[1][2], BATTLES[1][3])
    while s["stack"][-1]["step"] != "array":
        role = RULES.active(s)[0]
        legal = RULES.legal_actions(s, role)
        RULES.action(s, role, *next((a for a in legal if a[0] in ("fight", "pass", "done")), legal[0]))
    assert RULES.active(s) == ["York"]  # the Defender
    now = " Now: Battle Array (4.4.1): place a Lord in the Front. You may: place."
    assert _refusal(s, "York", "place", "left:edward_iv") == (
        "York cannot place left:edward_iv now: the Front center is filled first (4.4.1)." + now)
    assert _refusal(s, "York", "place", "middle:edward_iv") == (
        "York cannot place middle:edward_iv now: middle is not a Front position: left, center or right (4.4.1)." + now)
    assert _refusal(s, "York", "place", "center:warwick_l") == (
        "York cannot place center:warwick_l now: warwick_l is not one of your Lords in this Battle still to place "
        "(4.4.1)." + now)
    RULES.action(s, "York", "place", "center:edward_iv")
    assert _refusal(s, "York", "place", "center:pembroke") == (
        "York cannot place center:pembroke now: Front center has Edward IV already (4.4.1)." + now)


def test_death_check_refusals_4_4_3() -> None:
    """4.4.3: each Routed Lord of the side checks for Death once, in the order it chooses."""
    s = fresh()
    bare_battle(s, "London", "York", {"York": ["york", "march"], "Lancaster": ["henry_vi"]})
    b = s["battle"]
    b["lords"]["york"]["routed"] = b["lords"]["march"]["routed"] = True
    s["stack"] = [{"step": "battle", "stage": "end"}, {"step": "death", "side": "York"}]
    RULES.steps.settle(s)
    assert RULES.active(s) == ["York"]
    now = " Now: Choose the Routed Lord who checks for Death next (4.4.3). You may: check."
    assert _refusal(s, "York", "check", "henry_vi") == (
        "York cannot check henry_vi now: henry_vi is not one of your Lords in this Battle (4.4.3)." + now)
    b["checked"].append("york")
    b["lords"]["march"]["routed"] = False
    b["lords"]["york"]["routed"] = True
    assert _refusal(s, "York", "check", "march").startswith(
        "York cannot check march now: March is not Routed: only Routed Lords check for Death (4.4.3).")
    assert _refusal(s, "York", "check", "york").startswith(
        "York cannot check york now: York has checked for Death already (4.4.3).")
