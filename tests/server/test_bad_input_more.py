"""Bad input that used to give a 500 gets a 4xx and changes nothing: a lone surrogate in an
action's argument (/action and /why), an over-long rules file name, a number of players given
as a string."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from roses.engine import get_rules
from roses.server import umpiring, webhooks
from roses.server.auth import create_user
from roses.server.db import Database
from roses.server.errors import BadRequest
from roses.server.service import GameService
from tests.server.conftest import new_game, user


def test_a_lone_surrogate_in_arg_is_a_400(client: TestClient) -> None:
    """A JSON body may hold a lone surrogate (``"\\ud800"``), which no UTF-8 text can: the
    action and the question are refused as bad input (they gave a 500), nothing changes."""
    york, lancaster = user(client, "suyork"), user(client, "sulan")
    gid = new_game(client, york, game="richard3", role="York")["id"]
    assert client.post(f"/api/games/{gid}/join", json={"role": "Lancaster"}, headers=lancaster).status_code == 200
    version = client.get(f"/api/games/{gid}", headers=york).json()["version"]
    active = client.get(f"/api/games/{gid}", headers=york).json()["active"]
    north = york if "York" in active else lancaster
    tail = f', "version": {version}}}'
    for body in ('{"verb": "play", "arg": "\\ud800"' + tail,
                 '{"verb": "play", "arg": ["a", {"k": "\\udfff"}]' + tail,
                 '{"verb": "play", "arg": {"\\ud800": 1}' + tail,
                 '{"verb": "pl\\udc00ay", "arg": null' + tail):
        r = client.post(f"/api/games/{gid}/action", content=body,
                        headers={**north, "Content-Type": "application/json"})
        assert r.status_code == 400, (body, r.status_code, r.text)
        r = client.post(f"/api/games/{gid}/why", content=body,
                        headers={**north, "Content-Type": "application/json"})
        assert 400 <= r.status_code < 500, (body, r.status_code, r.text)
    assert client.get(f"/api/games/{gid}", headers=north).json()["version"] == version


def test_an_over_long_rules_file_name_is_a_404(client: TestClient) -> None:
    """``GET /rules/<3,000 characters>.json`` asked the file system for a name too long (500)."""
    r = client.get("/rules/" + "a" * 3000 + ".json")
    assert r.status_code == 404 and r.json()["code"] == "no_reference"
    assert client.get("/rules/richard3.json").status_code == 200


@pytest.mark.parametrize("url", ["https://[64:ff9b::a00:1]/x", "https://[64:ff9b::7f00:1]/x",
                                 "https://[64:ff9b:1::a9fe:a9fe]/x", "https://[::127.0.0.1]/x",
                                 "https://[::10.0.0.1]/x", "https://[::a9fe:a9fe]/x"])
def test_nat64_and_ipv4_compatible_webhook_addresses_of_private_hosts_are_refused(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """NAT64 (64:ff9b::/96, 64:ff9b:1::/48) and IPv4-compatible (::a.b.c.d) addresses carry an
    IPv4 address in their last 32 bits: judged by it."""
    monkeypatch.delenv("ROSES_WEBHOOK_ALLOW_LOCAL", raising=False)
    with pytest.raises(BadRequest):
        webhooks.check_url(url)
    assert webhooks.check_url("https://[64:ff9b::808:808]/x") == "https://[64:ff9b::808:808]/x"  # 8.8.8.8


def test_an_umpires_ruling_quoting_a_card_tag_does_not_withhold_the_players_views(database: Database) -> None:
    """The umpire's ruling is text he wrote (he sees every hand): quoting a card tag in it is
    not a leak of the rules, so the secrets guard does not withhold the players' views for it
    (it did: a denial of service by text). A view that shows the tag elsewhere still is."""
    svc = GameService(database)
    with database.write() as conn:
        people = {r: create_user(conn, f"g{r.lower()}", "correct horse") for r in ("P1", "P2", "umpire")}
    gid = int(svc.create_game(people["P1"], "kingmaker", options={"players": 2, "umpire": True},
                              role="P1", preview=True)["id"])
    svc.join(people["P2"], gid, "P2")
    svc.join(people["umpire"], gid, "umpire")
    state = svc.stored_state(gid)
    rules = get_rules("kingmaker")
    tag = sorted(t for t in rules.secrets(state, "P1") if "#" in t)[0]
    umpiring.rule(svc, people["umpire"], gid, f"Ruling: the card {tag} is dealt again after the storm.")
    for role in ("P1", "P2"):
        view = svc.view(people[role], gid, role)["view"]
        assert not view.get("withheld"), role
        assert any(tag in str(line) for line in view["log"]), role  # the ruling is in every log


@pytest.mark.parametrize("options", [{"players": "3"}, {"players": True}, {"players": 3.0},
                                     {"umpire": "yes"}, {"rounds": "10"}])
def test_an_option_of_the_wrong_json_type_is_refused_at_creation(client: TestClient, options: dict[str, object]) -> None:
    owner = user(client, "opts")
    r = client.post("/api/games", json={"game": "kingmaker", "preview": True, "options": options}, headers=owner)
    assert r.status_code == 400, r.text
    assert client.get("/api/games", headers=owner).json() == []
    r = client.post("/api/games", json={"game": "kingmaker", "preview": True, "options": {"players": 3}}, headers=owner)
    assert r.status_code == 201
