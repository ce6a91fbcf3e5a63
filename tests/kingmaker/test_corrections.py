"""The umpire's corrections (corrections.py; §The Campaign Umpire is Always Correct: the
umpire's decisions are fact): each kind changes the position, is logged with its reason for
every seat (a hidden card's face only to those who may see it), replays, and can be undone."""

from __future__ import annotations

from typing import Any

import pytest

from roses.engine.contract import OBSERVER
from roses.engine.errors import IllegalAction
from roses.engine.game import Game, digest
from roses.games.kingmaker import RULES
from roses.games.kingmaker.common import Z_ASSET, Z_AWARD, Z_DECK, Z_HAND, Z_NOBLE, W, place_name
from tests.kingmaker.helpers import EXAMPLE_BOARD

OPTS: dict[str, Any] = {"players": 3, "board": EXAMPLE_BOARD, "umpire": True}
SEATS = ("P1", "P2", "P3", "umpire", OBSERVER)


def started(seed: int = 2) -> Game:
    game = Game.new(RULES, seed, "campaign", OPTS)
    while game.state["round"] == 0:
        role = game.active()[0]
        verb, arg = RULES.legal_actions(game.state, role)[0]
        game.apply(role, verb, arg)
    return game


def lines(game: Game, role: str) -> list[str]:
    return [x for x in RULES.log_for(game.state, role) if "The umpire corrects" in x]


def a_noble(game: Game, p: int = 0) -> str:
    w = W(game.state)
    return next(w.cards[n].id for n in w.nobles if game.state["cz"][n] == Z_NOBLE and game.state["ch"][n] == p)


def test_move_a_noble_is_logged_for_everyone_replayed_and_undone() -> None:
    game = started()
    w = W(game.state)
    noble = a_noble(game)
    n = w.cid(noble)
    before = (game.state["nsq"][n], game.state["nin"][n])
    game.apply("umpire", "correct", {"kind": "move", "piece": noble, "to": "york",
                                     "reason": "He was ordered to York; the engine put him elsewhere."})
    assert (game.state["nsq"][n], game.state["nin"][n]) == ("B1", "york")
    for role in SEATS:
        assert lines(game, role) == [f"The umpire corrects: {w.cards[n].name} is moved to York. "
                                     "Reason: He was ordered to York; the engine put him elsewhere."]
    view = RULES.view(game.state, "P2")
    assert view["corrections"] == [{"round": 1, "kind": "move", "text": f"{w.cards[n].name} is moved to York",
                                    "reason": "He was ordered to York; the engine put him elsewhere.",
                                    "undone": False}]
    assert Game.from_record(RULES, game.record()).digest() == game.digest()
    game.apply("umpire", "correct", {"kind": "undo", "reason": "Wrong noble."})
    assert (game.state["nsq"][n], game.state["nin"][n]) == before
    assert game.state["corrections"][0]["undone"] is True
    assert lines(game, "P3")[-1] == (f"The umpire corrects: the correction \u201c{w.cards[n].name} is moved to York\u201d "
                                     "is undone. Reason: Wrong noble.")


def test_move_an_heir_and_a_ship_to_the_open_and_to_sea() -> None:
    game = started()
    w = W(game.state)
    h = next(h for h in range(len(w.heirs)) if not game.state["hdead"][h])
    game.apply("umpire", "correct", {"kind": "move", "piece": w.heirs[h].id, "to": "C3", "reason": "Misplaced."})
    assert (game.state["hsq"][h], game.state["hin"][h], game.state["hesc"][h]) == ("C3", None, -1)
    assert lines(game, "P1")[-1].startswith(f"The umpire corrects: {w.heirs[h].name} is moved to {place_name(w, 'C3')}.")
    s = 0
    with pytest.raises(IllegalAction, match="not on the board"):
        game.apply("umpire", "correct", {"kind": "move", "piece": w.ships[s].id, "to": "E5", "reason": "x"})
    game.state["spos"][s] = "london"  # staged: a ship in London's port
    with pytest.raises(IllegalAction, match="not a port or a sea square"):
        game.apply("umpire", "correct", {"kind": "move", "piece": w.ships[s].id, "to": "C3", "reason": "x"})
    game.apply("umpire", "correct", {"kind": "move", "piece": w.ships[s].id, "to": "E5", "reason": "Sailed."})
    assert game.state["spos"][s] == "E5"
    assert lines(game, "P2")[-1] == f"The umpire corrects: the {w.ships[s].name} is moved to {place_name(w, 'E5')}. Reason: Sailed."


def test_remove_a_noble_kills_him_and_releases_his_awards() -> None:
    game = started()
    w = W(game.state)
    s = game.state
    n = next(n for n in w.nobles if s["cz"][n] == Z_NOBLE and any(s["cz"][c] == Z_AWARD and s["ch"][c] == n
                                                                      for c in range(len(s["cz"]))))
    awards = [c for c in range(len(s["cz"])) if s["cz"][c] == Z_AWARD and s["ch"][c] == n]
    game.apply("umpire", "correct", {"kind": "remove", "piece": w.cards[n].id, "reason": "Killed at Towton."})
    s = game.state
    assert s["cz"][n] != Z_NOBLE and s["nsq"][n] is None
    assert all(s["cz"][c] != Z_AWARD for c in awards)
    assert lines(game, "P2") == [f"The umpire corrects: {w.cards[n].name} is removed from the campaign. "
                                 "Reason: Killed at Towton."]
    game.apply("umpire", "correct", {"kind": "undo", "reason": "He escaped."})
    assert game.state["cz"][n] == Z_NOBLE and all(game.state["ch"][c] == n for c in awards)


def test_a_card_from_one_hand_to_another_is_named_only_to_the_two_players_and_the_umpire() -> None:
    game = started()
    s = game.state
    w = W(s)
    c = next(c for c in range(len(s["cz"])) if s["cz"][c] == Z_DECK and not w.cards[c].is_noble)
    name = w.cards[c].name
    game.apply("umpire", "correct", {"kind": "card", "card": w.cards[c].id, "to": "P1", "reason": "Owed a draw."})
    assert (game.state["cz"][c], game.state["ch"][c]) == (Z_HAND, 0) and c not in game.state["cdeck"]
    assert lines(game, "P2") == ["The umpire corrects: a card passes from the Crown deck to P1's hand. Reason: Owed a draw."]
    game.state["log"] = game.state["log"][:-3]  # (only the second correction's lines are read below)
    game.apply("umpire", "correct", {"kind": "card", "card": w.cards[c].id, "to": "P2", "reason": "Dealt wrongly."})
    assert (game.state["cz"][c], game.state["ch"][c]) == (Z_HAND, 1)
    public = "The umpire corrects: a card passes from P1's hand to P2's hand. Reason: Dealt wrongly."
    secret = (f"The umpire corrects: {name} passes from P1's hand to P2's hand (only you and the umpire are "
              "told which). Reason: Dealt wrongly.")
    for role in ("P1", "P2", "umpire"):
        assert lines(game, role) == [public, secret]
    for role in ("P3", OBSERVER):
        assert lines(game, role) == [public]
        assert all(name not in x for x in RULES.log_for(game.state, role)[-3:])
    assert RULES.view(game.state, "P2")["hand"][-1]["name"] == name or any(
        h["name"] == name for h in RULES.view(game.state, "P2")["hand"])


def test_a_card_returned_to_the_deck_is_shuffled_in_and_its_face_hidden() -> None:
    game = started()
    s = game.state
    w = W(s)
    c = next(c for c in range(len(s["cz"])) if s["cz"][c] == Z_DECK and not w.cards[c].is_noble)
    game.apply("umpire", "correct", {"kind": "card", "card": w.cards[c].id, "to": "P3", "reason": "Owed."})
    game.state["log"] = game.state["log"][:-3]
    size = len(game.state["cdeck"])
    game.apply("umpire", "correct", {"kind": "card", "card": w.cards[c].id, "to": "deck", "reason": "Played in error."})
    assert game.state["cz"][c] == Z_DECK and c in game.state["cdeck"] and len(game.state["cdeck"]) == size + 1
    assert lines(game, "P1") == ["The umpire corrects: a card passes from P3's hand to the Crown deck. "
                                 "Reason: Played in error."]
    assert any(w.cards[c].name in x for x in lines(game, "P3"))


def test_a_title_moves_to_another_noble_in_the_open() -> None:
    game = started()
    s = game.state
    w = W(s)
    c = next(c for c in range(len(s["cz"])) if s["cz"][c] == Z_AWARD and w.cards[c].kind in ("title", "office"))
    old = s["ch"][c]
    target = next(n for n in w.nobles if s["cz"][n] == Z_NOBLE and n != old)
    game.apply("umpire", "correct", {"kind": "card", "card": w.cards[c].id, "to": w.cards[target].id,
                                     "reason": "The title was his."})
    assert (game.state["cz"][c], game.state["ch"][c]) == (Z_AWARD, target)
    text = f"The umpire corrects: {w.cards[c].name} passes from {w.cards[old].name} to {w.cards[target].name}. Reason: The title was his."
    for role in SEATS:
        assert lines(game, role) == [text]


def test_a_noble_changes_faction_and_a_town_changes_hands() -> None:
    game = started()
    w = W(game.state)
    noble = a_noble(game, 0)
    n = w.cid(noble)
    game.apply("umpire", "correct", {"kind": "card", "card": noble, "to": "P3", "reason": "He defected."})
    assert (game.state["cz"][n], game.state["ch"][n]) == (Z_NOBLE, 2)
    assert lines(game, "P2")[-1] == f"The umpire corrects: {w.cards[n].name} passes from P1's faction to P3's faction. Reason: He defected."
    game.apply("umpire", "correct", {"kind": "place", "place": "rotherham", "to": "P2", "reason": "Taken last turn."})
    assert game.state["pown"]["rotherham"] == 1
    assert lines(game, OBSERVER)[-1] == "The umpire corrects: Rotherham is held by P2. Reason: Taken last turn."
    view = RULES.view(game.state, "P1")
    assert view["places"]["rotherham"]["owner"] == "P2"


def test_a_town_card_becomes_an_asset() -> None:
    game = started()
    s = game.state
    w = W(s)
    c = next(c for c in range(len(s["cz"])) if w.cards[c].kind == "town" and s["cz"][c] in (Z_HAND, Z_DECK))
    game.apply("umpire", "correct", {"kind": "card", "card": w.cards[c].id, "to": "asset:P2", "reason": "Bought."})
    assert (game.state["cz"][c], game.state["ch"][c]) == (Z_ASSET, 1)


def test_set_a_track() -> None:
    game = started()
    game.apply("umpire", "correct", {"kind": "track", "track": "round", "value": 7, "reason": "Rounds miscounted."})
    assert game.state["round"] == 7 and RULES.view(game.state, "P1")["round"] == 7
    assert lines(game, "P1") == ["The umpire corrects: the round track is set to 7. Reason: Rounds miscounted."]
    game.apply("umpire", "correct", {"kind": "undo", "reason": "No, it was right."})
    assert game.state["round"] == 1


def test_take_back_a_players_last_order_after_others_acted() -> None:
    game = started(3)
    s = game.state
    w = W(s)
    mover = game.active()[0]
    # the player whose turn it is moves a noble (select him, then a square)
    squares_before = list(s["nsq"])
    while list(game.state["nsq"]) == squares_before:
        legal = RULES.legal_actions(game.state, mover)
        pick = next((a for a in legal if a[0] == "to"), None) or next(a for a in legal if a[0] == "select")
        game.apply(mover, *pick)
    moved = next(n for n in range(len(squares_before)) if game.state["nsq"][n] != squares_before[n])
    assert game.state["last_orders"][mover]["patch"]["nsq"]
    # another seat acts (the umpire rules; a player's own orders are what is taken back)
    game.apply("umpire", "rule", "Movement continues.")
    game.apply("umpire", "correct", {"kind": "takeback", "role": mover, "reason": "He meant another noble."})
    assert game.state["nsq"][moved] == squares_before[moved]
    assert mover not in game.state.get("last_orders", {})
    line = lines(game, "P2")[-1]
    assert line.startswith(f"The umpire corrects: {mover}'s last order (") and line.endswith(
        ") is taken back. Reason: He meant another noble.")
    assert Game.from_record(RULES, game.record()).digest() == game.digest()
    del w


@pytest.mark.parametrize("bad", [
    None, "move", {"kind": "move", "piece": "x", "to": "york"},
    {"kind": "move", "piece": "x", "to": "york", "reason": "ok"},
    {"kind": "move", "piece": "warwick", "to": "Z99", "reason": "ok"},
    {"kind": "card", "card": "nonesuch", "to": "P2", "reason": "ok"},
    {"kind": "card", "card": "chancellor", "to": "P9", "reason": "ok"},
    {"kind": "track", "track": "round", "value": -1, "reason": "ok"},
    {"kind": "track", "track": "gold", "value": 3, "reason": "ok"},
    {"kind": "takeback", "role": "P9", "reason": "ok"},
    {"kind": "undo", "reason": "ok"},
    {"kind": "place", "place": "york", "to": "P7", "reason": "ok"},
    {"kind": "track", "track": "round", "value": 2, "reason": "bell\x07"},
])
def test_a_bad_correction_is_refused_and_changes_nothing(bad: Any) -> None:
    game = started()
    before = digest(game.state)
    with pytest.raises(IllegalAction):
        RULES.action(game.state, "umpire", "correct", bad)
    assert digest(game.state) == before


def test_only_the_umpire_corrects() -> None:
    game = started()
    with pytest.raises(IllegalAction):
        game.apply("P1", "correct", {"kind": "track", "track": "round", "value": 3, "reason": "I say so."})
    assert game.state["round"] == 1


def test_corrections_keep_the_invariants_and_replay_on_an_uploaded_board() -> None:
    """Every kind of correction, in a campaign played by bots on the small uploaded board
    (tests/kingmaker/data/small-board.json), leaves a position the invariants accept, and the
    record replays to the same state."""
    import json
    from pathlib import Path

    from roses.ai.bot import RandomBot

    board = json.loads((Path(__file__).parent / "data" / "small-board.json").read_text())
    game = Game.new(RULES, 8, "campaign", {"players": 3, "board": board, "umpire": True})
    bots = {r: RandomBot(seed=i) for i, r in enumerate(("P1", "P2", "P3"))}
    for _ in range(150):
        if game.state["result"] is not None:
            break
        role = game.active()[0]
        game.apply(role, *bots[role].choose(RULES, game.view(role), role))
    s = game.state
    w = W(s)
    assert s["round"] >= 1
    noble = next(w.cards[n].id for n in w.nobles if s["cz"][n] == Z_NOBLE and s["ncap"][n] < 0)
    award = next((w.cards[c].id for c in range(len(s["cz"])) if s["cz"][c] == Z_AWARD), None)
    deck_card = next(w.cards[c].id for c in s["cdeck"] if not w.cards[c].is_noble)
    corrections = [
        {"kind": "move", "piece": noble, "to": "london"},
        {"kind": "card", "card": deck_card, "to": "P2"},
        {"kind": "card", "card": deck_card, "to": "chancery"},
        {"kind": "place", "place": "york", "to": "P3"},
        {"kind": "track", "track": "catastrophe", "value": 2},
        {"kind": "undo"},
        {"kind": "remove", "piece": noble},
    ]
    if award is not None:
        corrections.insert(3, {"kind": "card", "card": award, "to": "deck"})
    mover = next((r for r in ("P1", "P2", "P3") if r in s.get("last_orders", {})), None)
    if mover is not None:
        corrections.append({"kind": "takeback", "role": mover})
    done = 0
    for c in corrections:
        before = digest(game.state)
        try:
            game.apply("umpire", "correct", {**c, "reason": "A test of every kind."})
            done += 1
        except IllegalAction as exc:  # a takeback of an order whose parts changed again since
            assert c["kind"] == "takeback" and "changed again since" in str(exc), (c, exc)
            assert digest(game.state) == before
        assert RULES.check_invariants(game.state) == [], c
    assert len(game.state["corrections"]) == done >= len(corrections) - 1
    assert Game.from_record(RULES, game.record()).digest() == game.digest()


def test_a_takeback_whose_parts_changed_again_is_refused_and_changes_nothing() -> None:
    game = started(3)
    mover = game.active()[0]
    squares_before = list(game.state["nsq"])
    while list(game.state["nsq"]) == squares_before:
        legal = RULES.legal_actions(game.state, mover)
        game.apply(mover, *(next((a for a in legal if a[0] == "to"), None) or next(a for a in legal if a[0] == "select")))
    moved = next(n for n in range(len(squares_before)) if game.state["nsq"][n] != squares_before[n])
    noble = W(game.state).cards[moved].id
    game.apply("umpire", "correct", {"kind": "move", "piece": noble, "to": "york", "reason": "He rode on."})
    before = digest(game.state)
    with pytest.raises(IllegalAction, match="changed again since"):
        game.apply("umpire", "correct", {"kind": "takeback", "role": mover, "reason": "Mistaken order."})
    assert digest(game.state) == before
