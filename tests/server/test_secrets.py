"""Hidden information: every payload each role receives (HTTP and WebSocket), errors included,
is scanned for the tokens ``Rules.secrets`` names for that role."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient

from roses.server.db import Database

from .conftest import build_client
from .playthrough import play_and_scan


def test_toy_games_leak_nothing(client: TestClient, database: Database, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    for seed in (1, 2, 3):
        out = play_and_scan(client, database, "toy", "short", seed=seed)
        assert out["leaks"] == []
        assert out["status"] == "finished" and out["refused"] > 0
    assert "You picked" not in caplog.text


def _leaky_views(monkeypatch: pytest.MonkeyPatch) -> None:
    from roses.engine import get_rules

    rules = get_rules("toy")
    original = rules.view

    def leaky(state: dict, role: str) -> dict:
        v = original(state, role)
        v["peek"] = [e for e in state["log"] if isinstance(e, list)]
        return v

    monkeypatch.setattr(rules, "view", leaky)


def test_scanner_catches_a_leak(database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan is real: with the server's own guard off, a view that shows the other side's
    pick is caught by the test's scan."""
    _leaky_views(monkeypatch)
    with build_client(database, guard_views=False) as client:
        out = play_and_scan(client, database, "toy", "short", seed=5, max_steps=6)
    assert out["leaks"]


def test_server_withholds_a_leaking_view(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                        caplog: pytest.LogCaptureFixture) -> None:
    """Defence in depth: the server checks views against Rules.secrets and withholds a leak."""
    from .conftest import act, started_toy

    _leaky_views(monkeypatch)
    caplog.set_level(logging.DEBUG)
    gid, north, south = started_toy(client)
    act(client, gid, north, "pick", 3, version=0)
    r = client.get(f"/api/games/{gid}/view", headers=south)
    assert r.json()["view"]["withheld"] is True and "You picked 3." not in r.text
    with client.websocket_connect(f"/api/games/{gid}/ws", headers=south) as ws:
        assert "You picked 3." not in str(ws.receive_json())
    assert "withheld" in caplog.text and "You picked" not in caplog.text
    north_view = client.get(f"/api/games/{gid}/view", headers=north).json()["view"]
    assert "withheld" not in north_view  # North may see its own pick


def test_rules_crash_leaks_nothing_in_reply_or_log(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    """An unexpected error inside the rules (whose message quotes hidden state) reaches neither
    the player nor the server log; the game is unchanged."""
    from roses.engine import get_rules

    from .conftest import act, started_toy

    rules = get_rules("toy")
    original = rules.action

    def crashing(state: dict, role: str, verb: str, arg: object = None) -> dict:
        if verb == "step":
            raise KeyError(f"secret pick {state['secret']}")
        return original(state, role, verb, arg)

    monkeypatch.setattr(rules, "action", crashing)
    caplog.set_level(logging.DEBUG)
    gid, north, south = started_toy(client)
    act(client, gid, north, "pick", 3, version=0)
    act(client, gid, south, "pick", 1, version=1)
    r = act(client, gid, north, "step", version=2)
    assert r.status_code == 422 and r.json()["code"] == "malformed_action"
    assert "secret pick" not in r.text and "secret pick" not in caplog.text
    assert "KeyError" in caplog.text
    assert client.get(f"/api/games/{gid}").json()["version"] == 2
    assert act(client, gid, north, "roll", version=2).status_code == 200


def test_view_crash_is_a_plain_500(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                   caplog: pytest.LogCaptureFixture) -> None:
    from roses.engine import get_rules

    from .conftest import started_toy

    gid, north, south = started_toy(client)
    rules = get_rules("toy")

    def crashing(state: dict, role: str) -> dict:
        raise ValueError(f"hidden {state['secret']} rng {state['rng']}")

    monkeypatch.setattr(rules, "view", crashing)
    caplog.set_level(logging.DEBUG)
    r = client.get(f"/api/games/{gid}/view", headers=north)
    assert r.status_code == 500 and r.json() == {"detail": "Internal server error.", "code": "internal"}
    with client.websocket_connect(f"/api/games/{gid}/ws", headers=south) as ws:
        assert ws.receive_json()["status"] == 500
    assert "hidden" not in caplog.text and "ValueError at" in caplog.text


def test_rules_message_naming_a_secret_is_withheld(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Second line of defence: a refusal message that names another side's secret is replaced."""
    from roses.engine import get_rules
    from roses.engine.errors import IllegalAction

    from .conftest import act, started_toy

    rules = get_rules("toy")
    original = rules.action

    def blabbing(state: dict, role: str, verb: str, arg: object = None) -> dict:
        if verb == "pick" and arg == 2 and state["secret"]:
            other = next(iter(state["secret"].values()))
            raise IllegalAction(f"You picked {other}.")
        return original(state, role, verb, arg)

    monkeypatch.setattr(rules, "action", blabbing)
    gid, north, south = started_toy(client)
    act(client, gid, north, "pick", 3, version=0)
    r = act(client, gid, south, "pick", 2, version=1)
    assert r.status_code == 422 and "3" not in r.json()["detail"]
    assert r.json()["detail"] == "That action is not allowed now."
    r = act(client, gid, south, "pick", 7, version=1)
    assert r.json()["detail"] == "South cannot pick now."  # clean messages pass unchanged


def test_refusal_is_no_oracle_for_secret_arguments(client: TestClient, database: Database) -> None:
    """A refused action is answered the same way whether its argument names a secret of another
    side or not (the engine's refusal quotes the argument, engine/steps.py ``refusal``): before,
    an argument naming an enemy block got a generic refusal and any other was echoed back,
    which told the asker which blocks the enemy has."""


    from roses.engine import get_rules
    from roses.engine.errors import UnknownGame
    from roses.server.service import GameService

    from .conftest import new_game, user

    try:
        rules = get_rules("richard3")
    except UnknownGame:
        pytest.skip("richard3 is not installed")
    york, lancaster = user(client, "york"), user(client, "lancaster")
    g = new_game(client, york, game="richard3", role="York")
    assert client.post(f"/api/games/{g['id']}/join", json={"role": "Lancaster"},
                       headers=lancaster).status_code == 200
    state = GameService(database).stored_state(g["id"])
    for role, who in (("York", york), ("Lancaster", lancaster)):
        hidden = sorted(rules.secrets(state, role))
        assert hidden
        view = client.get(f"/api/games/{g['id']}/view", headers=who).json()["view"]
        verb = sorted(view["actions"])[0]
        answers = {}
        for kind, arg in (("secret", hidden[0]), ("secret", [hidden[-1]]), ("other", "Nobody/Q"),
                          ("other", ["Nobody/Q"])):
            r = client.post(f"/api/games/{g['id']}/action", headers=who,
                            json={"role": role, "verb": verb, "arg": arg, "version": 0})
            assert r.status_code == 422, r.text
            shown = arg if isinstance(arg, str) else repr(arg)
            assert shown in r.json()["detail"], (kind, r.text)  # quoted back either way
            answers.setdefault(kind, set()).add((r.json()["code"], r.json()["detail"].replace(shown, "<arg>")))
        assert answers["secret"] == answers["other"], answers
    assert client.get(f"/api/games/{g['id']}").json()["version"] == 0
