"""Kingmaker negotiation in real Chromium (roses/web/static/js/negotiation.js,
roses/server/messages.py, roses/games/kingmaker/offers.py): three people at a 3-player table;
two exchange a private message that the third seat never receives (not over HTTP, not over the
WebSocket, not on its page); one proposes an alliance from the page and the other accepts it
from his page; the alliance is then public, shown on the third player's page."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web import players
from tests.web.conftest import DESKTOP, LiveServer, screenshot_path
from tests.web.leaks import Traffic

pytestmark = pytest.mark.browser

ROLES = ("P1", "P2", "P3")





def _to_an_own_turn(pages: dict[str, Any], gid: int) -> str:
    """Play first choices (through each seat's own session) until a player's own-turn decision,
    where an exchange takes effect (ruling K66); returns the role to move."""
    for _ in range(300):
        p1 = pages["P1"].evaluate(players.GET, f"/api/games/{gid}/view?role=P1")
        if p1["view"]["negotiation"]["standing"]["accept_now"]:
            return str(p1["active"][0])
        r = p1["active"][0]
        v = pages[r].evaluate(players.GET, f"/api/games/{gid}/view?role={r}")
        verb, args = next((k, a) for k, a in v["view"]["actions"].items() if k != "undo")
        pages[r].evaluate(players.POST, [f"/api/games/{gid}/action",
                                 {"role": r, "verb": verb, "arg": None if args is True else args[0],
                                  "version": v["version"]}])
    raise AssertionError("no own-turn decision reached")


def test_two_people_message_privately_and_one_accepts_the_others_offer(browser: Any, live_server: LiveServer) -> None:
    base = live_server.url
    stamp = str(int(time.time() * 1000))[-6:]
    contexts, pages, errors = players.people(browser, base, ROLES, "neg", DESKTOP)
    gid = int(pages["P1"].evaluate(players.POST, ["/api/games", {"game": "kingmaker", "role": "P1", "preview": True,
                                                         "options": {"players": 3}}])["id"])
    for r in ("P2", "P3"):
        pages[r].evaluate(players.POST, [f"/api/games/{gid}/join", {"role": r}])
    mover = _to_an_own_turn(pages, gid)
    proposer = next(r for r in ROLES if r != mover)
    third = next(r for r in ROLES if r not in (mover, proposer))
    traffic = {r: Traffic(pages[r]) for r in ROLES}
    for page in pages.values():
        page.goto(f"{base}/games/{gid}")
        page.wait_for_function("document.body.dataset.status === 'active'", timeout=40000)
        players.show_tab_of(page, "#negotiation-panel")
        page.wait_for_selector("#negotiation-panel:not([hidden]) #message-form", timeout=40000)

    # A private message from the proposer to the mover.
    secret = f"Ally with me and I keep the Scots busy {stamp}"
    sender = pages[proposer]
    sender.check(f'#message-form input[name=to][value="{mover}"]')
    sender.fill("#message-form input[name=text]", secret)
    sender.click("#message-form button[type=submit]")
    pages[mover].wait_for_function(
        "(t) => [...document.querySelectorAll('#private-messages li')].some(li => li.textContent.includes(t))",
        arg=secret, timeout=40000)
    assert secret in sender.inner_text("#private-messages")

    # The offer: an alliance, made from the page and accepted from the other's page.
    sender.click("#offer-compose summary")
    sender.select_option("#offer-form select[name=to]", mover)
    sender.check("#offer-form input[name=ally]")
    sender.locator("#offer-form").screenshot(path=str(screenshot_path("kingmaker-negotiation-offer-form.png")))
    sender.click("#offer-form button[type=submit]")
    receiver = pages[mover]
    receiver.wait_for_selector("#offers li.offer button.accept-offer:not([disabled])", timeout=40000)
    assert "alliance" in receiver.inner_text("#offers")
    receiver.click("#offers li.offer button.accept-offer")
    pages[third].wait_for_selector("#alliances", timeout=40000)
    shown = pages[third].inner_text("#alliances")
    assert proposer in shown and mover in shown
    receiver.wait_for_function("!document.querySelector('#offers li.offer')", timeout=40000)
    record = live_server.services.games.admin_export(gid)
    verbs = [(a["role"], a["verb"]) for a in record["actions"]]
    assert (proposer, "propose_exchange") in verbs and (mover, "accept_exchange") in verbs

    # The third seat never received the message or the offer's terms, by any channel.
    pages[third].wait_for_timeout(500)
    for chunk in traffic[third].texts():
        assert secret not in chunk, "the third seat received the private message"
        assert "proposes (offer" not in chunk, "the third seat received the offer before it was accepted"
    offer = next(a["arg"] for a in record["actions"] if a["verb"] == "accept_exchange")
    dom = pages[third].content()
    assert secret not in dom and f"Offer {offer}:" not in dom
    assert any(secret in c for c in traffic[mover].texts())  # the scan reads what was sent
    pages[mover].screenshot(path=str(screenshot_path("kingmaker-negotiation-desktop.png")))
    assert not errors, errors
    for ctx in contexts.values():
        ctx.close()
