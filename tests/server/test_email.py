"""E-mail addresses: validated (no header injection through CR/LF, no malformed address is
stored), and verified by a link before any notification is mailed to them."""

from __future__ import annotations

import email
import email.policy
import re

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from roses.server import db
from roses.server.db import Database

from .conftest import build_client
from .test_notify import Mailbox, mailbox, wait_for  # noqa: F401 - the fixture

BAD = ["victim@example.test\r\nBcc: everyone@example.test", "a@example.test\nX-Injected: 1",
       "no-at-sign.example.test", "two@@example.test", "a b@example.test", "a@example..test", "@example.test",
       "a@", "a@example.test\x00"]


@pytest.mark.parametrize("address", BAD)
def test_malformed_addresses_are_refused_and_not_stored(client: TestClient, database: Database, address: str) -> None:
    r = client.post("/api/auth/signup", json={"name": "mailer", "password": "correct horse", "email": address})
    assert r.status_code == 400 and r.json()["code"] == "bad_email", r.text
    with database.read() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(db.users)).scalar() == 0
    r = client.post("/api/auth/signup", json={"name": "mailer", "password": "correct horse"})
    h = {"X-CSRF-Token": r.json()["csrf_token"]}
    r = client.put("/api/me/settings", json={"email": address}, headers=h)
    assert r.status_code == 400 and r.json()["code"] == "bad_email", r.text
    with database.read() as conn:
        assert conn.execute(sa.select(db.users.c.email)).scalar() is None


def _link(box: Mailbox, address: str) -> str:
    mail = wait_for(lambda: [m for m in box.messages if m["to"] == [address] and "confirm" in m["data"]])
    text = email.message_from_string(mail[-1]["data"], policy=email.policy.default).get_content()  # type: ignore[attr-defined]
    found = re.search(r"/api/auth/verify-email\?token=[\w-]+", text)
    assert found, mail[-1]["data"]
    return found.group(0)


def test_notifications_are_mailed_only_to_a_confirmed_address(database: Database, mailbox: Mailbox) -> None:  # noqa: F811
    with build_client(database) as client:
        r = client.post("/api/auth/signup", json={"name": "mailer", "password": "correct horse",
                                                  "email": "Mailer@Example.test"})
        assert r.status_code == 201, r.text
        h = {"X-CSRF-Token": r.json()["csrf_token"]}
        settings = client.get("/api/me/settings").json()
        assert settings["email"] == "Mailer@example.test" and settings["email_verified"] is False
        link = _link(mailbox, "Mailer@example.test")
        mailbox.messages.clear()
        # Not confirmed: a test notification mails nothing and says why.
        r = client.post("/api/me/settings/test", headers=h)
        assert r.status_code == 409 and "not confirmed" in r.json()["detail"], r.text
        # A wrong or reused token confirms nothing.
        assert client.get("/api/auth/verify-email?token=not-the-token").status_code == 400
        r = client.get(link)
        assert r.status_code == 200 and "Mailer@example.test is confirmed" in r.text
        assert client.get(link).status_code == 400  # used
        assert client.get("/api/me/settings").json()["email_verified"] is True
        assert client.post("/api/me/settings/test", headers=h).status_code == 202
        mail = wait_for(lambda: mailbox.messages)
        assert mail[0]["to"] == ["Mailer@example.test"] and "test notification" in mail[0]["data"]
        # A new address is unconfirmed again, gets its own link, and no notification until then.
        mailbox.messages.clear()
        assert client.put("/api/me/settings", json={"email": "other@example.test"}, headers=h).status_code == 200
        assert client.get("/api/me/settings").json()["email_verified"] is False
        second = _link(mailbox, "other@example.test")
        assert client.get(link).status_code == 400
        mailbox.messages.clear()
        r = client.post("/api/me/email/verify", headers=h)  # ask for another link
        assert r.status_code == 202 and r.json()["sent"] is True
        assert client.get(second).status_code == 400  # replaced by the newest link
        assert client.get(_link(mailbox, "other@example.test")).status_code == 200
