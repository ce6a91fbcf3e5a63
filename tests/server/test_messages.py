"""Private messages between seats and negotiated exchanges on the server
(roses/server/messages.py, roses/games/kingmaker/offers.py): a message reaches only its
channel's seats (and the umpire when copied), over HTTP and the WebSocket; its text is in no
other seat's traffic (views, chat, messages, the game's log and gazette, e-mails); an exchange
proposed by one seat and accepted by another is an action of the log, private until accepted."""

from __future__ import annotations

import json
from typing import Any, cast

import sqlalchemy as sa
from fastapi.testclient import TestClient

from roses.server import db
from roses.server.service import GameService
from tests.server.conftest import new_game, started_toy, user
from tests.server.test_notify import receiver  # noqa: F401 - the fixture

SEATS = ("P1", "P2", "P3", "umpire")


def _svc(client: TestClient) -> Any:
    """The server's services (the app's state)."""
    return cast(Any, client.app).state.roses


def _kingmaker(client: TestClient) -> tuple[int, dict[str, dict[str, str]]]:
    heads = {r: user(client, f"neg{r.lower()}") for r in SEATS}
    g = new_game(client, heads["P1"], game="kingmaker", role="P1", options={"players": 3, "umpire": True},
                 preview=True)
    for r in SEATS[1:]:
        res = client.post(f"/api/games/{g['id']}/join", json={"role": r}, headers=heads[r])
        assert res.status_code == 200, res.text
    assert client.get(f"/api/games/{g['id']}", headers=heads["P1"]).json()["status"] == "active"
    return int(g["id"]), heads


def _send(client: TestClient, gid: int, who: dict[str, str], to: list[str], text: str, umpire: bool = False,
          role: str | None = None) -> Any:
    body: dict[str, Any] = {"to": to, "text": text, "umpire": umpire}
    if role:
        body["role"] = role
    return client.post(f"/api/games/{gid}/messages", json=body, headers=who)


def _texts(client: TestClient, gid: int, who: dict[str, str]) -> list[str]:
    res = client.get(f"/api/games/{gid}/messages", headers=who)
    assert res.status_code == 200, res.text
    return [m["text"] for m in res.json()["messages"]]


def _everything_seen_by(client: TestClient, gid: int, role: str, who: dict[str, str]) -> str:
    """All a seat can fetch: its view (with its log), the chat, its messages, the game record
    page and the gazette."""
    parts = [client.get(f"/api/games/{gid}/view?role={role}", headers=who).text,
             client.get(f"/api/games/{gid}/chat", headers=who).text,
             client.get(f"/api/games/{gid}/messages", headers=who).text,
             client.get(f"/api/games/{gid}", headers=who).text]
    for path in (f"/api/games/{gid}/gazette", f"/games/{gid}/gazette"):
        res = client.get(path, headers=who)
        if res.status_code == 200:
            parts.append(res.text)
    return "\n".join(parts)


def test_a_private_message_reaches_only_its_seats(sqlite_client: TestClient) -> None:
    client = sqlite_client
    gid, heads = _kingmaker(client)
    secret = "meet me at Ludlow, bring the Marshal xq17"
    res = _send(client, gid, heads["P1"], ["P2"], secret)
    assert res.status_code == 201, res.text
    assert res.json()["members"] == ["P1", "P2"] and res.json()["role"] == "P1"
    assert _texts(client, gid, heads["P1"]) == [secret]
    assert _texts(client, gid, heads["P2"]) == [secret]
    assert _texts(client, gid, heads["P3"]) == []
    assert _texts(client, gid, heads["umpire"]) == []  # not copied
    for r in ("P3", "umpire"):
        assert secret not in _everything_seen_by(client, gid, r, heads[r])
    # A group with the umpire's copy: a channel of its own; the reply goes to the same one.
    group = "the three of us against the King zz42"
    first = _send(client, gid, heads["P2"], ["P1", "P3"], group, umpire=True).json()
    reply = _send(client, gid, heads["P3"], ["P1", "P2"], "agreed", umpire=True).json()
    assert reply["channel"] == first["channel"] != res.json()["channel"]
    assert _texts(client, gid, heads["umpire"]) == [group, "agreed"]
    assert _texts(client, gid, heads["P3"]) == [group, "agreed"]
    channels = client.get(f"/api/games/{gid}/messages", headers=heads["P1"]).json()["channels"]
    assert [(c["members"], c["umpire"]) for c in channels] == [(["P1", "P2"], False), (["P1", "P2", "P3"], True)]
    # Observers and strangers read nothing.
    stranger = user(client, "negstranger")
    assert client.get(f"/api/games/{gid}/messages", headers=stranger).status_code == 403
    assert _send(client, gid, stranger, ["P1"], "hello").status_code == 403
    # Nothing of it in an e-mail or notification waiting to go out.
    with _svc(client).db.read() as conn:
        outbox = json.dumps([dict(r._mapping) for r in conn.execute(sa.select(db.outbox))], default=str)
    assert secret not in outbox and group not in outbox


def test_bad_messages_are_refused_and_store_nothing(sqlite_client: TestClient) -> None:
    client = sqlite_client
    gid, heads = _kingmaker(client)
    cases = [(["P2"], "", 400), (["P2"], "x" * 2001, 400), (["P9"], "hi", 400), (["P1"], "hi", 400),
             (["P2"], "bell\x07", 400)]
    for to, text, status in cases:
        assert _send(client, gid, heads["P1"], to, text).status_code == status, (to, text)
    assert _send(client, gid, heads["P1"], ["P2"], "hi", role="P2").status_code == 403  # not his seat
    with _svc(client).db.read() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(db.channel_messages)).scalar() == 0
        assert conn.execute(sa.select(sa.func.count()).select_from(db.channels)).scalar() == 0
    # A game without an umpire's seat has no umpire's copy; messages are for any game.
    tid, north, south = started_toy(client)
    res = _send(client, tid, north, ["South"], "hello", umpire=True)
    assert res.status_code == 400 and res.json()["code"] == "no_umpire"
    assert _send(client, tid, north, ["South"], "hello").status_code == 201
    assert _texts(client, tid, south) == ["hello"]


def _play_to_a_turn(client: TestClient, gid: int, heads: dict[str, dict[str, str]]) -> dict[str, Any]:
    """First choices until a player's own-turn decision (where exchanges take effect, K66)."""
    for _ in range(200):
        payload = client.get(f"/api/games/{gid}/view?role=P1", headers=heads["P1"]).json()
        if payload["view"]["negotiation"]["standing"]["accept_now"]:
            return dict(payload)
        r = next(x for x in payload["active"] if x != "umpire")
        v = client.get(f"/api/games/{gid}/view?role={r}", headers=heads[r]).json()
        verb, args = next((k, a) for k, a in v["view"]["actions"].items() if k != "undo")
        res = client.post(f"/api/games/{gid}/action", headers=heads[r],
                          json={"role": r, "verb": verb, "arg": None if args is True else args[0],
                                "version": v["version"]})
        assert res.status_code == 200, res.text
    raise AssertionError("no own-turn decision reached")


def test_an_exchange_is_proposed_privately_and_accepted_as_logged_actions(sqlite_client: TestClient) -> None:
    client = sqlite_client
    gid, heads = _kingmaker(client)
    svc: GameService = _svc(client).games
    payload = _play_to_a_turn(client, gid, heads)
    mover = payload["active"][0]
    other = next(r for r in ("P1", "P2", "P3") if r != mover)
    third = next(r for r in ("P1", "P2", "P3") if r not in (mover, other))
    version = client.get(f"/api/games/{gid}", headers=heads[other]).json()["version"]
    res = client.post(f"/api/games/{gid}/action", headers=heads[other],
                      json={"role": other, "verb": "propose_exchange", "arg": {"to": mover, "ally": True},
                            "version": version})
    assert res.status_code == 200, res.text
    seen_by_mover = client.get(f"/api/games/{gid}/view?role={mover}", headers=heads[mover]).json()
    offers = seen_by_mover["view"]["negotiation"]["offers"]
    assert len(offers) == 1 and offers[0]["from"] == other and offers[0]["ally"]
    hidden = client.get(f"/api/games/{gid}/view?role={third}", headers=heads[third]).json()
    assert hidden["view"]["negotiation"]["offers"] == []
    assert "proposes (offer" not in json.dumps(hidden), [x for x in json.dumps(hidden).split("\"") if "proposes" in x]
    res = client.post(f"/api/games/{gid}/action", headers=heads[mover],
                      json={"role": mover, "verb": "accept_exchange", "arg": offers[0]["id"],
                            "version": seen_by_mover["version"]})
    assert res.status_code == 200, res.text
    public = client.get(f"/api/games/{gid}/view?role={third}", headers=heads[third]).json()["view"]
    assert sorted([other, mover]) in [sorted(a) for a in public["negotiation"]["alliances"]]
    record = svc.admin_export(gid)
    verbs = [(a["role"], a["verb"]) for a in record["actions"]]
    assert (other, "propose_exchange") in verbs and (mover, "accept_exchange") in verbs


def test_an_accepted_alliance_is_in_the_gazette_and_the_offer_is_not(sqlite_client: TestClient) -> None:
    """The gazette's public lines name the alliance once accepted; the proposal, private to
    the two players, is only in their own reports; editions keep their board without the
    negotiation part (older editions keep their digest)."""
    from roses.server import gazette

    client = sqlite_client
    gid, heads = _kingmaker(client)
    payload = _play_to_a_turn(client, gid, heads)
    mover = payload["active"][0]
    other = next(r for r in ("P1", "P2", "P3") if r != mover)
    third = next(r for r in ("P1", "P2", "P3") if r not in (mover, other))
    version = client.get(f"/api/games/{gid}", headers=heads[other]).json()["version"]
    assert client.post(f"/api/games/{gid}/action", headers=heads[other],
                       json={"role": other, "verb": "propose_exchange", "arg": {"to": mover, "ally": True},
                             "version": version}).status_code == 200
    assert client.post(f"/api/games/{gid}/action", headers=heads[mover],
                       json={"role": mover, "verb": "accept_exchange", "arg": 1,
                             "version": version + 1}).status_code == 200
    record = _svc(client).games.admin_export(gid)
    gz = gazette.build("kingmaker", record, finished=True)
    editions = gazette.render(gz, None)
    public = "\n".join(line["text"] for ed in editions for line in ed["lines"])
    assert "are allied" in public and "proposes (offer" not in public
    assert all("negotiation" not in ed["board"] for ed in editions)
    last = editions[-1]["round"]
    assert any("proposes (offer" in line["text"] for line in gazette.report(gz, last, mover)["lines"])
    assert not any("offer" in line["text"] for line in gazette.report(gz, last, third)["lines"])


def test_a_private_message_is_notified_to_its_readers_without_its_text(sqlite_db: Any, receiver: Any) -> None:  # noqa: F811
    """The other readers of a channel who are not connected get a notification (webhook or
    mail) naming the sender's seat and the game; never the text; other seats get nothing."""
    from tests.server.conftest import build_client
    from tests.server.test_notify import _enable, wait_for

    with build_client(sqlite_db) as client:
        gid, heads = _kingmaker(client)
        for r in ("P2", "P3"):
            _enable(client, heads[r], webhook_url=f"{receiver.url}/{r}")
        receiver.bodies.clear()
        secret = "the Tower at dawn, bring Kent k9z"
        assert _send(client, gid, heads["P1"], ["P2"], secret).status_code == 201
        wait_for(lambda: any(p == "/P2" and "private message" in json.dumps(b) for p, b in receiver.bodies))
        import time

        time.sleep(0.3)
        mine = [b for p, b in receiver.bodies if p == "/P2" and "private message" in json.dumps(b)]
        assert len(mine) == 1 and "P1 sent you a private message" in json.dumps(mine[0])
        assert not any(secret in json.dumps(b) for _, b in receiver.bodies)
        assert not any(p == "/P3" and "private message" in json.dumps(b) for p, b in receiver.bodies)
