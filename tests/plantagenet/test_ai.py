"""The bots' hooks of Plantagenet (roses/games/plantagenet/ai.py): determinisation from one
side's knowledge (1.5.3 Hidden Mats, 1.9 and 3.1 the Arts of War, 4.1.2 secret Plans, Bosworth's
secret choices) and the evaluation; bots play whole games."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from roses.ai.arena import play_game
from roses.ai.bot import Determinizer
from roses.ai.checks import determinization_problems
from roses.ai.factory import make_bot
from roses.ai.heuristic import HeuristicBot
from roses.engine.game import digest
from roses.engine.log import private
from roses.engine.steps import find
from roses.games.plantagenet import RULES, ai
from roses.games.plantagenet.setup import other

State = dict[str, Any]


def _until(state: State, stop: Any, seed: int) -> State:
    """Random play that never takes a step back, until ``stop``."""
    pick = random.Random(seed)
    n = 0
    while RULES.result(state) is None and not stop(state):
        role = RULES.active(state)[0]
        legal = RULES.legal_actions(state, role)
        forward = [a for a in legal if a[0] not in ("remove", "cancel", "leave")] or legal
        state = RULES.action(state, role, *pick.choice(forward))
        n += 1
        assert n < 5000
    return state


@pytest.mark.parametrize("scenario,hidden", [("ia-henry-vi", True), ("ia-henry-vi", False),
                                             ("ib-towton", True), ("bosworth", False),
                                             ("ii-warwicks-rebellion", True)])
def test_determinisation_checks(scenario: str, hidden: bool) -> None:
    """roses.ai.checks: the true state untouched, the same view and legal actions for the side,
    the result a function of the side's knowledge and the seed, the generator re-drawn, the
    invariants kept, play goes on, evaluation within [-1, 1]."""
    options = {"hidden_mats": hidden} if scenario != "bosworth" else None
    problems = determinization_problems(RULES, scenario, games=2, seed=3, every=5, options=options)
    assert problems == [], problems[:5]


def _frame(state: State, step: str) -> dict[str, Any]:
    """The frame of ``step`` on the stack (there must be one)."""
    frame = find(state, step)
    assert frame is not None, step
    return frame


def _at(state: State, step: str) -> bool:
    """Whether the decision now is ``step`` (frames of a Turn wait on the stack below it)."""
    return bool(state["stack"]) and state["stack"][-1]["step"] == step


def _command_state(hidden: bool, seed: int = 4) -> State:
    """Ia after both Plans are locked in and the first cards revealed (4.2)."""
    s = RULES.setup(seed, "ia-henry-vi", {"hidden_mats": hidden})
    return _until(s, lambda st: find(st, "command") is not None and st["command"]["Lancaster"]["plan"]
                  and st["command"]["York"]["revealed"], seed)


def test_other_sides_cards_and_plan_are_dealt_again_1_9_4_1_2() -> None:
    s = _command_state(hidden=False)
    s["aow"]["Lancaster"]["held"] = [s["aow"]["Lancaster"]["deck"].pop()]  # one Held Event (3.1.3)
    true_plan = list(s["command"]["Lancaster"]["plan"])
    plans, helds = set(), set()
    for seed in range(30):
        w = RULES.determinize(s, "York", seed)
        lw, ls = w["aow"]["Lancaster"], s["aow"]["Lancaster"]
        # the zone sizes are public and kept; the cards are the same set, dealt again
        assert (len(lw["deck"]), len(lw["held"]), len(lw["drawn"])) == (len(ls["deck"]), len(ls["held"]), len(ls["drawn"]))
        assert sorted(lw["deck"] + lw["held"]) == sorted(ls["deck"] + ls["held"])
        assert lw["deck"] == sorted(lw["deck"], key=ai._card_key)
        helds.add(tuple(lw["held"]))
        cm = w["command"]["Lancaster"]
        assert len(cm["plan"]) == len(true_plan)
        assert sorted(cm["plan"] + cm["deck"]) == sorted(true_plan + s["command"]["Lancaster"]["deck"])
        plans.add(tuple(cm["plan"]))
        # York's own secrets are untouched
        assert w["aow"]["York"] == s["aow"]["York"] and w["command"]["York"] == s["command"]["York"]
    assert len(helds) > 3 and len(plans) > 3


def test_result_depends_only_on_what_the_side_knows() -> None:
    """Two states that differ only in what York cannot see (Lancaster's Held Event, the
    order of its Plan, its hidden mats' Troops and Capabilities, 1.5.3) give York the same
    determinisation for the same seed."""
    s = _command_state(hidden=True)
    lan = s["aow"]["Lancaster"]
    lan["held"] = [lan["deck"].pop()]
    t = RULES.copy_state(s)
    tl = t["aow"]["Lancaster"]
    tl["deck"].append(tl["held"].pop())
    tl["held"].append(tl["deck"].pop(0))
    tl["deck"].sort(key=ai._card_key)
    t["command"]["Lancaster"]["plan"].reverse()
    hidden = ai.hidden_mat_lords(t, "York")
    assert hidden, "no hidden Lancastrian mat to vary"
    t["lords"][hidden[0]]["mat"]["troops"]["militia"] += 3
    t["lords"][hidden[0]]["mat"]["assets"]["coin"] += 2
    private(t, "Lancaster", "Something only Lancaster reads.")
    assert RULES.view(s, "York") == RULES.view(t, "York")
    assert digest(s) != digest(t)
    for seed in (1, 2, 3):
        assert digest(RULES.determinize(s, "York", seed)) == digest(RULES.determinize(t, "York", seed))


def test_hidden_mats_are_guessed_and_own_mats_kept_1_5_3() -> None:
    s = _command_state(hidden=True)
    hidden = ai.hidden_mat_lords(s, "York")
    assert hidden and all(RULES.view(s, "York")["lords"][lid]["mat"] == "hidden" for lid in hidden)
    seen = set()
    for seed in range(20):
        w = RULES.determinize(s, "York", seed)
        for lid, d in w["lords"].items():
            if d["mat"] is None:
                continue
            if lid in hidden:
                mat, true = d["mat"], s["lords"][lid]["mat"]
                assert mat["vassals"] == true["vassals"]  # public (the Vassal markers)
                assert mat["assets"]["ships"] == true["assets"]["ships"]  # counted publicly (1.7.3)
                assert sum(mat["routed"].values()) == 0
                assert len(mat["capabilities"]) <= 2
                seen.add((lid, tuple(sorted(mat["troops"].items())), tuple(mat["capabilities"])))
            else:
                assert d["mat"] == s["lords"][lid]["mat"]  # York's own, and any mat York sees
        assert RULES.check_invariants(w) == []
    assert len(seen) > len(hidden)
    # without Hidden Mats nothing of a mat is guessed
    open_state = _command_state(hidden=False)
    assert ai.hidden_mat_lords(open_state, "York") == []
    w = RULES.determinize(open_state, "York", 9)
    assert all(w["lords"][lid]["mat"] == d["mat"] for lid, d in open_state["lords"].items())


def test_a_plan_being_built_is_unknown_4_1_2() -> None:
    """While the other side builds its Plan nothing of it is known: an unlocked draft is empty;
    a locked one is a random legal Plan of the right size."""
    s = RULES.setup(2, "ia-henry-vi")
    s = _until(s, lambda st: _at(st, "plan"), 2)
    s = RULES.action(s, "Lancaster", *next(a for a in RULES.legal_actions(s, "Lancaster") if a[0] == "add"))
    assert _frame(s, "plan")["drafts"]["Lancaster"]
    w = RULES.determinize(s, "York", 5)
    assert _frame(w, "plan")["drafts"]["Lancaster"] == []
    while "Lancaster" not in _frame(s, "plan")["locked"]:
        legal = RULES.legal_actions(s, "Lancaster")
        s = RULES.action(s, "Lancaster", *next(a for a in legal if a[0] in ("lock", "add")))
    plan = _frame(s, "plan")
    drafts = {tuple(_frame(RULES.determinize(s, "York", k), "plan")["drafts"]["Lancaster"]) for k in range(12)}
    assert all(len(d) == len(plan["drafts"]["Lancaster"]) for d in drafts)
    assert len(drafts) > 1


def test_bosworth_choices_are_secret_until_revealed() -> None:
    s = RULES.setup(1, "bosworth")
    frame = _frame(s, "bosworth")
    foe = other(s["king"])
    while foe not in frame["locked"]:
        s = RULES.action(s, foe, *RULES.legal_actions(s, foe)[-1])
        frame = _frame(s, "bosworth")
    me = s["king"]
    worlds = [_frame(RULES.determinize(s, me, k), "bosworth") for k in range(8)]
    assert all(len(w["picks"][foe]) == len(frame["picks"][foe]) and len(w["front"][foe]) == 3 for w in worlds)
    assert len({tuple(map(tuple, w["picks"][foe])) for w in worlds}) > 1


def test_evaluation_is_zero_sum_bounded_and_follows_influence() -> None:
    s = _command_state(hidden=False)
    v = RULES.evaluate_all(s, ["York", "Lancaster"])
    assert v["York"] == pytest.approx(-v["Lancaster"]) and -1 < v["York"] < 1
    up = RULES.copy_state(s)
    up["influence"] = s["influence"] + 10  # York gains Influence (1.4.1)
    assert RULES.evaluate(up, "York") > RULES.evaluate(s, "York")
    terms = RULES.evaluation_terms(s, "York")
    assert {"influence", "tides", "lords", "forces"} <= set(terms)
    done = RULES.copy_state(s)
    done["result"] = "Lancaster"
    assert RULES.evaluate(done, "Lancaster") == 1.0 and RULES.evaluate(done, "York") == -1.0


def test_heuristic_locks_a_full_plan_rather_than_taking_a_card_back() -> None:
    """Equal values go to the move that gets there sooner (roses.ai.heuristic SOONER)."""
    s = RULES.setup(1, "ia-henry-vi")
    s = _until(s, lambda st: _at(st, "plan"), 1)
    bot = HeuristicBot(seed=1)
    for _ in range(12):
        if "York" in _frame(s, "plan")["locked"]:
            break
        assert _at(s, "plan")
        view = RULES.view(s, "York")
        action = bot.choose(RULES, view, "York", Determinizer.bind(RULES, s, "York"))
        assert action[0] != "remove"
        s = RULES.action(s, "York", *action)
    assert "York" in (find(s, "plan") or {"locked": ["York"]})["locked"]


def test_random_bots_finish_a_game_of_ia() -> None:
    """Bots that are pure functions of the view never meet the same view twice (each Plan edit
    is told to its side, 4.1.2): random bots play Ia to a result."""
    for seed in (5, 6):
        seats = {"York": ("random", make_bot("random", seed)), "Lancaster": ("random#2", make_bot("random", seed + 1))}
        out = play_game(RULES, "ia-henry-vi", seats, seed=seed, max_actions=5000)
        assert out.result is not None, out.length


def _containers(x: Any, out: list[Any]) -> list[Any]:
    """Every dict and list inside ``x`` (``x`` included)."""
    if isinstance(x, dict):
        out.append(x)
        for v in x.values():
            _containers(v, out)
    elif isinstance(x, list):
        out.append(x)
        for v in x:
            _containers(v, out)
    return out


@pytest.mark.parametrize("scenario,hidden", [("ia-henry-vi", True), ("ib-towton", False), ("bosworth", False),
                                             ("wars-of-the-roses", False), ("iii-my-kingdom-for-a-horse", True)])
def test_copy_state_is_equal_and_shares_no_dict_or_list(scenario: str, hidden: bool) -> None:
    """ai.copy_state copies each field by its shape: a Lord's entry holds scalars and his mat,
    whose values are scalars or flat dicts and lists (checked here on random play); the copy
    equals the state and shares no dict or list with it but the log's entries (never changed).
    ai.search_copy is the same with an empty log, sharing only the fields the rules never change
    in place; a search played on it plays as on the state itself."""
    options = {"hidden_mats": hidden} if scenario != "bosworth" else None
    pick = random.Random(2)
    s = RULES.setup(4, scenario, options)
    for n in range(1500):
        if RULES.result(s) is not None:
            break
        if n % 7 == 0:
            for d in s["lords"].values():
                for k, v in d.items():
                    if k == "mat" and v is not None:
                        for part in v.values():
                            inner = part.values() if isinstance(part, dict) else part if isinstance(part, list) else []
                            assert not any(isinstance(x, (dict, list)) for x in inner), part
                    else:
                        assert not isinstance(v, (dict, list)), (k, v)
            log_entries = {id(e) for e in s["log"]}
            kept = _containers({k: v for k, v in s.items() if k != "log"}, [])  # alive: ids unique
            mine = {id(x) for x in kept}
            c = ai.copy_state(s)
            assert c == s
            theirs = [x for x in _containers(c, []) if id(x) not in log_entries]
            assert not any(id(x) in mine for x in theirs)
            assert c["log"] is not s["log"]
            sc = ai.search_copy(s)
            assert sc == {**s, "log": []}
            shared = {id(x) for k in ai._NEVER_CHANGED if k in s for x in _containers(s[k], [])}
            assert not any(id(x) in mine and id(x) not in shared for x in _containers(sc, []))
            role = RULES.active(s)[0]
            legal = RULES.legal_actions(s, role)
            action = legal[n % len(legal)]
            played, searched = RULES.action(RULES.copy_state(s), role, *action), RULES.action(sc, role, *action)
            assert {**played, "log": []} == {**searched, "log": []}
        role = RULES.active(s)[0]
        legal = RULES.legal_actions(s, role)
        s = RULES.action(s, role, *pick.choice(legal))


def test_follow_up_search_drops_only_capability_levies_without_special_vassal_3_4_6() -> None:
    """The heuristic bot's follow-up (roses.ai.heuristic GameSettings) skips Levies of
    Capabilities the evaluation cannot tell apart (3.4.6) but keeps those bringing a Special
    Vassal (1.5.4, counted in Forces) and every other action."""
    s = RULES.setup(1, "ia-henry-vi")
    s = _until(s, lambda st: any(a[0] == "levy_capability" for a in RULES.legal_actions(st, RULES.active(st)[0])), 2)
    role = RULES.active(s)[0]
    legal = RULES.legal_actions(s, role)
    kept = ai.follow_actions(s, role, legal)
    cards = ai.load().cards
    dropped = [a for a in legal if a not in kept]
    assert dropped and all(a[0] == "levy_capability" and not cards[a[1]]["capability"].get("special_vassal")
                           for a in dropped)
    assert [a for a in legal if a[0] != "levy_capability"] == [a for a in kept if a[0] != "levy_capability"]
    specials = [cid for cid, d in cards.items() if (d.get("capability") or {}).get("special_vassal")]
    assert specials
    assert ai.follow_actions(s, role, [("levy_capability", specials[0])]) == [("levy_capability", specials[0])]


def test_heuristic_with_the_follow_up_settings_moves_as_the_full_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Plantagenet search hints of the heuristic bot (follow-up in one world, its line
    replayed in the others; Capability Levies without Special Vassal left out of the follow-up)
    choose the moves the full search chooses, here in a Levy with Capabilities to take and a
    Campaign (two determinisations each, to keep the test short)."""
    fast_hints = RULES.search_hints
    full_hints = dataclasses.replace(fast_hints, follow_worlds=None, follow_filter=None)
    s = RULES.setup(2, "ia-henry-vi")
    stops = [lambda st: _at(st, "muster") and any(a[0] == "levy_capability"
                                                  for a in RULES.legal_actions(st, RULES.active(st)[0])),
             lambda st: _at(st, "actions")]
    for i, stop in enumerate(stops):
        s = _until(s, stop, 10 + i)
        if RULES.result(s) is not None:
            break
        role = RULES.active(s)[0]
        view = RULES.view(s, role)
        monkeypatch.setattr(type(RULES), "search_hints", fast_hints)
        fast = HeuristicBot(seed=3, samples=2).decide(RULES, view, role, Determinizer.bind(RULES, s, role))
        monkeypatch.setattr(type(RULES), "search_hints", full_hints)
        full = HeuristicBot(seed=3, samples=2).decide(RULES, view, role, Determinizer.bind(RULES, s, role))
        assert fast.action == full.action, (fast.rationale, full.rationale)
        s = RULES.action(s, role, *fast.action)


def test_search_bots_leave_out_take_backs_of_a_plan_or_a_march_4_1_2_4_3_1() -> None:
    """Search bots choose among all actions but those that only take back the side's own
    choice (ai.search_choices, Rules.search_hints): a card added to the Plan (4.1.2 "remove"),
    a Lord taken along or the March itself (4.3.1 Group "leave", "cancel"); ISMCTS added and
    removed Command cards for hundreds of actions before. The legal actions are unchanged, and
    other steps' verbs of the same name (L15 The King's Name "cancel") are kept."""
    s = _until(RULES.setup(3, "ia-henry-vi"),
               lambda st: _at(st, "plan") and any(a[0] == "remove" for a in RULES.legal_actions(st, RULES.active(st)[0])), 3)
    role = RULES.active(s)[0]
    legal = RULES.legal_actions(s, role)
    kept = ai.search_choices(s, role, legal)
    assert ("remove", None) in legal and ("remove", None) not in kept
    assert kept == [a for a in legal if a[0] != "remove"] and kept
    s = _until(s, lambda st: _at(st, "group") and any(a[0] == "take" for a in RULES.legal_actions(st, RULES.active(st)[0])), 5)
    role = RULES.active(s)[0]
    s = RULES.action(s, role, *next(a for a in RULES.legal_actions(s, role) if a[0] == "take"))
    legal = RULES.legal_actions(s, role)
    assert {"leave", "cancel"} <= {a[0] for a in legal}
    assert ai.search_choices(s, role, legal) == [a for a in legal if a[0] not in ("leave", "cancel")]
    assert RULES.search_hints.choices is ai.search_choices
    kings_name = [("cancel", None), ("pass", None)]
    assert ai.search_choices({"stack": [{"step": "card_pick", "kind": "kings_name"}]}, "York", kings_name) == kings_name


def test_evaluation_is_the_same_with_the_tides_estimate_kept_or_not_4_8_1() -> None:
    """The evaluation keeps what the Favour markers alone bring at Tides of War (4.8.1) by
    their placement: on random play every evaluation equals the one made with nothing kept."""
    pick = random.Random(5)
    s = RULES.setup(3, "ii-warwicks-rebellion")
    seen = 0
    for _ in range(300):
        if RULES.result(s) is not None:
            break
        warm = ai.evaluation_terms(s, "York")
        ai._FAVOUR_TIDES.clear()
        cold = ai.evaluation_terms(s, "York")
        assert warm == cold
        seen += 1
        role = RULES.active(s)[0]
        s = RULES.action(s, role, *pick.choice(RULES.legal_actions(s, role)))
    assert seen > 50


def test_a_copy_shares_nothing_where_pay_of_troops_keeps_what_is_owed_3_2_1() -> None:
    """Found by the fuzzer's swap check (wars-of-the-roses, fuzz seed 1, game 77): at step 295
    York shares out what his Lords owe for their Troops (3.2.1), the Pay frame holding the
    amounts owed (``owed``). A copy of that position shares no dict or list with it, so the
    swap check's variants play on by themselves and find no difference."""
    import random as _random

    from roses.engine.fuzz import fuzz_picker, game_seed, random_choice
    from roses.engine.swapcheck import swap_problems

    gseed = game_seed(1, 77)
    picker = fuzz_picker(gseed)
    s = RULES.setup(gseed, "wars-of-the-roses")
    for _ in range(295):
        role, (verb, arg) = random_choice(RULES, s, RULES.active(s), picker)  # type: ignore[misc]
        s = RULES.action(s, role, verb, arg)
    frame = s["stack"][-1]
    assert frame["step"] == "pay_troops" and frame["owed"]
    kept = _containers({k: v for k, v in s.items() if k != "log"}, [])
    mine = {id(x) for x in kept}
    copied = ai.copy_state(s)
    assert not any(id(x) in mine for x in _containers({k: v for k, v in copied.items() if k != "log"}, []))
    picked = random_choice(RULES, s, RULES.active(s), picker)
    assert picked is not None
    role, (verb, arg) = picked
    assert swap_problems(RULES, s, list(s["roles"]), _random.Random(gseed + 295), (role, verb, arg)) == []


@pytest.mark.parametrize("scenario,hidden", [("ia-henry-vi", True), ("ii-warwicks-rebellion", True),
                                             ("bosworth", False)])
def test_determinizer_gives_determinize_for_every_seed_1_5_3_4_1_2(scenario: str, hidden: bool) -> None:
    """Rules.determinizer(state, role)(seed) == Rules.determinize(state, role, seed) for
    positions of random play (hidden mats re-guessed, 1.5.3; a Plan being built or locked,
    4.1.2): the log a side may read, who acts and the hidden mats are worked out once for all
    the seeds. The worlds share no list with each other (the first iteration of a search plays
    on its world), and the state is not changed."""
    from roses.engine.contract import canonical_json

    options = {"hidden_mats": hidden} if scenario != "bosworth" else None
    pick = random.Random(8)
    s = RULES.setup(5, scenario, options)
    checked = 0
    for n in range(400):
        if RULES.result(s) is not None:
            break
        if n % 11 == 0:
            before = canonical_json(s)
            for role in RULES.roles(scenario):
                sample = RULES.determinizer(s, role)
                worlds = [sample(seed) for seed in (1, 2, 77)]
                for seed, world in zip((1, 2, 77), worlds, strict=True):
                    assert canonical_json(world) == canonical_json(RULES.determinize(s, role, seed))
                assert worlds[0]["log"] is not worlds[1]["log"]
                assert worlds[0]["aow"] is not worlds[1]["aow"]
                checked += 1
            assert canonical_json(s) == before
        role = RULES.active(s)[0]
        s = RULES.action(s, role, *pick.choice(RULES.legal_actions(s, role)))
    assert checked >= 4
