"""The Richard III state and its decision frames, typed (STATE.md describes the layout).

The stored keys are those of the recorded games (tests/richard3/corpus): a record replays
through this layout and its digests name these keys, so a few stay short. Their meaning:

* ``steps``: each block's current *strength* (its steps, 3.1), not the engine's decision steps;
* ``p1``: the side that is Player 1 this Game Turn (1.1);
* ``bc``: border crossings this turn, ``bc[side][border]`` (5.21 border limits);
* ``atk``: the side that attacked each area this turn, -1 if none (6.3);
* ``ent``: the borders each side entered each area through, ``ent[side][area]`` (6.3, 6.6).

The frames of the decision stack (:mod:`roses.engine.steps`), one kind per step or family
of steps, are the ``*Frame`` classes below.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class R3State(TypedDict):
    """A Richard III game (rules 1.02). Sides are 0 York, 1 Lancaster; ids as in STATE.md."""

    roles: list[str]
    log: list[Any]
    result: str | None
    reveals: int
    #: The seeded generator (roses.engine.rng), set by ``rng.seed_state`` after the rest.
    rng: NotRequired[int]
    rolls: NotRequired[int]
    rigged: NotRequired[list[int]]
    scenario: str
    campaign: int
    last_campaign: int
    turn: int
    #: The decision stack, bottom first (the frames below).
    stack: list[dict[str, Any]]
    #: The side on the throne; ``1 - king`` is the Pretender.
    king: int
    #: The King's block, -1 between his death and the next Supply Phase (6.81).
    king_block: int
    #: Henry VI in the Tower (Kingmaker scenario), or -1.
    prisoner: int
    #: Minor heirs each side must bring into play at the next Supply Phase (6.82).
    minors_owed: list[int]
    #: Where each block is: an area id or a special location (POOL, MINOR, OFF, DEAD, PRISON).
    loc: list[int]
    #: Each block's strength now (3.1): the stored key of the block strengths.
    steps: list[int]
    #: 1 for a block eliminated this campaign, face down in the pool (6.8).
    down: list[int]
    #: How each block moved this turn (common.Moved).
    moved: list[int]
    #: The border each block last crossed this turn, -1 if none.
    via: list[int]
    #: 1 for a block in Reserve in its battle area (6.3).
    reserve: list[int]
    #: The sea zones a block attacked across by Piracy this turn (a bit mask).
    pirate: list[int]
    #: ``known[side][block]``: the strength ``side`` last saw the enemy block at, 0 if unknown.
    known: NotRequired[list[list[int]]]
    #: Player 1 of this Game Turn (1.1): the stored key of the first player.
    p1: int
    hands: list[list[int]]
    deck: list[int]
    discard: list[int]
    #: The card each side played this turn, -1 until played (1.1).
    played: list[int]
    mulligan_used: list[int]
    #: The side that played each event card this turn, -1 if none.
    piracy: int
    treason: int
    surprise: int
    force_march: int
    #: Border crossings this turn, ``bc[side][border]`` (5.21): the stored key of the counts.
    bc: list[list[int]]
    #: The attacker of each area this turn, -1 if none (6.3): the stored key.
    atk: list[int]
    #: The Main Attack border of each battle area, -1 until declared (6.3).
    main: list[int]
    #: ``ent[side][area]``: the borders ``side`` entered ``area`` through this turn (6.3, 6.6).
    ent: list[list[list[int]]]
    #: The battle being fought (battle.py), or None.
    battle: BattleData | None
    #: The battles still to fight this Battle Phase, by area.
    battles: list[int]


class BattleData(TypedDict):
    """The battle being fought (``state["battle"]``, 6.x): its ``area``, the blocks ``revealed``
    to both sides, the ``round`` (1-4), the attacking side ``att`` now, the initiative
    ``letter`` of the group whose turn it is, the blocks that ``acted`` this round, the
    treachery rollers ``used`` and the blocks that ``defected`` (6.9), the border crossings
    ``rc`` of retreats this round (6.6, 6.7), the hits ``pend``-ing a tie choice (6.4) and the
    ``last`` roll, for the view (battle.py's docstring details each)."""

    area: int
    revealed: list[int]
    round: int
    att: int
    letter: str
    acted: list[int]
    used: list[str]
    defected: list[int]
    rc: list[int]
    pend: int
    last: dict[str, Any] | None


class MulliganFrame(TypedDict):
    """Both players answer the mulligan question at once (5.1): ``mull[side]`` is -1 until
    that side answers, then 1 for a redeal request and 0 to keep."""

    step: str
    mull: list[int]


class MulliganReplyFrame(TypedDict):
    """The opponent of the side that asked for a redeal (``req``) answers (5.1)."""

    step: str
    req: int


class CardFrame(TypedDict):
    """Both players lay a card at once (1.1); the cards are in the state's ``played``."""

    step: str


class ActionFrame(TypedDict):
    """A side's Action Phase (5.x), the bottom of the stack while it lasts. ``step`` is where
    the phase stands: ``main`` (spend the card's action points ``ap`` or end), ``plague``,
    ``muster_area`` and ``muster`` (the Muster event, its area ``target``), ``declared``
    (the Main Attack declarations pushed on top are made, then the phase ends). ``pairs``
    are the port pairs of a free return sea move (5.31), ``moves`` the paths of the group
    moving now, for the log. A move's own decisions are frames pushed on top of it."""

    step: str
    side: int
    ap: int
    event: str
    target: int
    pairs: list[list[int]]
    moves: list[list[int]]


class GroupFrame(TypedDict):
    """Moving the land group in ``area`` (5.2): pick its blocks one by one, or end it."""

    step: str
    side: int
    area: int


class PathFrame(TypedDict):
    """Moving ``block`` area by area along ``path`` (its start first) (5.2, 5.21, 5.22)."""

    step: str
    side: int
    block: int
    path: list[int]


class PickedFrame(TypedDict):
    """Where ``block`` goes: the landing area of a sea move (``sea``, 5.3) or the area a
    recruit deploys to (``recruit``, 5.4)."""

    step: str
    side: int
    block: int


class DeclareFrame(TypedDict):
    """Declare the Main Attack border into ``area`` (6.3, ruling A1)."""

    step: str
    side: int
    area: int


class BattlesFrame(TypedDict):
    """The Battle Phase: Player 1 picks the next battle (C13); ``fighting`` while a battle
    pushed on top of this frame is being fought."""

    step: str
    fighting: bool


class BattleFrame(TypedDict):
    """The decision of a battle now (the battle's data is ``state["battle"]``): ``step`` is
    ``treason`` (the Treason card roll before round 1, C135), ``turn`` (a group's battle turns,
    6.2), ``hits`` (the owner picks among tied blocks, 6.4) or ``regroup`` (the victor, 6.7);
    ``side`` decides it."""

    step: str
    side: int


class SupplyFrame(TypedDict):
    """The Supply Phase: ``stage`` is the next stage to queue (6.81, 6.82, 9.1, 7.x);
    ``marked`` the blocks that already lost a supply step this phase."""

    step: str
    stage: int
    marked: list[int]


class PoliticalFrame(TypedDict):
    """The Political Turn: ``stage`` is the next stage (8.1-8.5)."""

    step: str
    stage: int


class Decision(TypedDict):
    """A Supply or Political decision of ``side``, decided by itself when there is no real
    choice. ``step`` is its kind and ``subj`` what it is about: ``enter`` a minor heir
    (``subj`` the heir, or -1 for the senior minor; ``n`` 1 when he enters as the new King),
    ``execute`` a defector (``subj`` the block), ``reduce`` supply losses in area ``subj``
    (``n`` left), ``home`` for block ``subj``, ``disband`` exiles from area ``subj`` (``n``
    left). ``ask`` is set while the side is asked (a real choice; the engine's Choice)."""

    step: str
    side: int
    subj: int
    n: int
    ask: bool
