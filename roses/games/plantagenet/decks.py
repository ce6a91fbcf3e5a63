"""Command decks hold the Command cards of the Lords in play (1.9.2, 6.2.2; RULINGS R17).

Each Lord badge has three Command cards (1.9.2) shared by the versions of that Lord (1.5.1);
each side also has four Pass cards. A side's cards in the game are its Pass cards and the
cards of the badges of its Lords in play (:data:`records.IN_PLAY`: on the map, on the Calendar
or in Battle). A new arrival's cards are added (6.2.2 ADD), a dead or shipwrecked Lord's cards
leave the game (4.4.3, 4.8.2), a Lord replaced in place passes his cards on (6.2.2 REPLACE).

This module depends only on the component data and the records, so that :mod:`setup` and
:mod:`services` may both use it.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from roses.games.plantagenet.components import load
from roses.games.plantagenet.records import IN_PLAY

State = dict[str, Any]

ZONES: Final = ("deck", "plan", "revealed")


def badge_in_play(state: State, side: str, badge: str, *, besides: str | None = None) -> bool:
    """Whether a Lord of ``side`` with ``badge`` (other than ``besides``) is in play."""
    c = load()
    return any(lid != besides and c.lords[lid]["side"] == side and c.lords[lid]["badge"] == badge
               and d["where"] in IN_PLAY for lid, d in state["lords"].items())


def cards_in_game(state: State, side: str) -> list[str]:
    """Every Command card ``side`` should have in the game, in deck order."""
    c = load()
    lords = c.lords
    badges = {lords[lid]["badge"] for lid, d in state["lords"].items()
              if lords[lid]["side"] == side and d["where"] in IN_PLAY}  # as badge_in_play, once
    return [cid for cid, badge in _card_badges(side) if badge is None or badge in badges]


@cache
def _card_badges(side: str) -> tuple[tuple[str, str | None], ...]:
    """The side's Command cards in deck order, each with its badge (None for a Pass card)."""
    return tuple((cid, None if cid.startswith("pass-") else cid.rsplit("-", 1)[0])
                 for cid in load().command_cards[side])


def held_cards(state: State, side: str) -> list[str]:
    """The Command cards ``side`` has in the game, wherever they are, in deck order."""
    codec = load().command_ids[side]
    zones = state["command"][side]
    return sorted((cid for z in ZONES for cid in zones[z]), key=codec.ids.__getitem__)


def add_command_cards(state: State, lord: str) -> list[str]:
    """6.2.2 ADD: put a new arrival's Command cards into his side's deck (none if his badge's
    cards are already in the game). Returns the cards added."""
    c = load()
    side = c.lords[lord]["side"]
    have = set(held_cards(state, side))
    new = [cid for cid in c.command_cards_of(lord) if cid not in have]
    deck = state["command"][side]["deck"]
    deck.extend(new)
    deck.sort(key=c.command_ids[side].ids.__getitem__)
    return new


def remove_command_cards(state: State, lord: str) -> list[str]:
    """4.4.3 Death, 4.8.2 Shipwreck: the Lord's Command cards leave the game from wherever
    they are (deck, Plan or revealed), unless another Lord of his side with the same badge is
    still in play. Returns the cards removed."""
    c = load()
    side = c.lords[lord]["side"]
    if badge_in_play(state, side, c.lords[lord]["badge"], besides=lord):
        return []
    gone = set(c.command_cards_of(lord))
    removed: list[str] = []
    for z in ZONES:
        cards = state["command"][side][z]
        removed += [cid for cid in cards if cid in gone]
        cards[:] = [cid for cid in cards if cid not in gone]
    return removed


def replace_command_cards(state: State, old: str, new: str) -> None:
    """6.2.2 REPLACE: the new Lord's Command cards take the places of the old one's ("Command
    cards where they are, including in that side's Plan"); same badge: nothing changes."""
    c = load()
    side = c.lords[old]["side"]
    olds, news = c.command_cards_of(old), c.command_cards_of(new)
    if olds == news:
        return
    if set(news) & set(held_cards(state, side)):  # his badge is in the game already
        remove_command_cards(state, old)
        return
    swap = dict(zip(olds, news, strict=True))
    for z in ZONES:
        cards = state["command"][side][z]
        cards[:] = [swap.get(cid, cid) for cid in cards]
    deck = state["command"][side]["deck"]
    deck.sort(key=c.command_ids[side].ids.__getitem__)
