"""A game plugs into the server by what its rules declare (``roses/engine/contract.py``), never
by its id: a stub game ("plugged", the toy game with declarations) gets the generic board route,
an option uploaded as a file that the server checks and passes to the rules (the rules' own
refusal coming back as a 400 listing its faults), what it is played with in the lobby's lists,
and its client module and other declarations in the catalogue."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.engine.errors import BadOptions
from roses.server import gamestore, service
from tests.server.conftest import build_client, user
from tests.server.plugged import SMALL_BOARD, register, unregister


@pytest.fixture
def plugged() -> Iterator[None]:
    register()
    yield
    unregister()


@pytest.fixture
def pclient(plugged: None, sqlite_db: Any) -> Iterator[TestClient]:
    with build_client(sqlite_db) as c:
        yield c


def _create(client: TestClient, who: dict[str, str], **options: Any) -> Any:
    return client.post("/api/games", json={"game": "plugged", "role": "North", "options": options}, headers=who)


def test_uploaded_board_reaches_the_rules_and_the_board_route(pclient: TestClient) -> None:
    alice = user(pclient, "alice")
    r = _create(pclient, alice, board=SMALL_BOARD)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert r.json()["played_with"] == "Board: The Tiny Shire"
    assert r.json()["umpire"] is None  # declared, but this game's roles have no such seat
    res = pclient.get(f"/games/{gid}/board.json", headers=alice)
    assert res.status_code == 200
    assert res.json() == {"format": "plugged-drawing", "name": "The Tiny Shire", "squares": ["a1", "a2", "b1"]}
    # the lobby's lists say which board it is played with
    listed = pclient.get("/api/games?status=open", headers=alice).json()
    assert [g["played_with"] for g in listed if g["id"] == gid] == ["Board: The Tiny Shire"]
    # a game created without one: the standard board, and nothing to say in the lists
    plain = _create(pclient, alice)
    assert plain.status_code == 201 and plain.json()["played_with"] == ""
    assert pclient.get(f"/games/{plain.json()['id']}/board.json").json()["name"] == "The standard board"


def test_rules_refusal_of_an_upload_is_a_400_listing_each_fault(pclient: TestClient) -> None:
    alice = user(pclient, "alice")
    r = _create(pclient, alice, board={"squares": ["a1", "abc", 7]})
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "bad_setup" and body["detail"] == "board: 3 fault(s)"
    assert body["errors"] == ["the board has no name", "square 'abc' is not a square id",
                              "square 7 is not a square id"]
    assert pclient.get("/api/games?status=open", headers=alice).json() == []  # nothing was created


def test_upload_must_be_a_json_object_of_bounded_size(pclient: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    alice = user(pclient, "alice")
    r = _create(pclient, alice, board=["a1"])
    assert r.status_code == 400 and "JSON object" in r.json()["detail"]
    monkeypatch.setattr(gamestore, "MAX_UPLOAD", 100)
    r = _create(pclient, alice, board={"name": "Big", "squares": [f"{c}{n}" for c in "abcdefgh" for n in range(1, 9)]})
    assert r.status_code == 400 and "too large" in r.json()["detail"]
    assert pclient.get("/api/games?status=open", headers=alice).json() == []


def test_a_message_lists_the_faults_of_its_further_lines() -> None:
    """A rules' ValueError without ``errors``: its message's lines that begin with "-"."""
    exc = service.setup_refused(ValueError("board.json: 2 fault(s)\n  - no grid\n  - area 'x' unknown"))
    assert (exc.status, exc.message, exc.errors) == (400, "board.json: 2 fault(s)", ["no grid", "area 'x' unknown"])
    plain = service.setup_refused(ValueError("bad deck"))
    assert (plain.message, plain.errors) == ("bad deck", None)
    # the rules' own option error (a RosesError) is read the same way
    wrapped = service.setup_refused(BadOptions("Board: 1 fault(s)\n  - place 'x' off the grid"))
    assert (wrapped.message, wrapped.errors) == ("Board: 1 fault(s)", ["place 'x' off the grid"])
    two_lines = service.setup_refused(BadOptions("Event deck: unreadable\nsee the format"))
    assert (two_lines.message, two_lines.errors) == ("Event deck: unreadable\nsee the format", None)


def test_catalogue_carries_the_declarations(pclient: TestClient) -> None:
    rules = {g: pclient.get(f"/api/rules/{g}").json() for g in ("plugged", "toy")}
    assert rules["plugged"]["client"] == "/static/js/games/generic.js"
    assert rules["plugged"]["rounds"] is True and rules["plugged"]["umpire"] == "Referee"
    assert rules["plugged"]["options"]["board"]["format"] == "roses-upload"
    assert rules["toy"]["client"] is None and rules["toy"]["umpire"] is None and rules["toy"]["rounds"] is False


def test_board_route_for_a_game_without_board_data(pclient: TestClient) -> None:
    alice = user(pclient, "alice")
    r = pclient.post("/api/games", json={"game": "toy", "role": "North"}, headers=alice)
    assert r.status_code == 201
    res = pclient.get(f"/games/{r.json()['id']}/board.json", headers=alice)
    assert res.status_code == 404 and res.json()["code"] == "no_board"
    assert pclient.get("/games/999999/board.json", headers=alice).status_code == 404
