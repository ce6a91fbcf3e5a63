"""Negotiated exchanges by e-mail (roses/server/exchanges.py): a player
proposes an exchange with an "exchange ..." line whether or not he is asked anything, the other
accepts with "exchange accept N"; a wrong line is refused with the reason; the replies list the
seat's own pending offers, never another seat's."""

from __future__ import annotations

from email.message import EmailMessage
from typing import Any

from roses.server import exchanges
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
from tests.server.test_messages import _play_to_a_turn

VIEW = {"negotiation": {"offers": [], "alliances": [], "standing": {"propose_exchange": {}, "accept_now": True}}}


def test_exchange_lines_are_read_into_the_verbs() -> None:
    assert exchanges.parse(VIEW, "move to AF23") is None
    assert exchanges.parse(VIEW, "exchange p2 give marshal ship:ship_mary ask any:1 free:grey ally") == (
        "propose_exchange", {"to": "P2", "give": {"cards": ["marshal"], "ships": ["ship_mary"], "free": []},
                             "ask": {"cards": [], "ships": [], "free": ["grey"], "any": 1}, "ally": True})
    assert exchanges.parse(VIEW, "exchange accept 3") == ("accept_exchange", 3)
    assert exchanges.parse(VIEW, "exchange accept 3 earl_of_kent") == ("accept_exchange", [3, ["earl_of_kent"]])
    assert exchanges.parse(VIEW, "Exchange decline 4") == ("decline_exchange", 4)
    assert exchanges.parse(VIEW, "exchange withdraw 4") == ("withdraw_exchange", 4)
    for bad, why in (("exchange accept", "offer's number"), ("exchange P2 marshal", "'give' or 'ask'"),
                     ("exchange P2 give any:2", "never given"), ("exchange decline 3 4", "exchange decline N")):
        out = exchanges.parse(VIEW, bad)
        assert isinstance(out, str) and why in out, (bad, out)
    assert exchanges.parse({}, "exchange P2 ally") == "this seat makes no exchanges in this game."


def test_an_alliance_proposed_and_accepted_by_e_mail(campaign: dict[str, Any], imap: ImapServer) -> None:  # noqa: F811
    c = campaign
    key = _key(c["db"], "bob", c["gid"], "P2")
    imap.deliver(_mail("bob@example.test", f"orders for game #{c['gid']}",
                       f"order key {key}\nexchange P1 ally\n"))
    sent: list[EmailMessage] = []
    outcomes = _reader(c, imap, sent).poll_once()
    assert [a[0] for a in outcomes[0].applied] == ["propose_exchange"], sent[0].get_content()
    text = sent[0].get_content()
    assert "done (exchange)." in text and "offer 1 (P2 to P1)" in text
    offers = _view(c, "alice", "P1")["view"]["negotiation"]["offers"]
    assert [o["id"] for o in offers] == [1]
    # Alice answers during the setup: refused with the reason (ruling K66), nothing changes.
    akey = _key(c["db"], "alice", c["gid"], "P1")
    imap.deliver(_mail("alice@example.test", f"orders for game #{c['gid']}", f"order key {akey}\nexchange accept 1\n"))
    sent.clear()
    outcomes = _reader(c, imap, sent).poll_once()
    assert outcomes[0].applied == [] and "ruling K66" in sent[0].get_content()
    assert _view(c, "alice", "P1")["view"]["negotiation"]["alliances"] == []
    # Once a player's own turn is reached, the same line is applied.
    _play_to_a_turn(c["client"], c["gid"], {"P1": c["alice"], "P2": c["bob"]})
    akey = _key(c["db"], "alice", c["gid"], "P1")  # the key of the moment: her seat has moved
    imap.deliver(_mail("alice@example.test", f"orders for game #{c['gid']}", f"order key {akey}\nexchange accept 1\n"))
    sent.clear()
    outcomes = _reader(c, imap, sent).poll_once()
    assert [a[0] for a in outcomes[0].applied] == ["accept_exchange"], sent[0].get_content()
    assert _view(c, "bob", "P2")["view"]["negotiation"]["alliances"] == [["P1", "P2"]]
    assert "Alliances: P1 and P2." in sent[0].get_content()
    akey = _key(c["db"], "alice", c["gid"], "P1")
    imap.deliver(_mail("alice@example.test", f"orders for game #{c['gid']}", f"order key {akey}\nexchange P9 ally\n"))
    sent.clear()
    outcomes = _reader(c, imap, sent).poll_once()
    assert outcomes[0].applied == [] and "another player's role" in sent[0].get_content()
