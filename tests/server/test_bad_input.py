"""Bad input, generated: whatever JSON a client sends to the play endpoints, the server answers
with a 2xx or a clear 4xx (never a 5xx), and a refused request changes nothing."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roses.server.db import Database

from .conftest import build_client, started_toy

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=30)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
bodies = st.one_of(
    json_values,
    st.fixed_dictionaries({}, optional={
        "verb": json_values | st.sampled_from(["pick", "roll", "step", "undo", ".finish", ".undo", ""]),
        "arg": json_values | st.integers(0, 4),
        "version": json_values | st.integers(-2, 6),
        "role": json_values | st.sampled_from(["North", "South", "Observer", "East"]),
        "extra": json_values,
    }),
)
paths = st.sampled_from(["action", "undo", "chat", "join", "leave", "bot", "start"])  # resign: below


def test_generated_bad_requests(sqlite_db: Database) -> None:
    with build_client(sqlite_db, bots=False) as client:
        gid, north, south = started_toy(client)
        who = {"north": north, "south": south, "nobody": {}}

        @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
        @given(path=paths, body=bodies, sender=st.sampled_from(sorted(who)))
        def check(path: str, body: Any, sender: str) -> None:
            before = client.get(f"/api/games/{gid}").json()
            r = client.post(f"/api/games/{gid}/{path}", json=body, headers=who[sender])
            assert r.status_code < 500, (path, body, r.text)
            assert "detail" in r.json() or r.status_code < 300
            after = client.get(f"/api/games/{gid}").json()
            if r.status_code >= 400:
                assert after["version"] == before["version"] and after["status"] == before["status"]

        check()
        for body in ({}, {"version": "x"}, {"version": 0, "role": "East"}, [1], {"version": 0, "bogus": 1}):
            r = client.post(f"/api/games/{gid}/resign", json=body, headers=south)
            assert 400 <= r.status_code < 500, (body, r.text)
        # Raw garbage too.
        for raw in (b"", b"{", b"[]", b"\xff\xfe", b'{"verb": "pick", "version": 1e999}'):
            r = client.post(f"/api/games/{gid}/action", content=raw,
                            headers={**north, "content-type": "application/json"})
            assert 400 <= r.status_code < 500, (raw, r.text)
