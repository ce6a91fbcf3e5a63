"""The gazette (roses/server/gazette.py): one public edition per finished round
built from the public log lines, the changes on the board and the observer's board; a private
report per seat; editions never change as play goes on (digest chain); no edition, report or
page holds what its reader may not know (Rules.secrets of every seat)."""

from __future__ import annotations

import email
import email.policy
import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.engine import Game, get_rules
from roses.engine import log as L
from roses.engine.contract import OBSERVER
from roses.server import db, lobby
from roses.server.db import Database
from roses.server.events import ROUND, TURN
from roses.server.gazette import Builder, build, render, report
from tests.server.conftest import build_client, user
from tests.server.test_clocks import Recorder
from tests.server.test_notify import Mailbox, mailbox, wait_for  # noqa: F401 - the fixture

RULES = get_rules("kingmaker")


def _play(game: Game, rnd: random.Random, until_round: int, limit: int = 3000) -> list[dict[str, Any]]:
    """Random play until ``until_round``; returns every seat's secrets at each round's opening."""
    snaps = []
    last = game.state.get("round", 0)
    for _ in range(limit):
        if game.state.get("round", 0) >= until_round or not game.active():
            break
        role = game.active()[0]
        verb, arg = rnd.choice(RULES.legal_actions(game.state, role))
        game.apply(role, verb, arg)
        if game.state.get("round", 0) != last:
            last = game.state["round"]
            snaps.append({r: RULES.secrets(game.state, r) for r in game.state["roles"]})
    return snaps


def test_editions_cover_the_public_log_and_never_change() -> None:
    game = Game.new(RULES, 8, "campaign", {"players": 3})
    rnd = random.Random(8)
    secrets = _play(game, rnd, 3)
    early = render(build("kingmaker", game.record(), False), "commit")
    assert [e["round"] for e in early] == [0, 1, 2]  # round 3 is in progress: no edition
    secrets += _play(game, rnd, 5)
    gz = build("kingmaker", game.record(), False)
    later = render(gz, "commit")
    assert [e["round"] for e in later] == [0, 1, 2, 3, 4]
    assert later[:3] == early  # published history never changes
    # fed action by action in two goes (as the server keeps it), the same editions
    record = game.record()
    fed = Builder("kingmaker", record["seed"], record["scenario"], record["options"])
    half = len(record["actions"]) // 2
    for entry in record["actions"][:half]:
        fed.feed(entry)
    assert render(fed.gazette(False), "commit") == [e for e in later if e["round"] < fed.current]
    for entry in record["actions"][half:]:
        fed.feed(entry)
    assert render(fed.gazette(False), "commit") == later
    for prev, ed in zip(later, later[1:], strict=False):
        assert ed["previous"] == prev["digest"]
    # the board is the observer's view without the parts added later (Parliament screen,
    # negotiation): editions published before them keep their digest
    assert all("parliament" not in ed["board"] and "negotiation" not in ed["board"] for ed in later)
    # the editions are the observer's log in order, nothing lost, nothing twice
    public = [L.entry_text(e) for e in gz.log[:gz.editions[-1].end] if L.readable(e, OBSERVER)]
    assert [line["text"] for ed in later for line in ed["lines"]] == public
    assert later[1]["lines"][0]["kind"] == "turn" and later[1]["changes"]
    # nothing any seat keeps secret is in an edition
    text = json.dumps(later)
    for snap in secrets:
        for role, keep in snap.items():
            for s in keep:
                assert s not in text, f"an edition holds {role}'s secret {s!r}"
    # a seat's report: its own private lines of the round, and nothing another seat keeps secret
    for role in game.state["roles"]:
        mine = [report(gz, ed.round, role) for ed in gz.editions]
        lines = [line["text"] for r in mine for line in r["lines"]]
        private = [L.entry_text(e) for e in gz.log[:gz.editions[-1].end]
                   if L.readable(e, role) and not L.readable(e, OBSERVER)]
        assert lines == private
        for s in set().union(*(snap[role] for snap in secrets)):
            assert s not in json.dumps(mine)


def test_a_finished_game_has_its_last_round_published() -> None:
    game = Game.new(RULES, 9, "campaign", {"players": 2})
    _play(game, random.Random(9), 2)
    game.state = RULES.finish(game.state, "P1", "The campaign was adjudicated.")
    gz = build("kingmaker", game.record(), True)
    assert [e.round for e in gz.editions][-1] == game.state["round"]


def test_gazette_routes_and_page(client: TestClient) -> None:
    alice, bob, carol = user(client, "alice"), user(client, "bob"), user(client, "carol")
    r = client.post("/api/games", json={"game": "kingmaker", "role": "P1", "preview": True, "title": "Towton",
                                         "options": {"players": 2}}, headers=alice)
    gid = r.json()["id"]
    client.post(f"/api/games/{gid}/join", json={"role": "P2"}, headers=bob)
    heads = {"P1": alice, "P2": bob}
    rnd = random.Random(4)
    for _ in range(2000):
        info = client.get(f"/api/games/{gid}").json()
        view = client.get(f"/api/games/{gid}/view", params={"role": info["active"][0]}, headers=heads[info["active"][0]]).json()
        if (view["view"].get("round") or 0) >= 2:
            break
        role = view["role"]
        choices = [(v, a) for v, args in view["view"]["actions"].items() if v != "undo"
                   for a in ([None] if args is True else args)]
        verb, arg = rnd.choice(choices)
        res = client.post(f"/api/games/{gid}/action", json={"role": role, "verb": verb, "arg": arg,
                                                              "version": view["version"]}, headers=heads[role])
        assert res.status_code == 200, res.text
    listing = client.get(f"/api/games/{gid}/gazette").json()  # public: no login
    assert [e["round"] for e in listing["editions"]] == [0, 1] and len(listing["seed_commitment"]) == 64
    ed = client.get(f"/api/games/{gid}/gazette/1").json()
    assert ed["title"] == "Round 1" and ed["lines"] and ed["board"]["players"]
    assert client.get(f"/api/games/{gid}/gazette/2").status_code == 404  # in progress
    own = client.get(f"/api/games/{gid}/gazette/1/report", params={"role": "P1"}, headers=alice)
    assert own.status_code == 200 and own.json()["role"] == "P1"
    assert client.get(f"/api/games/{gid}/gazette/1/report", params={"role": "P1"}, headers=bob).status_code == 403
    assert client.get(f"/api/games/{gid}/gazette/1/report", params={"role": "P1"}).status_code == 403
    page = client.get(f"/games/{gid}/gazette/1", headers=carol)
    assert page.status_code == 200 and "Round 1" in page.text and ed["digest"] in page.text
    assert "Private report" not in page.text  # carol holds no seat
    mine = client.get(f"/games/{gid}/gazette/1", headers=alice)
    assert "Private report for P1" in mine.text
    assert client.get(f"/games/{gid}/gazette", headers=carol).status_code == 200
    # hidden information: nothing a seat keeps secret in what the others and the public get
    record = client.app.state.roses.games.admin_export(gid)  # type: ignore[attr-defined]
    state = Game.from_record(RULES, record).state
    keep = {r: RULES.secrets(state, r) for r in ("P1", "P2")}
    for s in keep["P1"] | keep["P2"]:
        assert s not in page.text and s not in json.dumps(ed)
    for s in keep["P1"]:
        assert s not in mine.text


def _play_api(client: TestClient, gid: int, heads: dict[str, dict[str, str]], until_round: int, seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(3000):
        info = client.get(f"/api/games/{gid}").json()
        role = info["active"][0]
        view = client.get(f"/api/games/{gid}/view", params={"role": role}, headers=heads[role]).json()
        if (view["view"].get("round") or 0) >= until_round:
            return
        choices = [(v, a) for v, args in view["view"]["actions"].items() if v != "undo"
                   for a in ([None] if args is True else args)]
        verb, arg = rnd.choice(choices)
        res = client.post(f"/api/games/{gid}/action", json={"role": role, "verb": verb, "arg": arg,
                                                              "version": view["version"]}, headers=heads[role])
        assert res.status_code == 200, res.text
    raise AssertionError("the game did not reach the round")


def test_each_edition_is_mailed_once_with_the_readers_own_report(
        sqlite_db: Database, mailbox: Mailbox, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    # The game's seed (the server draws it, plus one): one where both rounds begin with the
    # same seat still to act, so no turn changes when an edition is published. The mailer is
    # told of the new round all the same (it once waited for the next turn change).
    monkeypatch.setattr(lobby.secrets, "randbelow", lambda n: 54 if n == 2**31 - 1 else 0)
    heard = Recorder()
    with build_client(sqlite_db) as client:
        client.app.state.roses.games.notifiers.add(heard)  # type: ignore[attr-defined]
        alice, bob = user(client, "alice"), user(client, "bob")
        with sqlite_db.write() as conn:
            for name in ("alice", "bob"):
                conn.execute(db.users.update().where(db.users.c.name == name).values(
                    email=f"{name}@example.test", email_verified=True, notify=True))
        gid = client.post("/api/games", json={"game": "kingmaker", "role": "P1", "preview": True, "title": "Barnet",
                                               "options": {"players": 2}}, headers=alice).json()["id"]
        client.post(f"/api/games/{gid}/join", json={"role": "P2"}, headers=bob)
        _play_api(client, gid, {"P1": alice, "P2": bob}, 2, seed=6)
        rounds = {e.data["round"]: e.version for e in heard.events if e.kind == ROUND}
        assert sorted(rounds) == [1, 2]
        assert not [e for e in heard.events if e.kind == TURN and e.version in rounds.values()]

        def gazettes() -> list[tuple[str, Any]]:
            out = []
            for m in mailbox.messages:
                msg = email.message_from_string(m["data"], policy=email.policy.default)
                if str(msg["Subject"]).startswith("Gazette:"):
                    out.append((m["to"][0], msg))
            return out

        wait_for(lambda: len(gazettes()) >= 4)
        got = gazettes()
        subjects = sorted((to, str(msg["Subject"])) for to, msg in got)
        assert subjects == sorted((f"{n}@example.test", f"Gazette: Barnet, {t} (game #{gid})")
                                  for n in ("alice", "bob") for t in ("Setup", "Round 1"))
        # once: more play (a new turn, same editions) queues nothing again
        client.app.state.gazette_mailer.mail_game(gid)  # type: ignore[attr-defined]
        assert client.app.state.gazette_mailer.mail_game(gid) == 0  # type: ignore[attr-defined]
        record = client.app.state.roses.games.admin_export(gid)  # type: ignore[attr-defined]
        state = Game.from_record(RULES, record).state
        for to, msg in got:
            role = "P1" if to.startswith("alice") else "P2"
            text = msg.get_content()
            assert f"Private report for {role}" in text and "Private report for P" + ("2" if role == "P1" else "1") not in text
            for s in RULES.secrets(state, role):
                assert s not in text, f"the gazette mailed to {role} holds {s!r}"


def test_a_game_whose_mailing_failed_is_tried_again_at_the_next_ticks(monkeypatch: pytest.MonkeyPatch) -> None:
    from roses.server.events import Event
    from roses.server.gazette import GazetteMailer

    mailer = GazetteMailer(None)  # type: ignore[arg-type]  # mail_game is replaced below
    calls: list[int] = []

    def flaky(game_id: int) -> int:
        calls.append(game_id)
        if len(calls) <= 2:
            raise OSError("database busy")
        return 2

    monkeypatch.setattr(mailer, "mail_game", flaky)
    mailer.notify(Event(ROUND, 7, 30, ("P1",), (1, 2), {"round": 2}))
    mailer.notify(Event(TURN, 8, 31, ("P1",), (1,)))  # a turn alone publishes no edition
    assert mailer.run_once() == 0 and mailer.run_once() == 0  # failed twice: kept
    assert mailer.run_once() == 2 and calls == [7, 7, 7]
    assert mailer.run_once() == 0 and calls == [7, 7, 7]  # mailed: not tried again
    monkeypatch.setattr(mailer, "mail_game", lambda game_id: 1 / 0)
    mailer.notify(Event(ROUND, 9, 40, ("P2",), (1,), {"round": 3}))
    for _ in range(GazetteMailer.attempts + 2):
        mailer.run_once()
    assert mailer.failed == {}  # given up after its attempts, until the next event
