"""The Kingmaker bots leave a refuge in time: a noble who entered a refuge without a Refuge card
(to take an heir, besiege or attack) must be out of it by the end of his player's next turn,
or he is killed and the heirs he escorts are lost with him (E1 §Refuges, ruling K62). A bot
whose noble escorting its crowned King stood on the Continent one turn too long lost both (a
traced arena game: the sole King, Henry VI, lost in round 15, and no victory after)."""

from __future__ import annotations

import copy

from roses.engine.game import Game
from roses.games.kingmaker import RULES, ai
from roses.games.kingmaker.common import Z_DISC, Z_NOBLE, W
from roses.games.kingmaker.play import doomed_raiders, raiders_leave
from tests.kingmaker.test_bots import _noble_of
from tests.kingmaker.test_bots_plan import _bot_choice
from tests.kingmaker.test_bots_sea import _setup

#: A square of the Continent (a refuge, E1 §Refuges) beside the Pale of Calais.
CONTINENT = "AM37"


def _king_on_the_continent() -> tuple[Game, int, int, str]:
    """A 3-player E2 game's first movement phase: Henry VI crowned, escorted by a noble of the
    player to move in the open at :data:`CONTINENT`, where he went without a Refuge card three
    turns ago; the faction holds no place there and no Treaty (no leave to stay). Richard of
    York is alive, held by the next player (so the game goes on)."""
    game, p, _, mine = _setup("dover", "dover")
    state = game.state
    w = W(state)
    n = mine[0]
    state["nsq"][n], state["nin"][n] = CONTINENT, None
    henry = w.heir_codec.id("henry_vi")
    state["hcrown"][henry], state["hesc"][henry] = True, n
    york = w.heir_codec.id("richard_of_york")
    state["hdead"][york], state["hesc"][york] = False, _noble_of(state, (p + 1) % 3)
    state["raiders"] = [[n, "continent", state["tno"] - 3]]
    state["refuges"] = []
    state["treaty"] = -1
    assert w.board.squares[CONTINENT].area == "continent"
    return game, p, n, f"P{p + 1}"


def test_a_noble_in_a_refuge_since_an_earlier_turn_dies_with_his_king_at_its_end_k62() -> None:
    """Ruling K62 (E1 §Refuges): the rule the bots must meet. Left where he is, the escort is
    killed at the end of his player's turn and Henry VI is lost with him."""
    game, p, n, _ = _king_on_the_continent()
    state = copy.deepcopy(game.state)
    assert doomed_raiders(state, p) == [n]
    raiders_leave(state, p)
    henry = W(state).heir_codec.id("henry_vi")
    assert state["cz"][n] == Z_DISC and state["hdead"][henry]


def test_the_bot_moves_a_noble_out_of_a_refuge_before_his_time_is_up_k62() -> None:
    """Ruling K62: the doomed escort is the first noble the bot moves, every move it weighs
    takes him out of the Continent, and once its movement is over he and his King are alive
    outside it."""
    game, p, n, role = _king_on_the_continent()
    state = game.state
    w = W(state)
    noble = w.cards[n].id
    assert ("select", noble) in RULES.legal_actions(state, role)
    assert ai.search_choices(state, role, RULES.legal_actions(state, role)) == [("select", noble)]
    game.apply(role, "select", noble)
    moves = [a for a in ai.search_choices(game.state, role, RULES.legal_actions(game.state, role)) if a[0] == "to"]
    assert moves

    def area(dest: str) -> str:
        b = W(game.state).board
        return b.squares[b.places[dest].square if dest in b.places else dest].area

    assert all(area(str(a[1])) != "continent" for a in moves), moves
    turn = game.state["tno"]
    for _ in range(200):  # the bots play on until the turn ends (another may answer on the way)
        if game.state["tno"] != turn or game.state["result"] is not None:
            break
        who = game.active()[0]
        verb, arg = _bot_choice(game.state, who)
        game.apply(who, verb, arg)
    state = game.state
    henry = w.heir_codec.id("henry_vi")
    assert state["tno"] != turn, "the bot's turn did not end"
    assert state["cz"][n] == Z_NOBLE and not state["hdead"][henry]
    assert W(state).board.squares[state["nsq"][n]].area != "continent"
