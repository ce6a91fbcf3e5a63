"""E-mail orders that cannot be replayed or forged, and a mail-in that neither floods a player
nor talks to autoresponders (roses/server/mailin.py), against the private Dovecot
(tests/server/imapserver.py; ROSES_REQUIRE_IMAP=1 fails instead of skipping without it)."""

from __future__ import annotations

from email.message import EmailMessage
from typing import Any

import pytest

from roses.server import mailin
from roses.server.mailin import automatic
from tests.server.imapserver import ImapServer
from tests.server.test_mailin import (  # noqa: F401 - the fixtures
    _key,
    _mail,
    _reader,
    _view,
    campaign,
    imap,
    server_key,
)


def test_a_message_is_never_applied_twice(campaign: dict[str, Any], imap: ImapServer) -> None:  # noqa: F811
    """Bob sets a standing order by e-mail. The same message delivered again (same Message-ID),
    a copy with a new Message-ID, and an older message's key used with new orders are all
    answered "not applied" and change nothing; every answer is Auto-Submitted."""
    c = campaign
    key = _key(c["db"], "bob", c["gid"], "P2")
    raw = _mail("bob@example.test", f"orders for game #{c['gid']}", f"order key {key}\nstanding vote:victory no\n")
    imap.deliver(raw)
    sent: list[EmailMessage] = []
    outcomes = _reader(c, imap, sent).poll_once()
    assert [a[0] for a in outcomes[0].applied] == ["set_order"]
    version = _view(c, "bob", "P2")["version"]
    fresh = _key(c["db"], "bob", c["gid"], "P2")
    assert fresh != key and f"order key {fresh}" in sent[0]["Subject"]  # the reply's key is the new one
    # 1. the very same message again (the attack of the report: a standing order set back)
    imap.deliver(raw)
    # 2. the same text under a new Message-ID
    imap.deliver(_mail("bob@example.test", f"orders for game #{c['gid']}", f"order key {key}\nstanding vote:victory no\n"))
    # 3. the old key with other orders: out of date (his seat has moved since)
    imap.deliver(_mail("bob@example.test", f"orders for game #{c['gid']}", f"order key {key}\nstanding vote:victory yes\n"))
    sent.clear()
    outcomes = _reader(c, imap, sent).poll_once()
    assert len(outcomes) == 3 and all(o.applied == [] for o in outcomes)
    assert _view(c, "bob", "P2")["version"] == version
    assert _view(c, "bob", "P2")["view"]["standing_orders"]["orders"] == {"vote:victory": "no"}
    texts = [m.get_content() for m in sent]
    assert "processed already" in texts[0] and "processed already" in texts[1]
    assert "already applied, or are out of date" in texts[2]
    for m in sent:
        assert m["Auto-Submitted"] == "auto-replied"
        assert fresh not in m.as_string() and "Your orders now" not in m.get_content()
    # the key of the moment works
    imap.deliver(_mail("bob@example.test", f"orders for game #{c['gid']}", f"order key {fresh}\nstanding vote:victory yes\n"))
    sent.clear()
    outcomes = _reader(c, imap, sent).poll_once()
    assert [a[0] for a in outcomes[0].applied] == ["set_order"]


def test_a_forged_flood_gets_a_few_answers_without_key_or_view(campaign: dict[str, Any], imap: ImapServer) -> None:  # noqa: F811
    """30 messages "From: alice" without a key: at most REFUSAL_LIMIT answers reach alice,
    none with a key or her view; nothing is played."""
    c = campaign
    version = _view(c, "alice", "P1")["version"]
    for i in range(30):
        imap.deliver(_mail("alice@example.test", f"game #{c['gid']}", f"done\n# {i}\n"))
    sent: list[EmailMessage] = []
    reader = _reader(c, imap, sent)
    outcomes = reader.poll_once()
    assert len(outcomes) == 30 and not any(o.applied for o in outcomes)
    assert len(sent) == mailin.REFUSAL_LIMIT and reader.unanswered == 30 - mailin.REFUSAL_LIMIT
    key = _key(c["db"], "alice", c["gid"], "P1")
    for m in sent:
        assert key not in m.as_string() and "order key" not in m["Subject"]
        assert "Your orders now" not in m.get_content() and "What happened lately" not in m.get_content()
    assert _view(c, "alice", "P1")["version"] == version


def test_answers_per_seat_are_limited(campaign: dict[str, Any], imap: ImapServer,  # noqa: F811
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Over the per-seat limit the orders are still played but no more answers go out."""
    c = campaign
    monkeypatch.setattr(mailin, "REPLY_LIMITS", {"sender": 100, "seat": 2})
    sent: list[EmailMessage] = []
    for value in ("no", "yes", "abstain"):
        key = _key(c["db"], "bob", c["gid"], "P2")
        imap.deliver(_mail("bob@example.test", f"orders for game #{c['gid']}",
                           f"order key {key}\nstanding vote:victory {value}\n"))
        outcomes = _reader(c, imap, sent).poll_once()
        assert [a[0] for a in outcomes[0].applied] == ["set_order"]
    assert len(sent) == 2
    assert _view(c, "bob", "P2")["view"]["standing_orders"]["orders"] == {"vote:victory": "abstain"}


@pytest.mark.parametrize(("header", "value"), [
    ("Auto-Submitted", "auto-replied"), ("Auto-Submitted", "auto-generated"), ("Precedence", "bulk"),
    ("Precedence", "list"), ("List-Id", "<players.example.test>"), ("Return-Path", "<>"),
])
def test_automatic_mail_gets_no_answer_and_plays_nothing(campaign: dict[str, Any], imap: ImapServer,  # noqa: F811
                                                         header: str, value: str) -> None:
    """RFC 3834: a vacation responder's or a list's message, even with a valid key, is neither
    played nor answered (the server and an autoresponder never write to each other)."""
    c = campaign
    key = _key(c["db"], "bob", c["gid"], "P2")
    raw = _mail("bob@example.test", f"orders for game #{c['gid']}", f"order key {key}\nstanding vote:victory no\n")
    raw = f"{header}: {value}\r\n".encode() + raw
    imap.deliver(raw)
    sent: list[EmailMessage] = []
    reader = _reader(c, imap, sent)
    outcomes = reader.poll_once()
    assert outcomes[0].applied == [] and sent == [] and reader.automatic == 1
    assert _view(c, "bob", "P2")["view"]["standing_orders"]["orders"] == {}


def test_bounces_and_mail_systems_are_automatic() -> None:
    report = EmailMessage()
    report.set_content("x")
    report.replace_header("Content-Type", "multipart/report; report-type=delivery-status; boundary=b")
    assert automatic(report, "someone@example.test") == "a delivery report"
    plain = EmailMessage()
    plain.set_content("x")
    assert automatic(plain, "MAILER-DAEMON@example.test") == "a mail system"
    assert automatic(plain, "list-bounces@example.test") == "a mail system"
    assert automatic(plain, "bob@example.test") is None
    plain["Auto-Submitted"] = "no"
    assert automatic(plain, "bob@example.test") is None
