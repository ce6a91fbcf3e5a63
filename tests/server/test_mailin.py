"""Orders by e-mail (roses/server/mailin.py), against a real IMAP server: a
private Dovecot started by the test (tests/server/imapserver.py). Orders sent to the mailbox
in the terminal's order language are applied through the game service; a wrong order gets
the rules' own refusal; mail from unknown or unconfirmed addresses is not answered; orders need
the seat's order key of the moment, which only the seat's holder gets (a forged From plays
nothing); a seat is only played by its holder; no reply holds what the seat may not know."""

from __future__ import annotations

import time
from collections.abc import Iterator
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

import pytest
import sqlalchemy as sa

from roses.engine import Game, get_rules
from roses.engine.labels import arg_key
from roses.server import db
from roses.server.db import Database
from roses.server.mailin import (
    MailIn,
    MailInConfig,
    game_and_role,
    match_order,
    order_key,
    order_lines,
)
from tests.server.conftest import build_client, user
from tests.server.imapserver import ImapServer, run_dovecot
from tests.server.test_notify import Mailbox, mailbox  # noqa: F401 - the fixture

RULES = get_rules("kingmaker")


@pytest.fixture(autouse=True)
def server_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROSES_CHANCE_KEY", "test server key")


def _key(database: Database, name: str, gid: int, role: str) -> str:
    """The seat's order key of the moment (for the game's current version)."""
    with database.read() as conn:
        uid = conn.execute(sa.select(db.users.c.id).where(db.users.c.name == name)).scalar_one()
        version = conn.execute(sa.select(db.games.c.version).where(db.games.c.id == gid)).scalar_one()
    return order_key(int(uid), gid, role, int(version))


@pytest.fixture
def imap() -> Iterator[ImapServer]:
    """A private Dovecot (tests/server/imapserver.py): skipped without Dovecot, failed with
    ROSES_REQUIRE_IMAP=1."""
    yield from run_dovecot()


def _confirm(database: Database, name: str, address: str, verified: bool = True) -> None:
    """Give a user a (confirmed) address directly (the confirmation link is tested elsewhere)."""
    with database.write() as conn:
        conn.execute(db.users.update().where(db.users.c.name == name).values(email=address, email_verified=verified))


def _mail(sender: str, subject: str, body: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"Someone <{sender}>"
    msg["To"] = "orders@roses.test"
    msg["Subject"] = subject
    msg["Message-ID"] = make_msgid(domain="player.test")
    msg.set_content(body)
    return bytes(msg)


@pytest.fixture
def campaign(sqlite_db: Database) -> Iterator[dict[str, Any]]:
    """A started 2-player Kingmaker game of alice (P1) and bob (P2), both with confirmed
    addresses; carol has an unconfirmed one."""
    with build_client(sqlite_db) as client:
        alice, bob = user(client, "alice"), user(client, "bob")
        user(client, "carol")
        _confirm(sqlite_db, "alice", "Alice@Example.test")
        _confirm(sqlite_db, "bob", "bob@example.test")
        _confirm(sqlite_db, "carol", "carol@example.test", verified=False)
        r = client.post("/api/games", json={"game": "kingmaker", "role": "P1", "preview": True, "title": "Towton",
                                             "options": {"players": 2}}, headers=alice)
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        r = client.post(f"/api/games/{gid}/join", json={"role": "P2"}, headers=bob)
        assert r.status_code == 200 and r.json()["status"] == "active", r.text
        yield {"client": client, "gid": gid, "alice": alice, "bob": bob, "db": sqlite_db,
               "games": client.app.state.roses.games}  # type: ignore[attr-defined]


def _reader(c: dict[str, Any], server: ImapServer, sent: list[EmailMessage]) -> MailIn:
    config = MailInConfig(imap_host=server.host, imap_port=server.port, imap_user=server.user,
                          imap_password=server.password, poll=0.1)
    return MailIn(c["games"], config, send=sent.append, from_address="orders@roses.test")


def _state(c: dict[str, Any]) -> dict[str, Any]:
    record = c["games"].admin_export(c["gid"])
    return Game.from_record(RULES, record).state


def _scan(c: dict[str, Any], replies: list[EmailMessage], role: str) -> None:
    """No reply to ``role`` holds a secret of ``role`` (Rules.secrets of the game now)."""
    secrets = RULES.secrets(_state(c), role)
    assert secrets, "the scan proves nothing without secrets"
    for reply in replies:
        text = reply.as_string()
        for s in secrets:
            assert s not in text, f"a reply to {role} holds the secret {s!r}"


def _view(c: dict[str, Any], who: str, role: str) -> dict[str, Any]:
    r = c["client"].get(f"/api/games/{c['gid']}/view", params={"role": role}, headers=c[who])
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_orders_in_the_mailbox_are_applied_and_acknowledged(campaign: dict[str, Any], imap: ImapServer) -> None:
    c = campaign
    before = _view(c, "alice", "P1")
    view = before["view"]
    labels = view["labels"]
    # one order as the terminal labels it, one as verb and arguments
    give = next(a for a in view["actions"]["give"])
    give_label = labels["give"][arg_key(give)]
    after = RULES.action(_state(c), "P1", "give", give)
    verb, arg = RULES.legal_actions(after, "P1")[-1]  # what the second order may be
    second = " ".join([verb.upper(), *([] if arg is None else [arg] if isinstance(arg, str) else arg)])
    body = f"{give_label}\n{second}\n\n-- \nAlice\n> It is your turn in Towton (game #{c['gid']}).\n"
    # the first message has no order key: nothing is applied, and the answer (to her confirmed
    # address) says why, with neither a key nor her view
    imap.deliver(_mail("alice@example.test", f"Re: Your turn: Towton (game #{c['gid']})", body))
    sent: list[EmailMessage] = []
    first = _reader(c, imap, sent).poll_once()
    assert first[0].applied == [] and _view(c, "alice", "P1")["version"] == before["version"]
    key = _key(c["db"], "alice", c["gid"], "P1")
    assert sent[0]["To"] == "alice@example.test" and "valid order key" in sent[0].get_content()
    assert key not in sent[0].as_string() and give_label not in sent[0].get_content()
    assert sent[0]["Auto-Submitted"] == "auto-replied"
    # she takes the key of the moment from the game's page and sends her orders with it
    r = c["client"].get(f"/api/games/{c['gid']}/order-key", headers=c["alice"])
    assert r.status_code == 200 and r.json()["key"] == key
    assert r.json()["subject"].endswith(f"(game #{c['gid']} role P1 order key {key})")
    assert c["client"].get(f"/api/games/{c['gid']}/order-key", params={"role": "P2"},
                           headers=c["alice"]).status_code == 403
    imap.deliver(_mail("alice@example.test", r.json()["subject"], body))
    sent.clear()
    outcomes = _reader(c, imap, sent).poll_once()
    assert len(outcomes) == 1 and outcomes[0].applied == [("give", give), (verb, arg)], outcomes
    record = c["games"].admin_export(c["gid"])
    assert [(a["role"], a["verb"], a.get("arg")) for a in record["actions"]][-2:] == [
        ("P1", "give", give), ("P1", verb, arg)]
    assert len(sent) == 1
    reply = sent[0]
    assert reply["To"] == "alice@example.test" and reply["Subject"].startswith("Re: ")
    text = reply.get_content()
    assert f"Order 1, {give_label!r}: done" in text and f"Order 2, {second!r}: done" in text
    assert reply["In-Reply-To"]
    assert any("\\Seen" in f for f in imap.flags())
    _scan(c, sent, "P1")
    # read once: a second poll finds nothing new
    assert _reader(c, imap, sent).poll_once() == []


def test_a_wrong_order_gets_the_rules_refusal_and_changes_nothing(campaign: dict[str, Any], imap: ImapServer) -> None:
    c = campaign
    version = _view(c, "bob", "P2")["version"]
    body = f"order key {_key(c['db'], 'bob', c['gid'], 'P2')}\ngive marshal nobody_at_all\ndone\n"
    imap.deliver(_mail("bob@example.test", f"orders for game #{c['gid']}", body))
    sent: list[EmailMessage] = []
    outcomes = _reader(c, imap, sent).poll_once()
    assert outcomes[0].applied == [] and outcomes[0].refused
    assert _view(c, "bob", "P2")["version"] == version  # nothing applied, not even the second order
    # the refusal is the rules' own, as the API's "why" gives it
    why = c["client"].post(f"/api/games/{c['gid']}/why", json={"role": "P2", "verb": "give", "version": version,
                                                             "arg": ["marshal", "nobody_at_all"]}, headers=c["bob"])
    assert why.status_code == 200 and why.json()["allowed"] is False, why.text
    reason = why.json()["reason"]
    text = sent[0].get_content()
    assert f"refused: {reason}" in text, text
    assert "Orders 2 to 2 were not applied" in text
    assert "Your orders now" in text  # what he may write instead: every label of his view
    bob_view = _view(c, "bob", "P2")["view"]
    for verb, by_arg in bob_view["labels"].items():
        if verb != "undo":
            assert all(f"  {label}\n" in text for label in by_arg.values())
    _scan(c, sent, "P2")


def test_a_wrong_order_gets_a_refusal_naming_the_rule(campaign: dict[str, Any], imap: ImapServer) -> None:
    """Issue 20 ("a wrong order gets a refusal naming the rule"): in the arrangement of the
    dealt cards, a title given to a noble who has one, an office to an untitled noble, a bishop
    or mercenary kept by the faction are refused naming §Preparing to Play
    (setup.Arrange's why_not_give); the reply quotes the reason and nothing is applied."""
    from roses.games.kingmaker.common import Z_HAND, W, faction_nobles, noble_title

    c = campaign
    state = _state(c)
    w = W(state)
    held = [c_ for c_ in range(len(w.cards)) if state["cz"][c_] == Z_HAND and state["ch"][c_] == 1]
    nobles = faction_nobles(state, 1)
    titled = [n for n in nobles if noble_title(state, n)]
    untitled = [n for n in nobles if not noble_title(state, n)]
    legal_verbs = {v for v, _ in RULES.legal_actions(state, "P2")}
    order, rule = None, None
    for k, targets, ln in (("title", titled, "§Preparing to Play"), ("office", untitled, "§Preparing to Play")):
        card = next((x for x in held if w.cards[x].kind == k), None)
        if card is not None and targets:
            order, rule = f"give {w.cards[card].id} {w.cards[targets[0]].id}", ln
            break
    if order is None and "asset" in legal_verbs:
        card = next(x for x in held if w.cards[x].kind in ("bishop", "mercenary"))
        order, rule = f"asset {w.cards[card].id}", "§Preparing to Play"
    assert order is not None, "the deal gave P2 nothing to misplace"
    version = _view(c, "bob", "P2")["version"]
    body = f"order key {_key(c['db'], 'bob', c['gid'], 'P2')}\n{order}\n"
    imap.deliver(_mail("bob@example.test", f"orders for game #{c['gid']}", body))
    sent: list[EmailMessage] = []
    outcomes = _reader(c, imap, sent).poll_once()
    assert outcomes[0].applied == [] and outcomes[0].refused
    assert _view(c, "bob", "P2")["version"] == version
    text = sent[0].get_content()
    assert f"({rule})" in text and "refused: P2 cannot" in text, text
    _scan(c, sent, "P2")


def test_unknown_and_unconfirmed_senders_get_nothing(campaign: dict[str, Any], imap: ImapServer) -> None:
    c = campaign
    version = _view(c, "alice", "P1")["version"]
    imap.deliver(_mail("mallory@evil.test", f"game #{c['gid']}", "done\n"))
    imap.deliver(_mail("carol@example.test", f"game #{c['gid']}", "done\n"))
    sent: list[EmailMessage] = []
    reader = _reader(c, imap, sent)
    outcomes = reader.poll_once()
    assert len(outcomes) == 2 and all(o.reply is None and not o.applied for o in outcomes)
    assert sent == [] and reader.ignored == 2
    assert _view(c, "alice", "P1")["version"] == version


def test_a_forged_sender_without_the_key_plays_nothing(campaign: dict[str, Any], imap: ImapServer) -> None:
    """Anyone may write alice's address in From: without her seat's key nothing is played, and
    the answer (with the key) goes to alice's own address, not to the forger."""
    c = campaign
    version = _view(c, "alice", "P1")["version"]
    forged = _mail("alice@example.test", f"game #{c['gid']}", "order key 0123456789abcdef\ndone\n")
    imap.deliver(forged.replace(b"Someone <alice@example.test>", b"Alice <alice@example.test>"))
    sent: list[EmailMessage] = []
    _reader(c, imap, sent).poll_once()
    assert _view(c, "alice", "P1")["version"] == version
    assert [m["To"] for m in sent] == ["alice@example.test"] and "not applied" in sent[0].get_content()


def test_a_player_cannot_order_for_another_seat(campaign: dict[str, Any], imap: ImapServer) -> None:
    c = campaign
    version = _view(c, "alice", "P1")["version"]
    imap.deliver(_mail("bob@example.test", f"game #{c['gid']} role P1", "done\n"))
    imap.deliver(_mail("bob@example.test", "no game named here", "done\n"))
    sent: list[EmailMessage] = []
    _reader(c, imap, sent).poll_once()
    assert _view(c, "alice", "P1")["version"] == version
    texts = [m.get_content() for m in sent]
    assert "You do not hold the seat 'P1'" in texts[0]
    assert "Which game?" in texts[1]


def test_the_server_reads_the_mailbox_and_replies_by_smtp(sqlite_db: Database, imap: ImapServer,
                                                         mailbox: Mailbox, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """With ROSES_IMAP_* set, the running server polls the mailbox by itself and mails the reply."""
    for k, v in {"ROSES_IMAP_HOST": imap.host, "ROSES_IMAP_PORT": str(imap.port),
                 "ROSES_IMAP_USER": imap.user, "ROSES_IMAP_PASSWORD": imap.password,
                 "ROSES_IMAP_POLL": "0.1"}.items():
        monkeypatch.setenv(k, v)
    with build_client(sqlite_db) as client:
        alice, bob = user(client, "alice"), user(client, "bob")
        _confirm(sqlite_db, "alice", "alice@example.test")
        gid = client.post("/api/games", json={"game": "kingmaker", "role": "P1", "preview": True,
                                               "options": {"players": 2}}, headers=alice).json()["id"]
        client.post(f"/api/games/{gid}/join", json={"role": "P2"}, headers=bob)
        view = client.get(f"/api/games/{gid}/view", params={"role": "P1"}, headers=alice).json()["view"]
        label = next(iter(view["labels"]["give"].values()))
        key = _key(sqlite_db, "alice", gid, "P1")
        imap.deliver(_mail("alice@example.test", f"game #{gid}", f"order key {key}\n{label}\n"))
        deadline = time.time() + 20
        while not mailbox.messages and time.time() < deadline:
            time.sleep(0.05)
        assert mailbox.messages, "no reply was mailed"
        assert mailbox.messages[0]["to"] == ["alice@example.test"]
        assert f"Order 1, {label!r}: done" in mailbox.messages[0]["data"]
        with sqlite_db.read() as conn:
            n = conn.execute(sa.select(sa.func.count()).select_from(db.actions).where(db.actions.c.game_id == gid)).scalar()
        assert n == 1


# ---------------------------------------------------------------------------- the order language
def test_order_lines_stop_at_the_signature_and_the_quote() -> None:
    text = "role P2\ngame #4\n\nmove to AF23\n# a comment\n> quoted\nend alliance P3\n-- \nme\nlater line\n"
    assert order_lines(text) == ["move to AF23", "end alliance P3"]
    assert order_lines("done\nOn Tue, 3 Mar 2026, Roses wrote:\n> select percy\n") == ["done"]
    assert order_lines("order key 12-0123456789abcdef\ndone\n") == ["done"]


def test_game_and_seat_from_subject_or_text() -> None:
    assert game_and_role("Re: Your turn: Towton (game #12)", "") == (12, None)
    assert game_and_role("orders", "role P3\n> It is your turn in X (game #7).") == (7, "P3")
    assert game_and_role("game #3 role P2", "") == (3, "P2")
    assert game_and_role("hello", "no number") == (None, None)


def test_an_order_matches_a_label_or_verb_and_arguments() -> None:
    view = {"actions": {"to": ["AF23", "AG24"], "give": [["marshal", "percy"]], "end_alliance": ["P3"], "done": True},
            "labels": {"to": {'"AF23"': "move to AF23", '"AG24"': "move to AG24"},
                       "give": {'["marshal","percy"]': "give Marshal of England, Percy"},
                       "end_alliance": {'"P3"': "end alliance P3"}, "done": {"null": "done"}}}
    assert match_order(view, "Move to af23.").action == ("to", "AF23")
    assert match_order(view, "to AG24").action == ("to", "AG24")
    assert match_order(view, "give Marshal of England, Percy").action == ("give", ["marshal", "percy"])
    assert match_order(view, "give marshal percy").action == ("give", ["marshal", "percy"])
    assert match_order(view, 'give ["marshal", "percy"]').action == ("give", ["marshal", "percy"])
    assert match_order(view, "end alliance P3").action == ("end_alliance", "P3")
    assert match_order(view, "done").action == ("done", None)
    wrong = match_order(view, "to ZZ99")
    assert wrong.action is None and wrong.guess == ("to", "ZZ99")  # asked of the rules
    assert match_order(view, "fly to the moon").why
    assert "Numbers" in (match_order(view, "3").why or "")


def test_standing_orders_by_e_mail(campaign: dict[str, Any], imap: ImapServer) -> None:
    """Issue 20 item 3 by e-mail (roses/server/standing.py): "standing KIND VALUE" sets a
    standing order whether or not the seat is asked now, "standing clear KIND" clears it, a
    wrong one is refused with the reason; the reply lists the kinds and the orders set."""
    c = campaign
    key = _key(c["db"], "bob", c["gid"], "P2")
    body = f"order key {key}\nstanding permit:P1 allow\nstanding vote:victory no\nstanding clear permit:P1\n"
    imap.deliver(_mail("bob@example.test", f"orders for game #{c['gid']}", body))
    sent: list[EmailMessage] = []
    outcomes = _reader(c, imap, sent).poll_once()
    assert [a[0] for a in outcomes[0].applied] == ["set_order", "set_order", "clear_order"], outcomes
    assert _view(c, "bob", "P2")["view"]["standing_orders"]["orders"] == {"vote:victory": "no"}
    assert _view(c, "alice", "P1")["view"]["standing_orders"]["orders"] == {}
    text = sent[0].get_content()
    assert "Order 2, 'standing vote:victory no': done (standing order)." in text
    assert "vote:victory (yes, no, abstain): set to no" in text
    key = _key(c["db"], "bob", c["gid"], "P2")  # the key of the moment: his seat has moved
    imap.deliver(_mail("bob@example.test", f"orders for game #{c['gid']}", f"order key {key}\nstanding permit:P1 perhaps\n"))
    sent.clear()
    outcomes = _reader(c, imap, sent).poll_once()
    assert outcomes[0].applied == [] and "takes one of: allow, deny" in sent[0].get_content()
    _scan(c, sent, "P2")
