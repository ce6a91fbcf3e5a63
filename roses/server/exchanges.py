"""Negotiated exchanges written as text, for orders by e-mail (mailin.py).

A game whose view gives a player ``negotiation.standing`` (Kingmaker's ``offers.py``) lets him
propose and answer exchanges with his verbs ``propose_exchange`` / ``accept_exchange`` /
``decline_exchange`` / ``withdraw_exchange`` at any time. By e-mail, one per line:

``exchange P2 give marshal ship:ship_mary ask any:1 ally``
    an offer to P2: after ``give`` what one gives, after ``ask`` what one asks; a word is a
    Crown card id, ``ship:ID`` a ship lent, ``free:NOBLE`` a captive set free, ``any:N`` (asked)
    N cards of the other's choice; ``ally`` proposes an alliance
``exchange accept 3``, ``exchange accept 3 earl_of_kent``
    accept offer 3 (naming the cards one gives when it asks some of one's choice)
``exchange decline 3``, ``exchange withdraw 3``

The line is read into the verb's argument only; the rules check the offer when it is applied.
"""

from __future__ import annotations

from typing import Any

#: The word that starts an exchange line.
WORD = "exchange"
ANSWERS = {"accept": "accept_exchange", "decline": "decline_exchange", "withdraw": "withdraw_exchange"}
SYNTAX = ("exchange ROLE give CARD ship:ID free:NOBLE ask CARD any:N ship:ID free:NOBLE ally; "
          "exchange accept N [CARD ...]; exchange decline N; exchange withdraw N")


def _negotiation(view: dict[str, Any]) -> dict[str, Any] | None:
    neg = view.get("negotiation")
    if not isinstance(neg, dict) or not isinstance(neg.get("standing"), dict):
        return None
    return neg


def parse(view: dict[str, Any], line: str) -> tuple[str, Any] | str | None:
    """The verb of an exchange ``line``: ``(verb, arg)``; a text saying what is wrong; or None
    when the line is not an exchange line."""
    words = line.split()
    if not words or words[0].lower() != WORD:
        return None
    if _negotiation(view) is None:
        return "this seat makes no exchanges in this game."
    if len(words) < 2:
        return f"write: {SYNTAX}."
    head = words[1].lower()
    if head in ANSWERS:
        if len(words) < 3 or not words[2].isdigit():
            return f"write: exchange {head} N (the offer's number)."
        number = int(words[2])
        if head == "accept" and len(words) > 3:
            return ANSWERS[head], [number, words[3:]]
        if len(words) > 3:
            return f"write: exchange {head} N."
        return ANSWERS[head], number
    to = words[1].upper() if words[1].lower().startswith("p") else words[1]
    give: dict[str, Any] = {"cards": [], "ships": [], "free": []}
    ask: dict[str, Any] = {"cards": [], "ships": [], "free": [], "any": 0}
    ally = False
    side: dict[str, Any] | None = None
    for word in words[2:]:
        low = word.lower()
        if low == "give":
            side = give
        elif low == "ask":
            side = ask
        elif low == "ally":
            ally = True
        elif side is None:
            return f"write 'give' or 'ask' before {word!r}."
        elif low.startswith("any:"):
            if side is not ask or not low[4:].isdigit():
                return "any:N is asked (N cards of the other's choice), never given."
            ask["any"] = int(low[4:])
        elif low.startswith("ship:"):
            side["ships"].append(word[5:])
        elif low.startswith("free:"):
            side["free"].append(word[5:])
        else:
            side["cards"].append(word)
    return "propose_exchange", {"to": to, "give": give, "ask": ask, "ally": ally}


def help_lines(view: dict[str, Any]) -> list[str]:
    """The seat's pending offers and how exchanges are written (for a reply)."""
    neg = _negotiation(view)
    if neg is None:
        return []
    out = ["", f"Exchanges (binding only when accepted; one per line): {SYNTAX}."]
    for o in neg.get("offers") or []:
        out.append(f"  offer {o['id']} ({o['from']} to {o['to']}): {o['text']}.")
    if neg.get("alliances"):
        out.append("Alliances: " + "; ".join(" and ".join(a) for a in neg["alliances"]) + ".")
    return out
