"""Kingmaker: the typed record of a campaign's state, one part per concern.

The state is one JSON dict (``roses.engine.contract.State``); its keys are short because every
position is stored and sent, and recorded games read them, so they are never renamed. This
module says what each key holds, as one ``TypedDict`` per part of the state; ``KingmakerState``
joins them. ``setup.new_state`` builds a ``KingmakerState`` (so mypy checks every key and
its type there) and ``tests/kingmaker/test_state.py`` checks that a new campaign has exactly
these keys plus the optional ones. Code that wants the types reads ``typed(state)``.

Indices: Crown cards ``c`` (nobles are Crown cards too, ``n``), Event cards ``e``, heirs ``h``
and ships ``s`` are ints (the codecs of ``common.World`` and ``cards.EventDeck``); players
``p`` are ints in seat order (-1: nobody); squares and places are the board's string ids.
A "turn number" is ``tno``, which counts every player's turn from the start of play.
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from roses.engine.contract import State


class Envelope(TypedDict):
    """What every game's state holds (``roses.engine``): seats, log, result, decisions, options."""

    roles: list[str]            # "P1".. in seat order
    log: list[list[str]]        # [audience, text, kind]; audience "" is public
    result: str | None          # the winner's role, "Draw", or None while the campaign runs
    end: str | None             # how it ended: "last_heir_crowned", "beaufort_crowned", "parliament",
                                # "round_limit", "umpire" (the fuzzer's milestones)
    stack: list[dict[str, Any]]  # the decision frames, top last (``roses.engine.steps``)
    opts: dict[str, Any]        # the campaign's options (``setup.OPTIONS_SCHEMA``), less the Event deck
    rng: int                    # the seeded generator (``roses.engine.rng``)
    rolls: int
    rigged: list[int]


class Setting(TypedDict):
    """The rules level and the data the campaign was set up with."""

    level: int                  # 0 basic, 1 first expansion (E1), 2 second expansion (E2)
    board: str | None           # the board (docs/kingmaker/board.md): None for the open board, a
                                # file's path, or "upload:" + hash for a board given as data
    board_data: Any             # that board's data when it was given as data (else None)
    deck_key: str               # the Event deck's identity (``cards.load_deck_option``)
    deck_data: Any              # the Event deck itself when it is not the shipped one


class Clock(TypedDict):
    """Sequence of Play: rounds of turns in a fixed order."""

    round: int                  # 0 during setup, then 1, 2, ...
    tno: int                    # the current turn's number (counts every turn of every player)
    rstart: int                 # the turn number the current round began with
    order: list[int]            # the players in turn order
    turn: int                   # index into ``order`` of the player whose turn it is


class CrownCards(TypedDict):
    """The Crown cards (Game Definitions: Crown and Event Deck; Chancery)."""

    cz: list[int]               # cz[c]: zone of card c (``common.Z_*``: deck, discard, Chancery, hand,
                                # noble in play, award, faction asset, lying in an area, removed, aside)
    ch: list[int]               # ch[c]: its holder: a player (hand, noble in play, asset), a noble card
                                # (award), -1 otherwise
    cdeck: list[int]            # the Crown deck, top last
    cdisc: list[int]            # the Crown discard
    chancery: list[int]         # Chancery, face down
    tdisc: list[int]            # E1 Treachery: cards discarded face down (nobody learns which)
    new_awards: list[int]       # cards awarded in the Parliament now sitting: they do not vote in it
    traded: list[int]           # cards traded this turn: not given to a noble who fought in it
    fresh: list[int]            # transferables moved this turn: they do not count in its combats


class EventCards(TypedDict):
    """The Event cards (Game Definitions; Chance Phase)."""

    ez: list[int]               # ez[e]: zone (``common.E_*``: deck, discard, hand, in use, removed)
    eh: list[int]               # eh[e]: the player holding it (hand, in use), -1 otherwise
    edeck: list[int]            # the Event deck, top last
    edisc: list[int]            # the Event discard


class Nobles(TypedDict):
    """Noble counters, indexed by their Crown card (Movement Phase; Combat Phase)."""

    nsq: list[str | None]       # nsq[n]: square (None off the board or at sea)
    nin: list[str | None]       # nin[n]: the place he is inside (None: in the open)
    nship: list[int]            # nship[n]: the ship he is aboard (-1: none)
    ncap: list[int]             # ncap[n]: his captor (-1: free)
    nmv: list[int]              # nmv[n]: turn number of his last move
    nact: list[int]             # nact[n]: turn number of his last move or attack (one turn a round)
    nvac: list[int]             # nvac[n]: turn number in which Vacillating Allegiance held him (E1)
    nfo: list[int]              # nfo[n]: turn number in which he last fought as an attacker


class Heirs(TypedDict):
    """Royal heir counters (Royal Heir Counters; Capture of Royal Heirs; Coronation Phase)."""

    hsq: list[str | None]       # hsq[h]: square when alone (not escorted)
    hin: list[str | None]       # hin[h]: place he is inside when alone
    hship: list[int]            # hship[h]: ship he is aboard when alone (-1)
    hesc: list[int]             # hesc[h]: the noble escorting (capturing) him, -1: not captured;
                                # an escorted heir is wherever his escort is
    hdead: list[bool]
    hcrown: list[bool]          # crowned King (or Queen Regent)
    beaufort_crowned: bool
    supported: int | None       # the King Parliament supports as sole King (-2: Beaufort)
    both_since: list[int]       # both_since[p]: round since p holds heirs of both houses (-1)


class Ships(TypedDict):
    """Ship counters (Ship Counters; Sea Transportation; E1 Sea Battles and Blockade)."""

    spos: list[str | None]      # spos[s]: a sea square, a port's place id, or None off the board
    sctl: list[int]             # sctl[s]: a player keeping control until she next touches port (-1)
    smv: list[int]              # smv[s]: turn number of her last move
    sfought: list[int]          # ships that fought a sea battle this turn
    sail_leave: list[str]       # ships given leave to sail out of an unfriendly port this turn
    sail_denied: list[str]      # ships refused that leave this turn
    lent: dict[str, list[int]]  # ship id -> [lender, borrower] (Transfers: lending ships)
    blockades: dict[str, str]   # ship id -> the port she blockades (E1)


class Places(TypedDict):
    """Towns, cities and castles (Town, Cities, and Castles; Siege)."""

    pown: dict[str, int]        # place -> the player who captured it (-1: neutral by loss),
                                # overriding the control its card gives
    siege: dict[str, int]       # place -> the player besieging it ("under siege")
    guests: dict[str, list[int]]  # place -> players its owner let in (they may not attack it)
    obliged: list[list[str]]    # ["siege", place] / ["sea", square]: fights owed this combat phase


class Factions(TypedDict):
    """Alliances, peace and what binds a faction for a while."""

    ally: list[list[int]]       # ally[p][q]: 1 if allied (Alliances)
    truce: list[list[int]]      # [p, q, last turn number]: the round of peace after an alliance ends
    command: dict[str, int]     # noble (as str) -> the allied commander he serves under
    peace: list[list[Any]]      # [square, player]: a King's peace there until that player's next turn
    defended: list[int]         # nobles who have defended this turn (a force defends once a turn)
    freed: list[int]            # nobles and ships given a Free Move this turn


class Expansions(TypedDict):
    """State of the E1 and E2 rules and events."""

    catastrophe: int            # E1 Catastrophe: turns left in which awards give no troops
    refuges: list[dict[str, Any]]  # E1 Refuge cards in use: {"e", "p", "area", "used"}
    raiders: list[list[Any]]    # [noble, area, turn number]: in a refuge without a card (must leave)
    booty: dict[str, list[int]]  # E1 Booty and ransom draws: player (as str) -> claimants of his draws
    treaty: int                 # E2 Treaty with France: the faction holding it (-1: none)
    scots_tried: bool           # E2 Scots Invasion drawn before (its "first try" is over)
    excommunicated: list[int]   # E2 Excommunication: excommunicated factions
    defeatism: dict[str, int]   # E2 Defeatism Rife: player (as str) -> own turns left
    rogue: dict[str, Any] | None  # E2 French Treachery: {"place", "employer"} while the town is sacked


class Optional(TypedDict, total=False):
    """Keys a campaign gains only when something happens."""

    calais_lost: bool          # French Siege: Calais lost for good
    lost_ships: list[int]      # E1 Gales: office ships sunk (Parliament may restore)
    scuttled: dict[str, bool]  # read when an office is awarded; scuttled ships now join lost_ships
    standing: dict[str, dict[str, Any]]  # standing orders by role (orders.py)
    offers: list[dict[str, Any]]         # negotiated exchanges pending (offers.py)
    offer_seq: int
    reveals: int               # count of private reveals between two players
    rulings: list[list[Any]]   # the umpire's rulings: [round, text] (umpire.py)
    refused: list[list[Any]]   # requests refused in this turn: [turn number, asker, key, stamp] (stalling.py)
    corrections: list[dict[str, Any]]  # the umpire's corrections with what each changed (corrections.py)
    last_orders: dict[str, dict[str, Any]]  # with an umpire: each player's last order's changes (corrections.py)


class KingmakerState(Envelope, Setting, Clock, CrownCards, EventCards, Nobles, Heirs, Ships, Places, Factions,
                     Expansions, Optional):
    """A whole Kingmaker campaign."""


#: The keys a new campaign has (every part but ``Optional``).
REQUIRED_KEYS = frozenset(KingmakerState.__required_keys__)
#: The keys a campaign may gain later.
OPTIONAL_KEYS = frozenset(KingmakerState.__optional_keys__)


def typed(state: State) -> KingmakerState:
    """The same state, seen through its typed record."""
    return cast(KingmakerState, state)
