"""A group's own board as a game option (docs/kingmaker/board.md, ruling K92): the option
``board`` takes a board in the documented format as a JSON object (an uploaded file), checked
as ``roses kingmaker check-board`` checks a file; the game is set up, played and drawn on it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from roses.ai.bot import RandomBot
from roses.engine.contract import canonical_json
from roses.engine.errors import BadOptions
from roses.engine.game import Game
from roses.games.kingmaker import RULES
from roses.games.kingmaker import common as C
from roses.games.kingmaker.board import board_of_option, check_board
from roses.games.kingmaker.setup import UPLOAD, BadBoard

SMALL = Path(__file__).parent / "data" / "small-board.json"


def small_board() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SMALL.read_text())
    return data


def test_the_options_schema_declares_the_board_as_an_uploaded_json_file() -> None:
    schema = RULES.options_schema()
    for name in ("board", "event_deck"):
        assert schema[name]["type"] == "object"
        assert schema[name]["format"] == UPLOAD == "roses-upload"
        assert schema[name]["contentMediaType"] == "application/json"
        assert schema[name]["default"] is None
    assert "check-board" in schema["board"]["label"]


def test_a_game_on_an_uploaded_board_is_set_up_on_it_k92() -> None:
    data = small_board()
    state = RULES.setup(5, "campaign", {"players": 3, "board": data})
    w = C.W(state)
    assert w.board.id == "vale-test" and state["board"].startswith("upload:")
    assert state["opts"]["board"] == state["board"]  # the options in the state hold the key only
    assert state["board_data"] == data
    assert state["log"][0] == ["", "The campaign is played on the board The Vale (test board).", "setup"]
    view = RULES.view(state, "P1")
    assert view["board"] == {"id": "vale-test", "name": "The Vale (test board)", "columns": 8, "rows": 6}
    assert RULES.describe(view).startswith("Board: The Vale (test board).")


def test_bots_play_a_game_on_the_uploaded_board_and_its_replay_is_identical_k92() -> None:
    data = small_board()
    game = Game.new(RULES, 11, "campaign", {"players": 3, "board": data})
    bots = {r: RandomBot(seed=i) for i, r in enumerate(RULES.roles("campaign", {"players": 3}))}
    squares = set(C.W(game.state).board.squares)
    steps = 0
    while steps < 250 and game.state["result"] is None:
        role = game.active()[0]
        verb, arg = bots[role].choose(RULES, game.view(role), role)
        game.apply(role, verb, arg)
        steps += 1
        assert RULES.check_invariants(game.state) == []
    state = game.state
    assert state["round"] >= 1  # past the setup, into the campaign's turns
    for n in C.W(state).nobles:  # every counter stands on this board's squares
        assert state["nsq"][n] is None or state["nsq"][n] in squares
    # §Setting out Counters on this board: an heir starts at a place of this board, or is out
    # of play when his places are not on it (Henry VI's London, Windsor and Bristol all are)
    assert not state["hdead"][0] or state["result"] is not None
    assert all(state["hdead"][h] or state["hesc"][h] >= 0 or state["hsq"][h] in squares
               for h in range(len(state["hsq"])))
    # the record replays to the same state in a process that has forgotten the board: the
    # state carries the board's data
    record = json.loads(canonical_json(game.record()))
    C._UPLOADED.clear()
    again = Game.from_record(RULES, record)
    assert canonical_json(again.state) == canonical_json(state)
    assert C.W(again.state).board.name == "The Vale (test board)"


def test_the_drawing_comes_from_the_games_board_option_not_the_default_file_k92() -> None:
    from roses.games.kingmaker.board_web import board_data

    drawing = board_data(board_of_option(small_board()))
    assert drawing["name"] == "The Vale (test board)" and (drawing["columns"], drawing["rows"]) == (8, 6)
    assert sorted(drawing["places"]) == sorted(p["id"] for p in small_board()["places"])
    assert drawing["places"]["london"]["port"] == ["C6"] and drawing["places"]["york"]["cathedral"]
    assert board_data(board_of_option(None))["id"] != "vale-test"


def test_a_bad_board_is_refused_with_its_faults_and_changes_nothing_k92() -> None:
    bad = small_board()
    bad["places"][0]["square"] = "Z9"  # off the grid
    bad["terrain"][0] = "ooo"  # a row too short
    del bad["name"]
    with pytest.raises(BadBoard) as err:
        RULES.setup(1, "campaign", {"players": 3, "board": bad})
    exc = err.value
    assert isinstance(exc, ValueError) and isinstance(exc, BadOptions)
    assert exc.faults == check_board(bad, rulebook=False)
    assert "board: missing field 'name'" in exc.faults
    assert str(exc).startswith(f"Board: {len(exc.faults)} fault(s)")
    assert "missing field 'name'" in str(exc)
    # a board whose structure is whole but whose places are wrong: every fault listed
    bad2 = small_board()
    bad2["places"][0]["square"] = "Z9"
    bad2["places"][4]["garrison"] = 100  # an open town with a garrison
    with pytest.raises(BadBoard) as err2:
        RULES.setup(1, "campaign", {"players": 3, "board": bad2})
    assert len(err2.value.faults) == 2
    assert any("york" in f and "Z9" in f for f in err2.value.faults)
    assert any("coventry" in f for f in err2.value.faults)


@pytest.mark.parametrize("value", [3, ["board"], True])
def test_a_board_option_that_is_not_a_board_is_refused(value: Any) -> None:
    with pytest.raises(BadOptions, match="board"):
        RULES.setup(1, "campaign", {"players": 3, "board": value})


def test_the_same_board_uploaded_twice_is_one_board_and_the_upload_is_not_changed_k92() -> None:
    data = small_board()
    before = copy.deepcopy(data)
    a = RULES.setup(1, "campaign", {"players": 2, "board": data})
    b = RULES.setup(2, "campaign", {"players": 2, "board": json.loads(json.dumps(data))})
    assert a["board"] == b["board"] and C.W(a) is C.W(b)
    assert data == before
    c = RULES.copy_state(a)
    assert c["board_data"] is a["board_data"]  # shared by copies: no rule changes it


def test_the_server_creates_a_game_on_an_uploaded_board_and_refuses_a_bad_one(tmp_path: Path) -> None:
    """Through the API: ``options.board`` is accepted as a JSON object, the game's drawing is
    the uploaded board's, and a faulty board is refused with a 400 naming every fault."""
    from roses.server.db import Database
    from tests.server.conftest import build_client, user

    database = Database(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    database.migrate()
    with build_client(database) as client:
        alice = user(client, "alice")
        r = client.post("/api/games", json={"game": "kingmaker", "role": "P1",
                                             "options": {"players": 3, "board": small_board()}}, headers=alice)
        assert r.status_code == 201, r.text
        drawing = client.get(f"/games/{r.json()['id']}/board.json", headers=alice)
        assert drawing.status_code == 200 and drawing.json()["name"] == "The Vale (test board)"
        bad = small_board()
        bad["places"][4]["garrison"] = 100  # an open town with a garrison
        bad["places"][0]["square"] = "Z9"  # off the grid
        r = client.post("/api/games", json={"game": "kingmaker", "role": "P1",
                                             "options": {"players": 3, "board": bad}}, headers=alice)
        assert r.status_code == 400
        body = r.json()
        assert body["detail"].startswith("Board: 2 fault(s)"), body
        errors = body["errors"]  # each fault listed
        assert len(errors) == 2 and any("'york'" in e for e in errors) and any("'coventry'" in e for e in errors), errors
    database.dispose()


def test_a_card_naming_a_zone_the_uploaded_board_lacks_says_it_in_words_k92() -> None:
    from roses.games.kingmaker.views import card_text

    state = RULES.setup(1, "campaign", {"players": 2, "board": small_board()})
    w = C.W(state)
    warden = w.cid("warden_of_the_marches")
    assert "north_of_tees" not in w.board.zone_names
    text = card_text(w, warden)
    assert "north of tees" in text and "north_of_tees" not in text


def test_the_option_summary_names_the_board_for_a_lobby() -> None:
    assert RULES.option_summary({"players": 3, "board": small_board(), "umpire": True}) == [
        "Board: The Vale (test board)", "Event deck: the open deck", "3 players, basic rules, round limit 30",
        "An umpire"]
    assert RULES.option_summary({"players": 2})[0] == "Board: Roses open board"
    bad = small_board()
    bad["places"][4]["garrison"] = 100
    assert RULES.option_summary({"board": bad}) == ["Board: not a valid board"]
