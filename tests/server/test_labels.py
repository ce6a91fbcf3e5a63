"""Views sent to players carry ``labels``; replay steps carry ``action_label``."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .conftest import act, started_toy


def test_player_views_carry_labels_and_replay_steps_the_action_label(client: TestClient) -> None:
    gid, north, south = started_toy(client)
    view = client.get(f"/api/games/{gid}/view", headers=north).json()["view"]
    assert view["actions"] == {"pick": [1, 2, 3]}
    assert view["labels"] == {"pick": {"1": "pick 1", "2": "pick 2", "3": "pick 3"}}
    assert act(client, gid, north, "pick", 3, version=0).status_code == 200
    assert act(client, gid, south, "pick", 1, version=1).status_code == 200
    client.post(f"/api/games/{gid}/resign", json={"version": 2}, headers=south)
    s1 = client.get(f"/api/games/{gid}/replay/1", params={"role": "North"}).json()
    assert s1["action"] == {"role": "North", "verb": "pick", "arg": 3}
    assert s1["action_label"] == "pick 3"
    assert client.get(f"/api/games/{gid}/replay/0").json()["action_label"] is None
    last = client.get(f"/api/games/{gid}/replay/3").json()
    assert last["action"]["verb"] == ".resign" and last["action_label"] == "Resign"
