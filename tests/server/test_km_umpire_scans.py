"""Hidden information in a Kingmaker campaign with an umpire's seat: hidden-information scans of
every payload, gazette and e-mail for each seat and for the umpire's Chancery.

Three players and the umpire, each a person with a confirmed address and notifications on,
play through the API to round 2 (the umpire publishes a ruling on the way). Every payload each
seat receives (its view at every version, the answers to its actions), the gazette (the
editions' API and pages, each seat's private report) and every e-mail each one is sent (turn
notices, the gazette with his own report) are scanned for what the rules keep from that seat
(``Rules.secrets``, at the payload's version; a text without a version against what the seat
never knew): for a player, the other hands, the decks, the Chancery and the cards Treachery put
aside; for the umpire, the decks' order only. The umpire's payloads do show the Chancery and
every hand, the players' never do."""

from __future__ import annotations

import email
import email.policy
import json
import random
from typing import Any

from roses.engine import Game, get_rules
from roses.server import db
from roses.server.db import Database
from tests.server.conftest import build_client, user
from tests.server.test_notify import Mailbox, mailbox, wait_for  # noqa: F401 - the fixture

RULES = get_rules("kingmaker")
SEATS = ("P1", "P2", "P3", "umpire")
NAMES = {"P1": "ana", "P2": "ben", "P3": "cyd", "umpire": "ump"}


def test_no_payload_gazette_or_mail_of_a_seat_or_the_umpire_holds_its_secrets(sqlite_db: Database, mailbox: Mailbox) -> None:  # noqa: F811
    with build_client(sqlite_db) as client:
        heads = {r: user(client, n) for r, n in NAMES.items()}
        with sqlite_db.write() as conn:
            for n in NAMES.values():
                conn.execute(db.users.update().where(db.users.c.name == n).values(
                    email=f"{n}@example.test", email_verified=True, notify=True))
        gid = client.post("/api/games", json={"game": "kingmaker", "role": "umpire", "preview": True, "title": "Hexham",
                                               "options": {"players": 3, "umpire": True}}, headers=heads["umpire"]).json()["id"]
        for r in ("P1", "P2", "P3"):
            assert client.post(f"/api/games/{gid}/join", json={"role": r}, headers=heads[r]).status_code == 200
        got: dict[str, list[tuple[int | None, str]]] = {r: [] for r in SEATS}

        def view(role: str) -> dict[str, Any]:
            res = client.get(f"/api/games/{gid}/view", params={"role": role}, headers=heads[role])
            assert res.status_code == 200, res.text
            got[role].append((int(res.json()["version"]), res.text))
            return dict(res.json())

        rnd = random.Random(11)
        ruled = False
        for _ in range(3000):
            views = {r: view(r) for r in SEATS}
            if (views["P1"]["view"].get("round") or 0) >= 2:
                break
            if not ruled and views["P1"]["view"].get("round") == 1:
                res = client.post(f"/api/games/{gid}/umpire/rule", json={"text": "Calais is a port of England."},
                                  headers=heads["umpire"])
                assert res.status_code == 200, res.text
                ruled = True
                continue
            role = views["P1"]["active"][0]
            mine = views[role]
            choices = [(v, a) for v, args in mine["view"]["actions"].items() if v != "undo"
                       for a in ([None] if args is True else args)]
            verb, arg = rnd.choice(choices)
            res = client.post(f"/api/games/{gid}/action", json={"role": role, "verb": verb, "arg": arg,
                                                                  "version": mine["version"]}, headers=heads[role])
            assert res.status_code == 200, res.text
            got[role].append((int(res.json()["version"]), res.text))
        else:
            raise AssertionError("the campaign did not reach round 2")
        assert ruled

        # the gazette: the list, each edition, each seat's own report, the pages as each reads them
        editions = client.get(f"/api/games/{gid}/gazette", headers=heads["P1"]).json()["editions"]
        assert [e["round"] for e in editions] == [0, 1]
        for r in SEATS:
            for e in editions:
                for path, params in ((f"/api/games/{gid}/gazette/{e['round']}", None),
                                     (f"/api/games/{gid}/gazette/{e['round']}/report", {"role": r}),
                                     (f"/games/{gid}/gazette/{e['round']}", None)):
                    res = client.get(path, params=params, headers=heads[r])
                    assert res.status_code == 200, (path, res.text)
                    got[r].append((None, res.text))
            page = got[r][-1][1]
            assert f"Private report for {r}" in page

        # the e-mails: each edition to every seat with his own report, and the turn notices
        def mails() -> dict[str, list[str]]:
            out: dict[str, list[str]] = {r: [] for r in SEATS}
            for m in mailbox.messages:
                msg = email.message_from_string(m["data"], policy=email.policy.default)
                body = msg.get_body(preferencelist=("plain",))
                text = f"{msg['Subject']}\n{body.get_content() if body is not None else ''}"
                for r, n in NAMES.items():
                    if f"{n}@example.test" in m["to"]:
                        out[r].append(text)
            return out

        def gazettes_mailed() -> bool:
            return all(sum(t.startswith("Gazette:") for t in texts) >= 2 for texts in mails().values())

        wait_for(gazettes_mailed, timeout=30)
        for r, texts in mails().items():
            assert any(t.startswith("Gazette:") and f"Private report for {r}" in t for t in texts), r
            got[r] += [(None, t) for t in texts]

        # what each seat may not know, at every version (one replay)
        record = client.app.state.roses.games.admin_export(gid)  # type: ignore[attr-defined]
        game = Game.from_record(RULES, {**record, "actions": []})
        secrets: list[dict[str, set[str]]] = []
        chancery: list[list[str]] = []  # the Chancery's cards at each version
        for a in [*record["actions"], None]:
            secrets.append({r: set(RULES.secrets(game.state, r)) for r in SEATS})
            chancery.append(sorted(game.state["chancery"]))
            if a is not None:
                game.apply(a["role"], a["verb"], a["arg"])
        for r in SEATS:
            never = set.intersection(*(s[r] for s in secrets))
            assert never, f"{r} was kept nothing from: the scan would prove nothing"
            for version, text in got[r]:
                hidden = never if version is None else secrets[version][r]
                leaked = sorted(s for s in hidden if s in text)
                assert not leaked, f"{r} received {leaked} (version {version}): {text[:200]}"
        # the umpire's secrets are the decks only: the Chancery and the hands are his to see. At
        # every version they are among a seat's, and at some version fewer (not necessarily at
        # the last one: the game's seed is the server's own draw, and the other seats' hands and
        # the Chancery may all be empty then)
        assert all(s["umpire"] <= s["P1"] for s in secrets)
        assert any(s["umpire"] < s["P1"] for s in secrets)
        umpire_views = [(v, json.loads(t)["view"]) for v, t in got["umpire"] if v is not None]
        assert all(u.get("chancery_cards") is not None and set(u["hands"]) == {"P1", "P2", "P3"} for _, u in umpire_views)
        # he sees the whole Chancery at every version (the game's seed, and so whether random play
        # puts cards in it, is the server's own draw)
        assert all(len(u["chancery_cards"]) == len(chancery[v]) for v, u in umpire_views)
        for r in ("P1", "P2", "P3"):
            for version, text in got[r]:
                if version is not None:
                    data = json.loads(text)["view"]
                    assert "chancery_cards" not in data and "hands" not in data and "treachery_discards" not in data
            # the scan sees tags: each player received his own cards' tags, secret to the others
            own = set().union(*(s[next(x for x in ("P1", "P2", "P3") if x != r)] - s[r] for s in secrets))
            assert any(t in text for _, text in got[r] for t in own), r
