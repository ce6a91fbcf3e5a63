"""The Kingmaker board drawing data (roses/games/kingmaker/board_web.py): built from the game's own
board module, so the shipped open board and a supplied board (docs/kingmaker/board.md) draw
the same way; served per game at /games/{id}/board.json."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from roses.games.kingmaker import board_web as kingmaker_board
from roses.games.kingmaker.board import DATA_DIR, load_board
from tests.server.conftest import build_client, user


def _check_drawing(data: dict[str, Any], path: str | None, rulebook: bool = True) -> None:
    board = load_board(path, rulebook=rulebook)
    assert data["columns"] == board.columns and data["rows"] == board.rows
    assert len(data["terrain"]) == board.rows and all(len(r) == board.columns for r in data["terrain"])
    for sq in board.squares.values():
        code = data["terrain"][sq.row][sq.col]
        assert code == (("f" if sq.forest else "o") if sq.land else "."), sq.id
        assert data["area_map"][sq.row][sq.col] == board.areas[sq.area].code
    assert set(data["places"]) == set(board.places)
    for pid, p in board.places.items():
        d = data["places"][pid]
        assert (d["square"], d["type"], d["garrison"], d["capacity"], tuple(d["port"])) == (
            p.square, p.type, p.garrison, p.capacity, p.port)
    assert {f["id"] for f in data["features"]} == set(board.features)
    assert data["viewBox"] == [0, 0, board.columns * data["cell"], board.rows * data["cell"]]


def test_the_open_board_drawing_is_the_board_module_data() -> None:
    _check_drawing(kingmaker_board.board_data(load_board()), None)


def test_a_supplied_board_draws_from_its_own_data() -> None:
    """A small board in the same format (the format's example) gives its own grid and places."""
    path = str(DATA_DIR / "example-board.json")
    board = load_board(path, rulebook=False)
    data = kingmaker_board.board_data(board)
    _check_drawing(data, path, rulebook=False)
    assert data["columns"] < 10 and data["id"] == board.id


def test_game_board_route(tmp_path: Path) -> None:
    from roses.server.db import Database

    database = Database(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    database.migrate()
    with build_client(database) as client:
        alice = user(client, "alice")
        r = client.post("/api/games", json={"game": "kingmaker", "role": "P1", "preview": True,
                                             "options": {"players": 3}}, headers=alice)
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        res = client.get(f"/games/{gid}/board.json", headers=alice)
        assert res.status_code == 200, res.text
        _check_drawing(res.json(), None)
        assert client.get("/games/999999/board.json", headers=alice).status_code == 404
        toy = client.post("/api/games", json={"game": "richard3", "role": "York"}, headers=alice)
        assert toy.status_code == 201, toy.text
        other = client.get(f"/games/{toy.json()['id']}/board.json", headers=alice)
        assert other.status_code == 404 and other.json()["code"] == "no_board"
    database.dispose()
