"""The views' parts kept from one position to the next (roses/games/plantagenet/views.py).

A kept part is reused while the state's part equals the snapshot it was made from, or, for the
state it was made for, while the revisions of what it shows have not moved (``Steps.revision_of``;
a change by hand is announced with ``Steps.changed``), so the views made with kept parts must
be, at every step, the views made afresh; and a view shares nothing with the state, so one
handed out never changes afterwards. Hidden Mats (1.5.3) and the hidden card zones (1.9) are
redacted per role from the kept parts.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from roses.engine.contract import OBSERVER, canonical_json
from roses.engine.errors import RevisionMissed
from roses.engine.fuzz import game_seed
from roses.engine.game import Game
from roses.engine.memo import Memo
from roses.games.plantagenet import RULES, views
from roses.games.plantagenet.records import Where

from .helpers import place, set_troops

ROLES = ["York", "Lancaster", OBSERVER]
#: The entries of a view made from kept parts (views.static_part, cards_part, the Lords).
KEPT_ENTRIES = ("scenario", "king", "rebel", "box", "first_box", "last_box", "influence", "threshold",
                "favour", "stronghold_markers", "exhaustion", "exile_boxes", "seats", "vassals",
                "special_rules", "options", "lords", "aow", "command")
State = dict[str, Any]


def _fresh(state: State, roles: list[str] = ROLES) -> list[dict[str, Any]]:
    """The views made with nothing kept (a new game memo: an empty store)."""
    with Memo().scope():
        return RULES.views(state, roles)


def _texts(vs: list[dict[str, Any]]) -> list[str]:
    """The views as a server writes them (keys in their order, not sorted)."""
    return [json.dumps(v, separators=(",", ":"), ensure_ascii=False) for v in vs]


def _seen(state: State) -> list[dict[str, Any]]:
    """The views after a change by hand, announced as the engine asks of one
    (``Steps.changed``: the kept parts are then compared with the state again)."""
    RULES.steps.changed()
    return RULES.views(state, ROLES)


def _step(state: State, pick: random.Random) -> State:
    active = RULES.active(state)
    role = active[0] if len(active) == 1 else pick.choice(active)
    legal = RULES.legal_actions(state, role)
    return RULES.action(state, role, *legal[pick.randrange(len(legal))])


@pytest.mark.parametrize("options", [None, {"hidden_mats": True}])
@pytest.mark.parametrize("scenario", RULES.scenarios)
def test_kept_views_are_the_views_made_afresh_at_every_step(scenario: str, options: dict[str, Any] | None) -> None:
    """Random games of every scenario, with and without Hidden Mats: at every step each role's
    view made with the parts kept since the last steps (and the last games) is the same text as
    the view made with nothing kept; the views of that state read back from storage (its
    canonical JSON: every dict's keys sorted) are the same JSON, and their kept parts the same
    text (the parts made afresh at every step, such as the Battle, follow the state's key
    order). Every 25 steps the game goes on from its state read back from storage, or from a
    copy."""
    views.forget()
    pick = random.Random(7)
    for index in range(2):
        s = RULES.setup(game_seed(11, index), scenario, options)
        for n in range(220):
            kept = RULES.views(s, ROLES)
            assert _texts(kept) == _texts(_fresh(s)), (scenario, n)
            stored = _fresh(json.loads(canonical_json(s)))
            assert [canonical_json(v) for v in stored] == [canonical_json(v) for v in kept], (scenario, n)
            assert [_texts([{k: v[k] for k in KEPT_ENTRIES if k in v}]) for v in stored] == \
                [_texts([{k: v[k] for k in KEPT_ENTRIES if k in v}]) for v in kept], (scenario, n)
            if RULES.result(s) is not None:
                break
            s = _step(s, pick)
            if n % 25 == 24:
                s = json.loads(canonical_json(s)) if n % 50 == 24 else RULES.copy_state(s)


def test_a_view_handed_out_does_not_change_when_play_goes_on() -> None:
    """A view shares nothing with the state (no mat, list or record of it): the views of each
    step read again after the game has gone on are the text they were when made."""
    views.forget()
    pick = random.Random(3)
    s = RULES.setup(game_seed(2, 1), "ia-henry-vi", None)
    made: list[tuple[list[dict[str, Any]], list[str]]] = []
    for _ in range(300):
        if RULES.result(s) is not None:
            break
        vs = RULES.views(s, ROLES)
        made.append((vs, _texts(vs)))
        s = _step(s, pick)
    assert len(made) > 100
    for vs, texts in made:
        assert _texts(vs) == texts


def _levy_state() -> State:
    return RULES.setup(game_seed(5, 0), "ia-henry-vi", None)


def test_a_changed_lord_record_or_mat_is_seen_and_only_his_entry_is_made_again() -> None:
    """Whatever changes a Lord (his cylinder's place, his mat's Troops, a Capability on it; by
    a rule or by hand), the next views show it: the kept entry is compared with the record
    itself. The other Lords' entries are those of the last views (kept)."""
    views.forget()
    s = _levy_state()
    on_map = [lid for lid, d in s["lords"].items() if d["where"] == Where.MAP]
    lord, other = on_map[0], on_map[1]
    before = _seen(s)[0]["lords"]
    set_troops(s, lord, militia=3)
    after = _seen(s)[0]["lords"]
    assert after[lord]["mat"]["troops"]["militia"] == 3
    assert before[lord]["mat"]["troops"]["militia"] != 3  # the view handed out before is unchanged
    assert after[other] is before[other]
    # only the Lords changed: the static part's other entries are those kept (the same dicts)
    first, second = _seen(s), _seen(s)
    set_troops(s, lord, militia=2)
    third = _seen(s)
    assert third[0]["influence"] is second[0]["influence"] is first[0]["influence"]
    assert third[0]["lords"] is not second[0]["lords"] and third[0]["lords"][lord]["mat"]["troops"]["militia"] == 2
    assert _texts(third) == _texts(_fresh(s))
    s["lords"][lord]["mat"]["capabilities"].append("Y1")
    assert _seen(s)[1]["lords"][lord]["mat"]["capabilities"][-1] == "Y1"
    s["lords"][lord].update(where=Where.CALENDAR, locale=None, box=3, mat=None)
    entry = _seen(s)[2]["lords"][lord]
    assert (entry["where"], entry["box"], "mat" in entry) == (Where.CALENDAR, 3, False)
    assert _texts(_seen(s)) == _texts(_fresh(s))


def test_the_board_part_follows_markers_seats_vassals_and_exile_boxes() -> None:
    """Exhaustion markers, Seats, Vassals and the Exile boxes: a change of any of them is in
    the next views; unchanged, the part is the one the last views had."""
    views.forget()
    s = _levy_state()
    first = _seen(s)[0]
    assert _seen(s)[1]["vassals"] is first["vassals"]
    locale = next(iter(sorted(s["favour"]))) if s["favour"] else "london"
    s["exhaustion"][locale] = "depleted"
    vid = next(iter(s["vassals"]))
    s["vassals"][vid]["face_up"] = not s["vassals"][vid]["face_up"]
    seat = next(iter(s["seats"]))
    del s["seats"][seat]
    box = next(iter(s["exile_boxes"]))
    s["exile_boxes"][box] = "York" if s["exile_boxes"][box] != "York" else "Lancaster"
    v = _seen(s)[2]
    assert v["exhaustion"][locale] == "depleted"
    assert v["vassals"][vid]["face_up"] == s["vassals"][vid]["face_up"]
    assert seat not in v["seats"]
    assert v["exile_boxes"][box] == s["exile_boxes"][box]
    assert first["vassals"][vid]["face_up"] != v["vassals"][vid]["face_up"]  # the old view unchanged
    assert _texts(_seen(s)) == _texts(_fresh(s))


def test_cards_kept_per_side_and_redacted_per_role_1_9() -> None:
    """A side sees its own Arts of War and Command zones; the other side and an observer see
    the hidden zones (deck, drawn, held; Command deck and Plan) by number only (1.9). A card
    moved on one side is seen at once by every role as it may see it; the other side's zones
    are kept (the same parts as before)."""
    views.forget()
    s = _levy_state()
    york, lanc, obs = _seen(s)
    card = s["aow"]["York"]["deck"][0]
    s["aow"]["York"]["deck"].remove(card)
    s["aow"]["York"]["held"].append(card)
    york2, lanc2, obs2 = _seen(s)
    assert card in york2["aow"]["York"]["held"] and card not in york2["aow"]["York"]["deck"]
    assert lanc2["aow"]["York"]["held"] == obs2["aow"]["York"]["held"] == len(s["aow"]["York"]["held"])
    assert f'"{card}"' not in canonical_json(lanc2) and f'"{card}"' not in canonical_json(obs2)
    assert york2["aow"]["Lancaster"] is york["aow"]["Lancaster"]  # Lancaster's zones kept
    assert lanc2["aow"]["Lancaster"] is lanc["aow"]["Lancaster"]
    assert card not in york["aow"]["York"]["held"]  # the view handed out before is unchanged
    s["command"]["Lancaster"]["revealed"].append(s["command"]["Lancaster"]["deck"].pop())
    assert _seen(s)[0]["command"]["Lancaster"]["revealed"] == s["command"]["Lancaster"]["revealed"]
    assert _texts(_seen(s)) == _texts(_fresh(s))


def test_an_unchanged_position_reuses_every_roles_kept_entries() -> None:
    """Views made twice of a position, and after a Plan edit (4.1.2: only the Plan frame
    changes), share each role's cards and the entries made from the kept parts: the zones'
    dicts and the Lords' part are the same objects, nothing is made again (compiled too, where
    a tuple kept is boxed anew at every use, so kept tuples are known by their contents'
    identity)."""
    views.forget()
    s = RULES.setup(7, "ia-henry-vi")
    while s["stack"][-1]["step"] != "plan":
        s = _step(s, random.Random(len(s["log"])))
    first = RULES.views(s, ROLES)
    kept_cards = views.kept()["cards"]
    again = RULES.views(s, ROLES)
    assert views.kept()["cards"] is kept_cards
    role = RULES.active(s)[0]
    RULES.action(s, role, "add", RULES.legal_actions(s, role)[0][1])
    edited = RULES.views(s, ROLES)
    assert views.kept()["cards"] is kept_cards
    for a, b, c in zip(first, again, edited, strict=True):
        for key in ("aow", "command", "lords", "vassals", "favour"):
            assert a[key] is b[key] is c[key], key
    assert _texts(edited) == _texts(_fresh(s))


def test_hidden_mats_redacted_per_role_from_the_kept_lords_1_5_3() -> None:
    """With Hidden Mats a role sees its own side's mats and the other side's as "hidden",
    except those of the Lords in the Battle being fought; an observer sees every mat hidden
    (1.5.3). On Bosworth Field: before the Battle and once it is fought."""
    views.forget()
    pick = random.Random(1)
    s = RULES.setup(1, "bosworth", {"hidden_mats": True})
    seen_before = seen_in_battle = False
    for _ in range(200):
        if RULES.result(s) is not None:
            break
        york, lanc, obs = RULES.views(s, ROLES)
        fighting = s["battle"]["lords"] if s.get("battle") else {}
        for lid, d in s["lords"].items():
            if d["mat"] is None:
                continue
            side = york["lords"][lid]["side"]
            own, foe = (york, lanc) if side == "York" else (lanc, york)
            assert own["lords"][lid]["mat"]["troops"] == d["mat"]["troops"]
            if lid in fighting:
                assert foe["lords"][lid]["mat"] == obs["lords"][lid]["mat"] == own["lords"][lid]["mat"]
                seen_in_battle = True
            else:
                assert foe["lords"][lid]["mat"] == obs["lords"][lid]["mat"] == "hidden"
                seen_before = True
        assert _texts([york, lanc, obs]) == _texts(_fresh(s))
        s = _step(s, pick)
    assert seen_before and seen_in_battle


def test_equal_states_share_their_parts_and_a_changed_copy_does_not() -> None:
    """The key is the content: a copy of a state (or the state read back from storage) gets
    the parts made for the original; once the copy changes, its views follow it and the
    original's do not."""
    views.forget()
    s = _levy_state()
    a = RULES.views(s, ROLES)
    copy = json.loads(canonical_json(s))
    b = RULES.views(copy, ROLES)
    assert b[0]["lords"] is a[0]["lords"] and b[0]["vassals"] is a[0]["vassals"]
    lord = next(lid for lid, d in copy["lords"].items() if d["where"] == Where.MAP)
    place(copy, lord, "calais" if copy["lords"][lord]["locale"] != "calais" else "london")
    RULES.steps.changed()  # a change by hand (Steps.changed)
    assert RULES.views(copy, ROLES)[0]["lords"][lord]["locale"] == copy["lords"][lord]["locale"]
    assert RULES.views(s, ROLES)[0]["lords"][lord]["locale"] == s["lords"][lord]["locale"]
    assert [canonical_json(v) for v in RULES.views(s, ROLES)] == [canonical_json(v) for v in _fresh(s)]


def test_a_game_keeps_its_parts_in_its_own_memo() -> None:
    """Rendered by a Game (a server's games), the parts are kept in the game's memo
    (roses.engine.memo), not in the store shared by the states rendered outside a game."""
    views.forget()
    game = Game.new(RULES, seed=3, scenario="ia-henry-vi")
    game.views(["York", "Lancaster"])
    assert views.MEMO_NAME in game.memo.entries and "lords" in game.memo.entries[views.MEMO_NAME]
    assert "lords" not in views._KEPT


def test_the_tracks_and_favour_are_seen_at_once_1_4_1_1_3_1() -> None:
    """The Influence track (1.4.1), the Calendar box and its threshold (5.2), the King and the
    Favour markers with the Net Stronghold Favour they make (1.3.1): kept with the board, and
    made again as soon as any of them changes."""
    views.forget()
    s = _levy_state()
    before = _seen(s)[0]
    s["influence"] = 7
    v = _seen(s)[1]
    assert v["influence"] == {"net": 7, "York": 7, "Lancaster": 0}
    s["influence"] = -4
    assert _seen(s)[2]["influence"] == {"net": -4, "York": 0, "Lancaster": 4}
    s["box"] += 1
    assert _seen(s)[0]["box"] == s["box"]
    s["king"], s["rebel"] = s["rebel"], s["king"]
    assert _seen(s)[0]["king"] == s["king"]
    town = next(loc for loc, side in sorted(s["favour"].items()))
    s["favour"][town] = "York" if s["favour"][town] == "Lancaster" else "Lancaster"
    v = _seen(s)[0]
    assert v["favour"][town] == s["favour"][town]
    assert v["stronghold_markers"] != before["stronghold_markers"] or v["favour"] != before["favour"]
    del s["favour"][town]
    assert town not in _seen(s)[1]["favour"]
    assert before["influence"]["net"] not in (7, -4)  # the view handed out before is unchanged
    assert _texts(_seen(s)) == _texts(_fresh(s))


def test_threads_sharing_the_kept_parts_get_their_own_views() -> None:
    """Outside a game the kept parts are shared by every thread: threads playing different
    games at once (so each replaces what the others kept) each get, at every step, the views
    made with nothing kept. (What makes it sound under races is that a kept tuple is replaced
    whole and a caller keeps the snapshot it was given, never reading the store again for it:
    views.py; a race between two bytecodes is too rare for a test to hit, so this checks the
    shared use, not every interleaving.)"""
    import sys
    import threading

    views.forget()
    failures: list[str] = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible

    def play(index: int) -> None:
        pick = random.Random(index)
        s = RULES.setup(game_seed(21, index), ("ia-henry-vi", "ii-warwicks-rebellion")[index % 2],
                        {"hidden_mats": True} if index % 3 == 0 else None)
        for n in range(150):
            if RULES.result(s) is not None:
                return
            if _texts(RULES.views(s, ROLES)) != _texts(_fresh(s)):
                failures.append(f"thread {index} step {n}")
                return
            s = _step(s, pick)

    try:
        threads = [threading.Thread(target=play, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []


def test_the_record_fields_the_lords_part_spells_out_are_those_of_the_records() -> None:
    """views.py copies a Lord's record and mat field by field when they have the fields of
    records.LordRecord and records.Mat (else generically): the two sets must stay those."""
    from roses.games.plantagenet.records import LordRecord, Mat

    assert set(LordRecord.__annotations__) == views._RECORD_KEYS
    assert set(Mat.__annotations__) == views._MAT_KEYS
    from roses.games.plantagenet.components import ASSET_TYPES, TROOP_TYPES

    assert set(TROOP_TYPES) == views._TROOP_KEYS and set(ASSET_TYPES) == views._ASSET_KEYS


def _at_plan(seed: int) -> State:
    s = RULES.setup(seed, "ia-henry-vi")
    while s["stack"][-1]["step"] != "plan":
        s = _step(s, random.Random(len(s["log"])))
    return s


def test_a_plan_edit_finds_the_kept_parts_by_their_revision_without_comparing_4_1_2() -> None:
    """A Plan edit changes only the Plan frame (4.1.2; ``Plan.changes``): the revisions of the
    board and of the cards do not move, so the next views take the static part and the cards
    kept with this state without comparing them (the marks kept with them are not made
    again); locking in changes the cards' revision only, then the Command step runs (any part)."""
    views.forget()
    s = _at_plan(7)
    RULES.views(s, ROLES)
    store = views.kept()
    static_mark, cards_mark = store["static mark"], store["cards mark"]
    assert static_mark[0] is s and cards_mark[0] is s
    board, cards = RULES.steps.revision_of("board"), RULES.steps.revision_of("cards")
    role = RULES.active(s)[0]
    RULES.action(s, role, "add", RULES.legal_actions(s, role)[0][1])
    RULES.action(s, role, "remove")
    RULES.action(s, role, "add", RULES.legal_actions(s, role)[0][1])
    assert (RULES.steps.revision_of("board"), RULES.steps.revision_of("cards")) == (board, cards)
    edited = RULES.views(s, ROLES)
    assert store["static mark"] is static_mark and store["cards mark"] is cards_mark
    assert _texts(edited) == _texts(_fresh(s))
    while not any(verb == "lock" for verb, _ in RULES.legal_actions(s, role)):
        RULES.action(s, role, "add", RULES.legal_actions(s, role)[0][1])
    RULES.action(s, role, "lock")
    if s["stack"][-1]["step"] == "plan":  # the other side has still to lock in: the cards alone moved
        assert RULES.steps.revision_of("board") == board and RULES.steps.revision_of("cards") != cards
    else:
        assert RULES.steps.revision_of("board") != board
    assert _texts(RULES.views(s, ROLES)) == _texts(_fresh(s))


def test_a_change_its_revision_does_not_show_is_caught_by_the_check() -> None:
    """What a step's declared ``changes`` leave out (here a Lord's Troops changed by hand,
    without ``Steps.changed``) would leave the kept part stale: with the check on (every
    Plantagenet test: tests/plantagenet/conftest.py) the views compare the part found by its
    revision with the state and raise; announced, the change is seen."""
    views.forget()
    s = _at_plan(3)
    RULES.views(s, ROLES)
    lord = next(lid for lid, d in sorted(s["lords"].items()) if d["mat"] is not None)
    militia = s["lords"][lord]["mat"]["troops"].get("militia", 0)
    s["lords"][lord]["mat"]["troops"]["militia"] = militia + 5
    with pytest.raises(RevisionMissed):
        RULES.views(s, ROLES)
    was = views.check_revisions(False)
    try:  # unchecked, the part kept with the revision is taken as it is: the check is what finds it
        assert RULES.views(s, ROLES)[0]["lords"][lord]["mat"]["troops"].get("militia", 0) == militia
    finally:
        views.check_revisions(was)
    card = s["aow"]["York"]["deck"].pop()
    s["aow"]["York"]["held"].append(card)
    with pytest.raises(RevisionMissed):
        RULES.views(s, ROLES)
    assert _seen(s)[0]["lords"][lord]["mat"]["troops"]["militia"] == militia + 5
    assert _texts(RULES.views(s, ROLES)) == _texts(_fresh(s))


def test_a_levy_parley_remakes_the_tracks_and_takes_the_lords_and_board_as_kept_3_4_1() -> None:
    """A Levy Parley (3.4.1) changes the Favour and the Influence track only (``Muster.changes``):
    the Lords' and the board's revisions do not move, so the next views take the Lords' part
    and the board's entries kept with this state (the same objects) and make the tracks
    again; the views are those made afresh."""
    views.forget()
    pick = random.Random(4)
    for seed in range(1, 40):
        s = RULES.setup(seed, "ia-henry-vi")
        for _ in range(400):
            if RULES.result(s) is not None:
                break
            active = RULES.active(s)
            role = active[0]
            parleys = [a for a in RULES.legal_actions(s, role) if a[0] == "parley"] \
                if s["stack"][-1]["step"] == "muster" else []
            if parleys:
                before = RULES.views(s, ROLES)
                lords, board = RULES.steps.revision_of("lords"), RULES.steps.revision_of("board")
                RULES.action(s, role, *parleys[0])
                assert (RULES.steps.revision_of("lords"), RULES.steps.revision_of("board")) == (lords, board)
                after = RULES.views(s, ROLES)
                assert after[0]["lords"] is before[0]["lords"] and after[0]["vassals"] is before[0]["vassals"]
                assert after[0]["exhaustion"] is before[0]["exhaustion"]
                assert _texts(after) == _texts(_fresh(s))
                return
            s = _step(s, pick)
    raise AssertionError("no Levy Parley met")


def test_the_options_a_view_offered_check_the_next_action_4_1_2() -> None:
    """Each actor's options are worked out once per position: the views keep them for the
    check of the next action (``Steps.keep_offered``), for the actors only, until the next
    action; ``legal_actions`` (the search's question) keeps none. In the Plan both sides act at
    once (4.1.2)."""
    steps = RULES.steps
    state = RULES.setup(game_seed(5, 0), "ia-henry-vi")
    pick = random.Random(5)
    while state["stack"][-1]["step"] != "plan":
        _step(state, pick)
    frame = state["stack"][-1]
    assert steps.kept_options(state, frame, "York") is None
    RULES.legal_actions(state, "York")
    assert steps.kept_options(state, frame, "York") is None  # legal_actions keeps nothing
    vs = RULES.views(state, ROLES)
    for role, v in zip(ROLES, vs, strict=True):
        kept = steps.kept_options(state, frame, role)
        if role == OBSERVER:
            assert kept is None and "actions" not in v
        else:
            assert kept == RULES.legal_actions(state, role) and v["actions"] == {
                verb: True if arg is None else [a for vb, a in kept if vb == verb] for verb, arg in kept}
    verb, arg = steps.kept_options(state, frame, "York")[0]
    RULES.action(state, "York", verb, arg)  # the same frame, a new position
    assert state["stack"][-1] is frame
    assert steps.kept_options(state, frame, "York") is None and steps.kept_options(state, frame, "Lancaster") is None


def test_command_card_titles_from_the_table_are_those_worked_out_4_1() -> None:
    """The Plan's prompt and edits name each Command card by ``campaign.card_title``: a title
    kept whole where it is the same whoever is placed (a Pass card, a badge of one Lord), else
    the first placed Lord of the badge; always the title ``_card_title`` works out from the
    tables, with the Lords of shared badges (Somerset, Exeter, Gloucester, Northumberland) on
    the map, at Sea or off it (4.1)."""
    from roses.games.plantagenet import campaign

    titles = campaign._card_titles()
    assert any(isinstance(v, str) for v in titles["York"].values())
    assert any(not isinstance(v, str) for v in titles["Lancaster"].values())
    pick = random.Random(3)
    for seed in range(4):
        state = RULES.setup(game_seed(3, seed), "ia-henry-vi")
        for _ in range(120):
            if state["result"] is not None:
                break
            moved = {lid: {**d} for lid, d in state["lords"].items()}  # the Lords moved at random
            for lid, d in moved.items():
                if lid.endswith(("_1", "_2", "_y1", "_y2")) and pick.random() < 0.3:
                    d["where"] = pick.choice([Where.MAP, Where.SEA, Where.CALENDAR])
            for where in (state, {**state, "lords": moved}):
                for side in ("York", "Lancaster"):
                    for card in titles[side]:
                        assert campaign.card_title(where, side, card) == campaign._card_title(where, side, card)
            state = _step(state, pick)


@pytest.mark.parametrize("scenario", ["ia-henry-vi", "ii-warwicks-rebellion"])
def test_prompt_and_options_together_are_the_prompt_and_the_options_4_1(scenario: str) -> None:
    """Views ask every actor for its prompt and options at once (``Step.prompt_and_options``;
    the Plan reads its limits and draft once): the same as asking each, at every step of
    random games, the Plan's edits (4.1.2) among them."""
    pick = random.Random(11)
    plans = 0
    for seed in range(3):
        state = RULES.setup(game_seed(11, seed), scenario)
        for _ in range(400):
            if state["result"] is not None:
                break
            frame = state["stack"][-1]
            step = RULES.steps[frame["step"]]
            plans += step.name == "plan"
            for role in RULES.active(state):
                assert step.prompt_and_options(state, frame, role) == (
                    step.prompt(state, frame, role), step.options(state, frame, role))
            state = _step(state, pick)
    assert plans > 50


def test_the_lords_part_follows_lords_added_and_removed() -> None:
    """A state with other Lords than the kept part's (another scenario's, a Lord taken out
    or added by hand) gets its own Lords' part: each Lord's entry made or reused by his record."""
    views.forget()
    s = _levy_state()
    before = _seen(s)[0]["lords"]
    gone = next(iter(s["lords"]))
    record = s["lords"].pop(gone)
    after = _seen(s)[0]["lords"]
    assert gone not in after and set(after) == set(s["lords"])
    s["lords"] = {gone: record, **s["lords"]}  # back, in another order
    again = _seen(s)[0]["lords"]
    assert list(again) == sorted(again) and again[gone] == before[gone]
    assert all(again[lid] is after[lid] for lid in after)
    assert _texts(_seen(s)) == _texts(_fresh(s))
