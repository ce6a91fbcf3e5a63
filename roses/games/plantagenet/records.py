"""The typed records of a Plantagenet state: what the plain JSON dicts built by :mod:`setup` hold.

The state stays plain JSON (the engine copies, hashes and stores it); these types name its
parts for the type checker and the reader, and the constant classes name the codes stored in
it (``Where.MAP`` is the plain string ``"map"``: the state holds strings, never enum objects).
"""

from __future__ import annotations

from typing import Final, TypedDict


class Where:
    """Where a Lord's cylinder is (1.3.1, 1.5.1, 2.2.2)."""

    MAP: Final = "map"            # at a Stronghold or in an Exile box ("on the map", 1.3.1)
    CALENDAR: Final = "calendar"  # on the Calendar (Disbanded, or not yet arrived), box in ``box``
    BATTLE: Final = "battle"      # On Bosworth Field: in the Battle, at no Locale
    UNUSED: Final = "unused"      # a Lord card of the scenario not yet in play (arrives by 6.2.2 ADD/REPLACE)
    REMOVED: Final = "removed"    # Death or Shipwreck (4.4.3, 4.8.2), or a special rule
    SEA: Final = "sea"            # at Sea during a Campaign (4.6.1, 4.8.2), the Sea in ``locale``
    HELD: Final = "held"          # Capture of the King (Ia): on an Enemy Lord's mat (``state["captured"]``)
    ALL: Final = (MAP, CALENDAR, BATTLE, UNUSED, REMOVED, SEA, HELD)


#: Lords whose Command cards are in the game (6.2.2 ADD; RULINGS R17).
IN_PLAY = (Where.MAP, Where.CALENDAR, Where.BATTLE, Where.SEA, Where.HELD)


class VassalWhere:
    """Where a Vassal's counters are (1.5.4, 3.2.4, 3.3.2)."""

    SEAT: Final = "seat"
    MAT: Final = "mat"
    CALENDAR: Final = "calendar"
    OUT: Final = "out"  # not in this scenario
    ALL: Final = (SEAT, MAT, CALENDAR, OUT)


class Mat(TypedDict):
    """A Mustered Lord's mat (1.5.3)."""

    troops: dict[str, int]
    routed: dict[str, int]
    assets: dict[str, int]
    vassals: list[str]
    special_vassals: list[str]
    capabilities: list[str]
    events: list[str]


class LordRecord(TypedDict):
    """``state["lords"][lord]``: his cylinder and, while Mustered, his mat."""

    where: str  # one of Where.ALL
    locale: str | None
    box: int | None
    exile: bool
    mat: Mat | None


class VassalRecord(TypedDict):
    """``state["vassals"][vassal]``."""

    where: str  # one of VassalWhere.ALL
    lord: str | None
    box: int | None
    face_up: bool


class CommandZones(TypedDict):
    """``state["command"][side]``: the side's Command cards in the game (1.9.2, 4.1)."""

    deck: list[str]
    plan: list[str]
    revealed: list[str]


class AowZones(TypedDict):
    """``state["aow"][side]``: Arts of War cards (1.9.1); ``in_game`` lists every card of the
    side in play, for the conservation invariant."""

    deck: list[str]
    drawn: list[str]  # drawn this Levy, not yet resolved (3.1.2-3.1.3); hidden from the other side
    held: list[str]
    in_effect: list[str]
    set_aside: list[str]
    in_game: list[str]


def new_lord_record() -> LordRecord:
    return {"where": Where.UNUSED, "locale": None, "box": None, "exile": False, "mat": None}


def put_lord(rec: LordRecord, where: str, *, locale: str | None = None, box: int | None = None,
             exile: bool = False, mat: Mat | None = None) -> None:
    """Set every field of a Lord's record at once (what is not given is cleared)."""
    rec["where"], rec["locale"], rec["box"], rec["exile"], rec["mat"] = where, locale, box, exile, mat
