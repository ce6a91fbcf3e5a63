"""Kingmaker card data: the Crown deck, the office ships, the royal heirs and the Event deck.

The data are JSON files in our own format (``data/cards.json``, ``data/events-default.json``;
documented in ``docs/kingmaker/board.md``, section "Cards and decks"). Every figure names its
source (``src``): the rulebook, the public card set of the research notes (unverified), or a
Roses house value. A game may be created with another Event deck (option ``event_deck``: a
file path or the deck itself as a JSON object); :func:`check_event_deck` validates one.

This module never imports the board (the board's checker imports :func:`place_ids` lazily).
Cards are small ints in the state: their position in :data:`CROWN` / the event deck's tuple.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from roses.engine.codec import IdCodec

DATA = Path(__file__).with_name("data")
CROWN_FORMAT = "roses-kingmaker-crown/1"
EVENTS_FORMAT = "roses-kingmaker-events/1"

#: Rule levels: basic, first expansion, second expansion (the campaign rules' "(E1)", "(E2)").
LEVELS = ("basic", "e1", "e2")

# Crown card kinds (Crown Card Key).
NOBLE, PLANTAGENET, TITLE, OFFICE, BISHOP, SHIP, TOWN, ROYAL_CASTLE, MERCENARY, FRENCH_AID, PARDON = (
    "noble", "plantagenet", "title", "office", "bishop", "ship", "town", "royal_castle", "mercenary",
    "french_aid", "pardon")
CROWN_KINDS = (NOBLE, PLANTAGENET, TITLE, OFFICE, BISHOP, SHIP, TOWN, ROYAL_CASTLE, MERCENARY, FRENCH_AID, PARDON)

# Event card kinds (Event Card Key). PINK: cards with a combat-result half.
EVENT_KINDS = (
    "plague", "storms", "raid", "embassy", "parliament", "writ", "free_move", "mercs_home", "french_siege",
    "parliament_summoned", "treachery", "gales", "refuge", "vacillating", "catastrophe", "royal_death",
    "religious_diet", "heresy", "papal_diet", "excommunication", "royal_visit", "royal_hunt", "heir_escapes",
    "treaty", "merc_strife", "mutiny", "defeatism", "french_treachery", "war_in_europe", "scots_invasion",
    "assassination",
)
#: The rulebook's counts per level (Event Card Key); None where the rules print "-".
EVENT_COUNTS: dict[str, tuple[str, int | None]] = {
    "plague": ("basic", 17), "storms": ("basic", 10), "raid": ("basic", 23), "embassy": ("basic", 6),
    "parliament": ("basic", 4), "writ": ("basic", 10), "free_move": ("basic", 10), "mercs_home": ("basic", 3),
    "french_siege": ("basic", 1), "parliament_summoned": ("basic", 2),
    "treachery": ("e1", 3), "gales": ("e1", None), "refuge": ("e1", None), "vacillating": ("e1", None),
    "catastrophe": ("e1", None), "royal_death": ("e1", 1),
}
#: Counts of the rulebook's Crown Card Key (basic deck; E1 adds Scottish Foot, E2 Irish Kerns).
CROWN_COUNTS = {NOBLE: 23, TITLE: 8, OFFICE: 12, BISHOP: 6, SHIP: 4, TOWN: 10, ROYAL_CASTLE: 1,
                MERCENARY: 8, PLANTAGENET: 2, FRENCH_AID: 1, PARDON: 2}


@dataclass(frozen=True, slots=True)
class CrownCard:
    """One Crown card (every field a kind does not use keeps its default)."""

    id: str
    kind: str
    name: str
    level: str = "basic"
    troops: int = 0
    lords: int = 0
    commons: int = 0
    castles: tuple[str, ...] = ()
    title: str = ""           # a titled noble's printed title
    house: str = ""           # a Plantagenet card's house
    bonus_zone: str = ""      # regional bonus zone of an office or bishop
    bonus_troops: int = 0
    cathedral: str = ""       # a bishop's see
    archbishop: bool = False
    capacity: int = 0         # a ship's capacity
    port: str = ""            # a ship's home port
    place: str = ""           # a town card's place
    attack: int = 0           # a town card's E1 attack bonus
    group: str = ""           # a mercenary's band (go-home cards name bands)
    lies_in: str = ""         # E1/E2 mercenaries placed in an area when drawn
    ships: int = 0            # ships an office brings (Admiral, Warden)

    @property
    def titled(self) -> bool:
        return self.kind == PLANTAGENET or (self.kind == NOBLE and bool(self.title))

    @property
    def is_noble(self) -> bool:
        return self.kind in (NOBLE, PLANTAGENET)


@dataclass(frozen=True, slots=True)
class OfficeShip:
    id: str
    office: str
    name: str
    capacity: int
    port: str


@dataclass(frozen=True, slots=True)
class Heir:
    id: str
    name: str
    house: str
    rank: int
    start: tuple[tuple[int, int, str], ...]   # (low, high, place) on 1d6


@dataclass(frozen=True, slots=True)
class EventCard:
    """One Event card: its event and, for a card with a pink half, its combat result."""

    id: str
    kind: str
    level: str
    name: str = ""
    place: str = ""
    called: tuple[str, ...] = ()
    must: bool = False
    group: str = ""
    count: int = 0
    turns: int = 0
    rounds: int = 0
    ship: str = ""
    french: bool = False
    ireland: bool = False
    dublin: bool = False
    combat: bool = False                 # has a pink half
    ratio: tuple[int, int] | None = None
    bad_weather: bool = False
    killed: tuple[str, ...] = ()


@dataclass(frozen=True)
class CrownData:
    cards: tuple[CrownCard, ...]
    codec: IdCodec
    office_ships: tuple[OfficeShip, ...]
    heirs: tuple[Heir, ...]
    heir_codec: IdCodec

    def card(self, cid: str) -> CrownCard:
        return self.cards[self.codec.id(cid)]


@dataclass(frozen=True)
class EventDeck:
    key: str
    cards: tuple[EventCard, ...]
    codec: IdCodec


def _crown_card(d: dict[str, Any]) -> CrownCard:
    bonus = d.get("bonus") or {}
    return CrownCard(
        id=str(d["id"]), kind=str(d["kind"]), name=str(d.get("name", d["id"])), level=str(d.get("level", "basic")),
        troops=int(d.get("troops", 0)), lords=int(d.get("lords", 0)), commons=int(d.get("commons", 0)),
        castles=tuple(d.get("castles", ())), title=str(d.get("title", "")), house=str(d.get("house", "")),
        bonus_zone=str(bonus.get("zone", "")), bonus_troops=int(bonus.get("troops", 0)),
        cathedral=str(d.get("cathedral", "")), archbishop=bool(d.get("archbishop", False)),
        capacity=int(d.get("capacity", 0)), port=str(d.get("port", "")), place=str(d.get("place", "")),
        attack=int(d.get("attack", 0)), group=str(d.get("group", "")), lies_in=str(d.get("lies_in", "")),
        ships=int(d.get("ships", 0)),
    )


def _parse_start(start: dict[str, str]) -> tuple[tuple[int, int, str], ...]:
    out = []
    for rng, place in start.items():
        lo, _, hi = rng.partition("-")
        out.append((int(lo), int(hi or lo), place))
    return tuple(sorted(out))


@cache
def crown_data() -> CrownData:
    """The Crown deck, office ships and heirs (loaded once)."""
    raw = json.loads((DATA / "cards.json").read_text())
    if raw.get("format") != CROWN_FORMAT:
        raise ValueError(f"cards.json: format must be {CROWN_FORMAT!r}")
    cards = tuple(_crown_card(d) for d in raw["cards"])
    ships = tuple(OfficeShip(str(s["id"]), str(s["office"]), str(s["name"]), int(s["capacity"]), str(s["port"]))
                  for s in raw["office_ships"])
    heirs = tuple(Heir(str(h["id"]), str(h["name"]), str(h["house"]), int(h["rank"]), _parse_start(h["start"]))
                  for h in raw["heirs"])
    return CrownData(cards, IdCodec("crown card", [c.id for c in cards]), ships, heirs,
                     IdCodec("heir", [h.id for h in heirs]))


def _event_card(d: dict[str, Any]) -> EventCard:
    combat = d.get("combat")
    ratio = None
    if combat and combat.get("ratio"):
        a, b = combat["ratio"]
        ratio = (int(a), int(b))
    return EventCard(
        id=str(d["id"]), kind=str(d["kind"]), level=str(d.get("level", "basic")), name=str(d.get("name", "")),
        place=str(d.get("place", "")), called=tuple(str(x) for x in d.get("called", ())),
        must=bool(d.get("must", False)), group=str(d.get("group", "")), count=int(d.get("count", 0)),
        turns=int(d.get("turns", 0)), rounds=int(d.get("rounds", 0)), ship=str(d.get("ship", "")),
        french=bool(d.get("french", False)), ireland=bool(d.get("ireland", False)),
        dublin=bool(d.get("dublin", False)), combat=combat is not None,
        ratio=ratio, bad_weather=bool(combat and combat.get("bad_weather")),
        killed=tuple(str(x) for x in (combat or {}).get("killed", ())),
    )


def check_event_deck(data: Any) -> list[str]:
    """Faults of an Event deck (one message each; empty when valid)."""
    if not isinstance(data, dict):
        return ["the event deck must be a JSON object"]
    faults: list[str] = []
    if data.get("format") != EVENTS_FORMAT:
        faults.append(f"format must be {EVENTS_FORMAT!r}")
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        return faults + ["'cards' must be a non-empty list"]
    crown = crown_data()
    names = set(crown.codec.names)
    nobles = {c.id for c in crown.cards if c.is_noble}
    seen: set[str] = set()
    for i, d in enumerate(cards):
        where = f"card {i}"
        if not isinstance(d, dict):
            faults.append(f"{where}: not an object")
            continue
        cid = d.get("id")
        if not isinstance(cid, str) or not cid:
            faults.append(f"{where}: no id")
        elif cid in seen:
            faults.append(f"{where}: duplicate id {cid!r}")
        else:
            seen.add(cid)
            where = f"card {cid!r}"
        kind = d.get("kind")
        if kind not in EVENT_KINDS:
            faults.append(f"{where}: unknown kind {kind!r}")
        if d.get("level", "basic") not in LEVELS:
            faults.append(f"{where}: unknown level {d.get('level')!r}")
        if kind in ("plague", "raid", "embassy") and not d.get("place"):
            faults.append(f"{where}: a {kind} card names a place")
        for c in d.get("called", ()):
            if c not in names:
                faults.append(f"{where}: calls unknown card {c!r}")
        if kind == "mercs_home" and not any(c.group == d.get("group") for c in crown.cards):
            faults.append(f"{where}: unknown mercenary band {d.get('group')!r}")
        if kind == "mutiny" and d.get("ship") not in names:
            faults.append(f"{where}: unknown ship {d.get('ship')!r}")
        if kind == "refuge" and int(d.get("turns", 0)) < 1:
            faults.append(f"{where}: a Refuge card gives at least one turn")
        if kind == "treachery" and int(d.get("count", 0)) not in (1, 2, 3):
            faults.append(f"{where}: Treachery removes 1, 2 or 3 cards")
        combat = d.get("combat")
        if combat is not None:
            if not isinstance(combat, dict):
                faults.append(f"{where}: combat must be an object")
                continue
            ratio = combat.get("ratio")
            good = (isinstance(ratio, list) and len(ratio) == 2
                    and all(isinstance(x, int) and x > 0 for x in ratio) and ratio[0] >= ratio[1])
            if not combat.get("bad_weather") and not good:
                faults.append(f"{where}: combat ratio must be [larger, smaller], e.g. [3, 2]")
            for k in combat.get("killed", ()):
                if k not in nobles:
                    faults.append(f"{where}: killed list names unknown noble {k!r}")
    basic = [d for d in cards if isinstance(d, dict) and d.get("level", "basic") == "basic"]
    if not any(isinstance(d, dict) and d.get("combat") and not d["combat"].get("bad_weather") for d in basic):
        faults.append("the basic deck needs at least one combat result that is not Bad Weather")
    return faults


def _deck_from(data: dict[str, Any], key: str) -> EventDeck:
    faults = check_event_deck(data)
    if faults:
        raise ValueError("event deck: " + "; ".join(faults[:5]))
    cards = tuple(_event_card(d) for d in data["cards"])
    return EventDeck(key, cards, IdCodec("event card", [c.id for c in cards]))


@cache
def default_deck() -> EventDeck:
    return _deck_from(json.loads((DATA / "events-default.json").read_text()), "default")


_DECKS: dict[str, EventDeck] = {}


def deck_key(data: dict[str, Any]) -> str:
    return "sha256:" + hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def load_deck_option(option: Any) -> tuple[str, dict[str, Any] | None]:
    """The ``event_deck`` option as (key, data): the default deck is ``("default", None)``; a
    path or an inline deck is validated and its data kept (the state stores it)."""
    if option in (None, "", "default"):
        return "default", None
    if isinstance(option, str):
        data = json.loads(Path(option).read_text())
    elif isinstance(option, dict):
        data = option
    else:
        raise ValueError("event_deck must be a file path or a deck object")
    key = deck_key(data)
    if key not in _DECKS:
        _DECKS[key] = _deck_from(data, key)
    return key, data


def deck_for(key: str, data: dict[str, Any] | None) -> EventDeck:
    """The Event deck of a game (cached by key)."""
    if key == "default":
        return default_deck()
    deck = _DECKS.get(key)
    if deck is None:
        if data is None:
            raise ValueError(f"unknown event deck {key!r}")
        deck = _DECKS[key] = _deck_from(data, key)
    return deck


def place_ids() -> set[str]:
    """Every place id the default card data and Event deck name (the board must hold them)."""
    crown = crown_data()
    out: set[str] = set()
    for c in crown.cards:
        out.update(c.castles)
        for p in (c.port, c.place, c.cathedral):
            if p:
                out.add(p)
    out.update(s.port for s in crown.office_ships)
    for h in crown.heirs:
        out.update(p for _, _, p in h.start)
    for e in default_deck().cards:
        if e.place:
            out.add(e.place)
    out.update(EVENT_PLACES)
    return out


#: Places the rules' event texts name (Scots Invasion, Religious Diet, ...), beyond card data.
EVENT_PLACES = ("cockermouth", "alnwick", "chillingham", "raby", "bamburgh", "berwick", "carlisle", "durham",
                "newcastle", "salisbury", "wells", "st_davids", "rotherham", "douglas", "caernarvon",
                "beaumaris", "carisbrooke", "calais", "dublin")
