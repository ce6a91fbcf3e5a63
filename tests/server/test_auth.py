"""Accounts: sign up, log in/out, password change, cookies, CSRF, API tokens, rate limits."""

from __future__ import annotations

import sqlalchemy as sa
from fastapi.testclient import TestClient

from roses.server import db
from roses.server.db import Database

from .conftest import build_client, user


def test_signup_login_logout_and_session_cookie(client: TestClient, database: Database) -> None:
    r = client.post("/api/auth/signup", json={"name": "Alice", "password": "s3cret-pass"})
    assert r.status_code == 201
    cookies = r.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("roses_session="))
    assert "HttpOnly" in session and "SameSite=lax" in session and "Path=/" in session
    csrf_cookie = next(c for c in cookies if c.startswith("roses_csrf="))
    assert "HttpOnly" not in csrf_cookie
    me = client.get("/api/me").json()
    assert me["name"] == "Alice" and me["csrf_token"] == r.json()["csrf_token"]
    with database.read() as conn:
        stored = conn.execute(sa.select(db.users.c.password_hash)).scalar_one()
        tokens = conn.execute(sa.select(db.sessions.c.token_hash)).scalars().all()
    assert stored.startswith("$argon2id$")
    raw = client.cookies.get("roses_session")
    assert raw and raw not in tokens  # only the hash is stored
    # Logout needs the CSRF token, then ends the session.
    assert client.post("/api/auth/logout").status_code == 403
    assert client.post("/api/auth/logout", headers={"X-CSRF-Token": me["csrf_token"]}).status_code == 204
    client.cookies.set("roses_session", raw)
    assert client.get("/api/me").status_code == 401
    client.cookies.clear()
    r = client.post("/api/auth/login", json={"name": "alice", "password": "s3cret-pass"})
    assert r.status_code == 200 and r.json()["name"] == "Alice"


def test_signup_refuses_bad_or_taken_names(client: TestClient) -> None:
    assert client.post("/api/auth/signup", json={"name": "bob", "password": "long enough"}).status_code == 201
    client.cookies.clear()
    r = client.post("/api/auth/signup", json={"name": "BOB", "password": "long enough"})
    assert r.status_code == 409 and r.json()["code"] == "name_taken"
    assert client.post("/api/auth/signup", json={"name": "x y", "password": "long enough"}).status_code == 400
    assert client.post("/api/auth/signup", json={"name": "carol", "password": "short"}).status_code == 400
    assert client.post("/api/auth/signup", json={"name": "carol"}).status_code == 400


def test_csrf_required_for_cookie_writes_not_for_tokens(client: TestClient) -> None:
    r = client.post("/api/auth/signup", json={"name": "dora", "password": "long enough"})
    csrf = r.json()["csrf_token"]
    assert client.post("/api/games", json={"game": "toy"}).status_code == 403
    assert client.post("/api/games", json={"game": "toy"}, headers={"X-CSRF-Token": "wrong"}).status_code == 403
    assert client.post("/api/games", json={"game": "toy"}, headers={"X-CSRF-Token": b"wr\xe9ng"}).status_code == 403
    assert client.post("/api/games", json={"game": "toy"}, headers={"X-CSRF-Token": csrf}).status_code == 201
    # Reads need no CSRF token.
    assert client.get("/api/me/games").status_code == 200
    # Bearer tokens need none either.
    t = client.post("/api/tokens", json={"name": "bot"}, headers={"X-CSRF-Token": csrf}).json()
    assert t["token"].startswith("rt_")
    client.cookies.clear()
    bearer = {"Authorization": f"Bearer {t['token']}"}
    assert client.post("/api/games", json={"game": "toy"}, headers=bearer).status_code == 201
    listed = client.get("/api/tokens", headers=bearer).json()
    assert [x["name"] for x in listed] == ["bot"] and listed[0]["last_used"] is not None
    assert "token" not in client.get("/api/tokens", headers=bearer).json()[0] or \
        client.get("/api/tokens", headers=bearer).json()[0]["token"] is None
    assert client.delete(f"/api/tokens/{t['id']}", headers=bearer).status_code == 204
    r = client.get("/api/me", headers=bearer)
    assert r.status_code == 401 and r.json()["code"] == "bad_token"
    assert client.get("/api/me", headers={"Authorization": "Basic xyz"}).status_code == 401


def test_change_password(client: TestClient) -> None:
    r = client.post("/api/auth/signup", json={"name": "erin", "password": "first password"})
    csrf = r.json()["csrf_token"]
    h = {"X-CSRF-Token": csrf}
    r = client.post("/api/auth/password", json={"old_password": "nope nope", "new_password": "second password"}, headers=h)
    assert r.status_code == 401
    r = client.post("/api/auth/password", json={"old_password": "first password", "new_password": "x"}, headers=h)
    assert r.status_code == 400
    r = client.post("/api/auth/password", json={"old_password": "first password", "new_password": "second password"}, headers=h)
    assert r.status_code == 204
    client.cookies.clear()
    assert client.post("/api/auth/login", json={"name": "erin", "password": "first password"}).status_code == 401
    assert client.post("/api/auth/login", json={"name": "erin", "password": "second password"}).status_code == 200


def test_login_rate_limit(sqlite_db: Database) -> None:
    with build_client(sqlite_db, login_limit=3) as c:
        user(c, "fred")
        for _ in range(3):
            assert c.post("/api/auth/login", json={"name": "fred", "password": "wrong one"}).status_code == 401
        r = c.post("/api/auth/login", json={"name": "fred", "password": "correct horse"})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
        # Other names are not locked out by it.
        user(c, "gina")
        assert c.post("/api/auth/login", json={"name": "gina", "password": "correct horse"}).status_code == 200


def test_secure_cookie_flag(sqlite_db: Database) -> None:
    with build_client(sqlite_db, secure_cookies=True) as c:
        r = c.post("/api/auth/signup", json={"name": "hal", "password": "long enough"})
        assert all("Secure" in h for h in r.headers.get_list("set-cookie"))


def test_websocket_refuses_cross_site_cookie(client: TestClient) -> None:
    r = client.post("/api/auth/signup", json={"name": "ivy", "password": "long enough"})
    csrf = r.json()["csrf_token"]
    g = client.post("/api/games", json={"game": "toy", "role": "North", "private": True},
                    headers={"X-CSRF-Token": csrf}).json()
    with client.websocket_connect(f"/api/games/{g['id']}/ws", headers={"Origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "state"
    with client.websocket_connect(f"/api/games/{g['id']}/ws", headers={"Origin": "https://evil.example"}) as ws:
        assert ws.receive_json()["status"] == 404  # treated as anonymous: a private game is not shown


def test_form_posts_carry_csrf_in_a_field(client: TestClient) -> None:
    r = client.post("/api/auth/signup", json={"name": "jack", "password": "long enough"})
    csrf = r.json()["csrf_token"]
    assert client.post("/api/auth/logout", data={"csrf_token": "nope"}).status_code == 403
    assert client.post("/api/auth/logout", data={"csrf_token": csrf}).status_code == 204
    assert client.get("/api/me").status_code == 401


def test_signup_rate_limit(sqlite_db: Database) -> None:
    with build_client(sqlite_db, signup_limit=2) as c:
        user(c, "one")
        user(c, "two")
        r = c.post("/api/auth/signup", json={"name": "three", "password": "long enough"})
        assert r.status_code == 429


def test_login_limit_is_shared_by_workers(database: Database) -> None:
    """The failure count lives in the database: a second worker sees the first one's."""
    with build_client(database, login_limit=3) as w1, build_client(database, login_limit=3) as w2:
        user(w1, "kate")
        for c in (w1, w2, w1):
            assert c.post("/api/auth/login", json={"name": "kate", "password": "wrong one"}).status_code == 401
        assert w2.post("/api/auth/login", json={"name": "kate", "password": "correct horse"}).status_code == 429


def test_password_change_revokes_api_tokens_unless_kept(client: TestClient) -> None:
    """Whoever learnt the old password may have made an API token: a password change revokes
    them all, unless the user asks to keep them (the profile page offers and states both)."""
    r = client.post("/api/auth/signup", json={"name": "tokened", "password": "first password"})
    h = {"X-CSRF-Token": r.json()["csrf_token"]}
    tokens = [client.post("/api/tokens", json={"name": f"t{i}"}, headers=h).json()["token"] for i in (1, 2)]
    r = client.post("/api/auth/password", headers=h, json={
        "old_password": "first password", "new_password": "second password", "keep_tokens": True})
    assert r.status_code == 204
    for t in tokens:
        assert client.get("/api/me", headers={"Authorization": f"Bearer {t}", "Cookie": ""}).status_code == 200
    r = client.post("/api/auth/password", headers=h, json={
        "old_password": "second password", "new_password": "third password"})
    assert r.status_code == 204
    saved = dict(client.cookies)
    client.cookies.clear()
    for t in tokens:
        r = client.get("/api/me", headers={"Authorization": f"Bearer {t}"})
        assert r.status_code == 401 and r.json()["code"] == "bad_token"
    client.cookies.update(saved)
    assert client.get("/api/tokens").json() == []  # the session that changed it goes on
    page = client.get("/profile").text
    assert 'name="keep_tokens"' in page and "revokes them all" in page


def test_password_policy_refuses_common_passwords_and_the_user_name(client: TestClient) -> None:
    """The commonest passwords (and simple variations), and passwords containing the user name,
    are refused at sign-up, password change and by `roses admin create-user` (zxcvbn's lists)."""
    for weak in ("password", "12345678", "qwertyuiop", "iloveyou", "Password123", "letmein1", "sunshine1"):
        r = client.post("/api/auth/signup", json={"name": "policy", "password": weak})
        assert r.status_code == 400 and r.json()["code"] == "weak_password", (weak, r.text)
    for with_name in ("Policy-2026!x", "my policy is long and fine"):
        r = client.post("/api/auth/signup", json={"name": "policy", "password": with_name})
        assert r.status_code == 400 and "user name" in r.json()["detail"], (with_name, r.text)
    r = client.post("/api/auth/signup", json={"name": "policy", "password": "amber lantern rowing"})
    assert r.status_code == 201
    h = {"X-CSRF-Token": r.json()["csrf_token"]}
    r = client.post("/api/auth/password", headers=h,
                    json={"old_password": "amber lantern rowing", "new_password": "abc123abc123"})
    assert r.status_code == 400 and r.json()["code"] == "weak_password"
    r = client.post("/api/auth/password", headers=h,
                    json={"old_password": "amber lantern rowing", "new_password": "POLICY and more words"})
    assert r.status_code == 400 and "user name" in r.json()["detail"]
    # A password longer than zxcvbn's limit is judged by its beginning (and accepted when strong).
    long = "violet harbour crossing " * 20
    assert client.post("/api/auth/signup", json={"name": "longpass", "password": long}).status_code == 201
    assert client.post("/api/auth/signup", json={"name": "longweak", "password": "password" * 20}).status_code == 400
