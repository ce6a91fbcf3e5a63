"""The typed records of a Plantagenet state: what the plain JSON dicts built by :mod:`setup` hold.

The state stays plain JSON (the engine copies, hashes and stores it); these types name its
parts for the type checker and the reader, and the constant classes name the codes stored in
it (``Where.MAP`` is the plain string ``"map"``: the state holds strings, never enum objects).
:class:`PlantagenetState` is the whole state; each kind of frame on its decision stack has its
type in :data:`FRAME_TYPES`, by step name. ``tests/plantagenet/test_records.py`` checks, on
recorded games of every scenario, that every state and frame is what its type says.
"""

from collections.abc import Mapping
from typing import Any, Final, NotRequired, TypedDict, cast


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


# ----- the Battle and the Wars of the Roses ----------------------------------------------------
class BattleLord(TypedDict):
    """``state["battle"]["lords"][lord]``: a Lord in the Battle (4.4)."""

    side: str
    valour: int  # Valour markers left (4.4.1 VALOUR)
    routed: bool
    fled: bool
    retinue_routed: bool
    vassals_routed: list[str]


class Strike(TypedDict):
    """``state["battle"]["strike"]``: the Strike being resolved (4.4.2)."""

    engagement: int
    kind: str  # "archery" or "melee"
    hits: dict[str, int]  # by the side that takes them


class BattleRecord(TypedDict):
    """``state["battle"]``: the Battle being fought (4.4), all public (1.5.3). Array positions
    0, 1, 2 are the Defender's left, center and right and face the same index of the Attacker."""

    locale: str | None  # None On Bosworth Field
    attacker: str
    defender: str
    round: int
    front: dict[str, list[str | None]]  # by side: the Lord at each of the three positions
    reserve: dict[str, list[str]]
    lords: dict[str, BattleLord]
    late: str | None  # the Lord who is Late (Ib: Norfolk)
    links: dict[str, Any]
    engagements: list[list[Any]]
    order: list[int]
    struck: int
    strike: Strike | None
    winner: str | None
    checked: list[str]
    dead: list[str]
    events: list[str]
    bosworth: bool
    # Arts of War in this Battle (cards.py)
    temp: dict[str, dict[str, int]]  # Troops a Capability added for this Battle, by Lord
    piquiers: dict[str, Any]
    culverins: list[str]
    caltrops: dict[str, int]  # Caltrops' Hits by Engagement
    regroup: list[str]
    ravine: str | None
    vanguard: bool
    final_charge: int | None
    fc_asked: Any
    bloody: bool


class HeirRemoved(TypedDict):
    """An Heir removed in the Wars of the Roses (6.2.2 REMOVE)."""

    side: str
    rank: int
    lord: str | None  # the Lord card of the Heir, if one was in play
    war: str
    by: str


class WarsRecord(TypedDict):
    """``state["wars"]``: the record of the Wars of the Roses (6.1-6.3; :mod:`.wars`)."""

    winners: dict[str, str]  # by War ("I", "II", "III"): its winner (6.1.2)
    removed: list[HeirRemoved]
    heir_lords: dict[str, int]  # the Heirs of this War not removed, and their ranks
    war_heirs: dict[str, list[int]]  # by side: the ranks of its Heirs in this War
    designated: list[str]  # sides whose Warwick is an Heir (6.2.1, War III)
    pending: list[Any]  # Heirs removed whose Succession waits (RULINGS R61)
    cards: dict[str, list[str]]  # by side: the cards the Heirs brought
    y28: bool  # Event Y28 resolved in the second War (6.3 IIY/IIL)


# ----- the whole state ------------------------------------------------------------------------
class PlantagenetState(TypedDict):
    """A Plantagenet state: what :func:`.setup.setup_state` builds and the steps change."""

    game: str  # "plantagenet"
    scenario: str
    options: dict[str, bool]  # setup.OPTIONS_SCHEMA
    roles: list[str]  # ["York", "Lancaster"]
    king: str  # the side of the King (2.2.4); the other is the Rebel
    rebel: str
    first_box: int | None  # the scenario's Calendar boxes (None On Bosworth Field)
    last_box: int | None
    box: int | None  # the Turn being played (2.2.3)
    first_turn: bool
    influence: int  # the net Influence track: York's lead, negative for Lancaster's (1.4.1)
    favour: dict[str, str]  # Stronghold: the side whose Favour marker is there (1.3.1)
    london_for_york: bool
    cards: dict[str, Any]  # Arts of War effects' bookkeeping (cards.py)
    exhaustion: dict[str, str]  # Locale: "depleted" or "exhausted" (4.8.4)
    exile_boxes: dict[str, str]  # Exile box: the side it is Friendly to (1.3.1)
    allied_networks: dict[str, str] | None  # Lord: his Exile box (Ia, I: Allied Networks)
    seats: dict[str, str]  # Lord: his Seat's Locale while it stands (1.5.1)
    lords: dict[str, LordRecord]
    vassals: dict[str, VassalRecord]
    special_vassals: dict[str, str | None]  # Special Vassal: the Lord whose mat holds him (1.5.4)
    aow: dict[str, AowZones]  # by side
    command: dict[str, CommandZones]  # by side
    special_rules: list[str]  # the scenario's special rules (6.0)
    war: str | None  # the Wars of the Roses: the War being fought ("I", "II"...)
    wars: WarsRecord | None
    heirs_removed: list[str]
    moved: list[str]  # Lords marked Moved/Fought (4.3, 4.4.4), sorted
    battle: BattleRecord | None
    captured: dict[str, str]  # Capture of the King (Ia): held Lord: the Enemy Lord holding him
    norfolk_late_used: bool  # Norfolk is Late (Ib): only in his first Battle
    result: str | None
    log: list[Any]  # roses.engine.log entries
    rng: int  # the seeded generator (roses.engine.rng)
    rolls: int
    rigged: list[int]
    reveals: NotRequired[int]  # set at the first reveal (roses.engine.contract)
    stack: list[dict[str, Any]]  # the decision stack, bottom first; each frame one of FRAME_TYPES


def typed(state: Mapping[str, Any]) -> PlantagenetState:
    """``state`` as the type checker should read it (the same object: no copy, no check; the
    engine passes states as plain dicts)."""
    return cast(PlantagenetState, state)


# ----- the frames of the decision stack, by step -----------------------------------------------
class StepFrame(TypedDict):
    """A frame that holds only its step's name (``calendar``, ``begin_campaign``, ``end_levy``,
    ``grow``, ``waste``, ``victory_check``, ``ready_vassals``, ``skip_pay``)."""

    step: str


class SideFrame(TypedDict):
    """A frame of one side's decision with nothing more to keep (``exiles``, Pay Lords and Pay
    Vassals, ``discard_held`` and the Battle's ``flee``, ``center``, ``order``, ``array``, ``advance``,
    ``death``)."""

    step: str
    side: str
    ask: NotRequired[bool]  # a Battle decision (battle.SideDecision, the engine's Choice) asks the side


class ResetFrame(TypedDict):
    step: str
    held: NotRequired[bool]  # 4.8.5: the Held Events' discard was asked


class TidesFrame(TypedDict):
    step: str
    asked: NotRequired[bool]


class DisembarkFrame(TypedDict):
    step: str
    todo: NotRequired[list[str]]  # the Lords at Sea still to land (4.8.2)


class ArtsOfWarFrame(TypedDict):
    """3.1: a side draws and resolves its Arts of War cards."""

    step: str
    side: str
    drawn: NotRequired[bool]  # set once the cards are drawn


class MusterFrame(TypedDict):
    """3.4: a side's Muster; queued with its side only, the rest set when it begins."""

    step: str
    side: str
    lords: NotRequired[list[str] | None]  # the Lords still to take their Levy actions
    lord: NotRequired[str | None]  # the Lord acting now
    left: NotRequired[int]  # his Lordship actions left (3.4.1)
    acted: NotRequired[bool]
    free: NotRequired[dict[str, Any]]  # free Levy actions from cards


class PlaceLordFrame(TypedDict):
    """3.4.1 Levy Lord: where the new Lord's cylinder goes."""

    step: str
    side: str
    lord: str
    at: list[str]


class PlanFrame(TypedDict):
    """4.1: both sides build their Plans at once, in secret (4.1.2)."""

    step: str
    drafts: dict[str, list[str]]  # by side: its Plan so far, top first
    locked: list[str]  # the sides that have locked in
    limits: NotRequired[dict[str, list[int]]]  # by side: cards wanted and Pass cards allowed


class CommandFrame(TypedDict):
    """4.2: the Command cards revealed in turn, Rebel first."""

    step: str
    next: str  # the side whose card is revealed next
    feed: int
    started: bool


class ActionsFrame(TypedDict):
    """4.2-4.3: the Actions of the Lord a Command card activated."""

    step: str
    side: str
    lord: str
    left: int  # Command actions left
    used: int
    highway: NotRequired[dict[str, Any] | None]  # a second Highway March for free (4.3.1)


class BoostFrame(TypedDict):
    """A Campaign action with a choice to make (Heralds, Merchants, Tax, Parley)."""

    step: str
    side: str
    lord: str
    action: str
    target: Any


# 4.3.1, 4.3.6, 4.6: the Lords going along on a March, Sail or Intercept.
GroupFrame = TypedDict("GroupFrame", {
    "step": str, "kind": str, "side": str, "lord": str, "dest": str, "way": NotRequired[str],
    "cost": NotRequired[int], "cands": list[str], "with": list[str], "back": NotRequired[dict[str, Any]],
    "flank": NotRequired[Any], "marchers": NotRequired[list[str]], "locale": NotRequired[str],
})

# A March or Sail under way (4.3, 4.6).
MoveFrame = TypedDict("MoveFrame", {
    "step": str, "kind": str, "side": str, "lords": list[str], "from": str, "dest": str,
    "way": NotRequired[str | None], "cost": NotRequired[int], "chained": NotRequired[bool],
})


class DiscardFrame(TypedDict):
    """Assets over what the moving Lords may carry (4.3.3, 4.6.2)."""

    step: str
    side: str
    lords: list[str]
    asset: str
    excess: int
    why: str


# Lords arriving at a Locale: Intercept, Approach, Battle checks (4.3.4-4.3.5).
ArriveFrame = TypedDict("ArriveFrame", {
    "step": str, "side": str, "locale": str, "lords": list[str], "checked": bool, "from": str,
})


class InterceptFrame(TypedDict):
    """4.3.4: the Lords that may Intercept a March."""

    step: str
    side: str
    locale: str
    cands: list[str]
    marchers: list[str]


class InterceptRollFrame(TypedDict):
    step: str
    side: str
    lords: list[str]
    dest: str
    flank: bool


class LandFrame(TypedDict):
    """4.8.2 Disembark: the Port a Lord at Sea lands at."""

    step: str
    side: str
    lord: str
    ports: list[str]


class UpkeepFrame(TypedDict):
    """3.2.1 Pay of Troops and 4.7 Feed (upkeep.py): what each Lord still owes, once the
    automatic part has run; a Feed may name the Lords it Feeds (4.8.2 Disembark)."""

    step: str
    side: str
    owed: NotRequired[dict[str, int] | None]
    lords: NotRequired[list[str]]


# 4.3.5: Enemy Lords Approached choose Exile or Battle; then the Battle's driver.
ApproachFrame = TypedDict("ApproachFrame", {
    "step": str, "locale": str, "attacker": str, "attackers": list[str], "from": NotRequired[str],
    "card": NotRequired[dict[str, Any]], "windows": NotRequired[bool], "stand": NotRequired[list[str]],
    "battle_attacker": NotRequired[str],
})


class BattleFrame(TypedDict):
    """The automatic driver of one Battle (4.4): ``stage`` names where it is."""

    step: str
    stage: str
    regrouped: NotRequired[bool]


class BattleEventFrame(TypedDict):
    step: str
    side: str
    window: str


class HitsFrame(TypedDict):
    """4.4.2: a side assigns its Hits one at a time."""

    step: str
    side: str
    lords: list[str]
    left: int
    kind: str
    only: NotRequired[str]  # Y32 Final Charge: Richard III's Retinue only
    ask: NotRequired[bool]  # a Battle decision (battle.SideDecision, the engine's Choice) asks the side


class ValourFrame(TypedDict):
    step: str
    side: str
    lord: str
    unit: str
    kind: str
    rerolled: NotRequired[bool]


class FlankFrame(TypedDict):
    step: str
    side: str
    lord: str
    targets: list[Any]
    ask: NotRequired[bool]  # a Battle decision (battle.SideDecision, the engine's Choice) asks the side


class SpoilsFrame(TypedDict):
    """4.4.3 Spoils: how the winners share the Carts and Provender taken."""

    step: str
    side: str
    to: list[str]
    carts: int
    provender: int
    ask: NotRequired[bool]  # a Battle decision (battle.SideDecision, the engine's Choice) asks the side


class CaptureFrame(TypedDict):
    """Capture of the King (Ia)."""

    step: str
    side: str
    king: str
    ask: NotRequired[bool]  # a Battle decision (battle.SideDecision, the engine's Choice) asks the side


class BosworthFrame(TypedDict):
    """6.0 III(B): both sides choose Capabilities and Array in secret, then lock in."""

    step: str
    picks: dict[str, list[Any]]
    front: dict[str, dict[str, Any]]
    locked: list[str]


class CardPickFrame(TypedDict):
    """A decision an Event or Capability asks for (cards.py): ``kind`` names it; the other keys
    are that kind's."""

    step: str
    kind: str
    side: str
    card: str
    lord: NotRequired[str]
    half: NotRequired[str]
    done: NotRequired[list[Any]]
    lords: NotRequired[list[str]]
    chosen: NotRequired[list[Any]]
    todo: NotRequired[Any]
    left: NotRequired[int]
    index: NotRequired[int]
    snap: NotRequired[Any]


class ReactFrame(TypedDict):
    """A window where a side may play a reaction card (reactions.py); the other keys are the
    window's context."""

    step: str
    side: str
    window: str
    locale: NotRequired[str]
    lords: NotRequired[list[str]]


#: The type of each kind of frame, by step name.
FRAME_TYPES: dict[str, type] = {
    **dict.fromkeys(("calendar", "begin_campaign", "end_levy", "grow", "waste", "victory_check",
                     "ready_vassals", "skip_pay"), StepFrame),
    **dict.fromkeys(("exiles", "pay_lords", "pay_vassals", "discard_held", "flee", "center",
                     "order", "array", "advance", "death"), SideFrame),
    "reset": ResetFrame, "tides_of_war": TidesFrame, "disembark": DisembarkFrame,
    "arts_of_war": ArtsOfWarFrame, "muster": MusterFrame, "place_lord": PlaceLordFrame,
    "plan": PlanFrame, "command": CommandFrame, "actions": ActionsFrame, "boost": BoostFrame,
    "group": GroupFrame, "move": MoveFrame, "discard": DiscardFrame, "arrive": ArriveFrame,
    "intercept": InterceptFrame, "intercept_roll": InterceptRollFrame, "land": LandFrame, "feed": UpkeepFrame, "pay_troops": UpkeepFrame,
    "approach": ApproachFrame, "battle": BattleFrame, "battle_event": BattleEventFrame, "hits": HitsFrame,
    "valour": ValourFrame, "flank": FlankFrame, "spoils": SpoilsFrame, "capture": CaptureFrame,
    "bosworth": BosworthFrame, "card_pick": CardPickFrame, "react": ReactFrame,
}
