"""The terminal game a person can follow (roses/terminal.py with Kingmaker's describe, labels,
``verb_help`` and ``option_notes``: reading.py): names, not ids; what stands on each square a
move offers; places held, sieges, alliances and offers; verbs explained once; the screen
cleared between the players of a hot-seat game."""

from __future__ import annotations

import re
from pathlib import Path

from roses.engine.game import Game
from roses.games.kingmaker import RULES
from roses.games.kingmaker.common import W
from roses.terminal import CLEAR, play_terminal
from tests.kingmaker.helpers import give_hand, put, staged, turn_of
from tests.kingmaker.test_orders import MOVE

ID = re.compile(r"\b(town|earl|duke|bishop|archbishop|ship|chancellor|captain)_[a-z_]+\b")


def hot_seat(answers: list[str], seed: int = 4) -> tuple[list[str], list[str], Game]:
    out: list[str] = []
    prompts: list[str] = []
    feed = iter(answers)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(feed)

    game = play_terminal(RULES, "campaign", seed, {}, read=read, write=out.append, options={"players": 2})
    return out, prompts, game


def test_hot_seat_clears_the_screen_and_asks_for_the_keyboard_between_players() -> None:
    out, prompts, game = hot_seat(["1"] * 80 + ["q"])
    assert CLEAR in out
    assert any(p.startswith("P2: your turn to play. Press Enter") for p in prompts)
    # between two clears only one player's hand is on the screen
    screens: list[list[str]] = [[]]
    for line in out:
        if line == CLEAR:
            screens.append([])
        else:
            screens[-1].append(line)
    for screen in screens:
        owners = {line.split(":")[0] for line in screen if line.startswith("== P")}
        assert len(owners) <= 1, owners
    dealt = [line for line in out if line.startswith("  You are dealt:")]
    assert len(dealt) == 2 and out.index(dealt[1]) > out.index(CLEAR)  # P2's deal only after a clear


def test_names_not_ids_and_no_none_in_the_setup_screen() -> None:
    out, _, _ = hot_seat(["q"])
    text = "\n".join(out)
    assert not ID.search(text), ID.search(text)
    assert "None" not in text and "at off the board" not in text
    assert "Heirs: placed by dice when the factions are arranged" in text
    assert "Places held: P1: " in text and "Alliances: none" in text


def test_each_verb_is_explained_once() -> None:
    out, _, _ = hot_seat(["1"] * 80 + ["q"])
    helps = [line for line in out if line.startswith("  (") and ": " in line]
    verbs = [line[3:].split(":")[0] for line in helps]
    assert "give" in verbs and "select" in verbs and "deal" in verbs
    assert len(verbs) == len(set(verbs))
    assert "  (deal: open the dealing menu: offer cards, lend ships, transfer awards, heirs or places, propose or " \
           "end alliances; the other player accepts or declines (§Transfers, §Alliances))" in out


def test_a_move_says_what_stands_on_each_square(tmp_path: Path) -> None:
    state = staged(tmp_path)
    put(state, 0, "percy", "B4")
    put(state, 1, "mowbray", "C4", "nottingham")
    state["pown"]["nottingham"] = 1
    turn_of(state, 0, dict(MOVE), stage=2)
    RULES.action(state, "P1", "select", "percy")
    view = RULES.view(state, "P1")
    w = W(state)
    notes = view["option_notes"]["to"]
    assert notes['"C4"'] == "Mowbray of P2 in Nottingham; Nottingham (held by P2)"
    assert notes['"B5"'] == "London (neutral)"
    assert '"A1"' not in notes  # nothing there
    assert RULES.label(state, "P1", "to", "C4") == "move to the open ground at Nottingham"
    assert w.board.places["nottingham"].square == "C4"


def test_the_position_shows_places_sieges_alliances_and_offers(tmp_path: Path) -> None:
    state = staged(tmp_path)
    put(state, 0, "percy", "C4")
    put(state, 1, "mowbray", "C4", "nottingham")
    state["pown"]["nottingham"] = 1
    state["pown"]["london"] = 0
    state["siege"]["nottingham"] = 0
    state["ally"][0][2] = state["ally"][2][0] = 1
    give_hand(state, 0, "chancellor")
    turn_of(state, 0, dict(MOVE), stage=2)
    RULES.action(state, "P1", "propose_exchange", {"to": "P2", "give": {"cards": ["chancellor"]}})
    text = RULES.describe(RULES.view(state, "P1"))
    assert "Places held: P1: London; P2: Nottingham" in text
    assert "Sieges: Nottingham (P2) besieged by P1" in text
    assert "Alliances: P1 and P3" in text
    assert "Pending offer 1 from P1 to P2: P1 gives Chancellor of England; P2 gives nothing." in text
    other = RULES.describe(RULES.view(state, "P3"))
    assert "Pending offer" not in other  # an offer is seen by its two parties only
    text2 = RULES.describe(RULES.view(state, "P2"))
    assert "Pending offer 1 from P1 to P2" in text2


def test_a_question_shows_who_is_waited_for_and_the_default(tmp_path: Path) -> None:
    state = staged(tmp_path)
    put(state, 0, "percy", "C4")
    put(state, 1, "mowbray", "A1")
    state["pown"]["nottingham"] = 1
    turn_of(state, 0, dict(MOVE), stage=2)
    RULES.action(state, "P1", "enter", ["percy", "nottingham"])
    asked = RULES.describe(RULES.view(state, "P2"))
    assert f"If you do not answer in time: {RULES.label(state, 'P2', 'deny', None)} (the published default)." in asked
    waiting = RULES.describe(RULES.view(state, "P1"))
    assert "Waiting for P2: P1 asks that Percy may enter Nottingham. Allow? (default: no)" in waiting
