"""The Battle Phase and its battles (rules 1.02, section 6 with 2.2-2.6, 3.1x, 5.22, 5.3,
Piracy, Treason).

The Battle Phase (:class:`Battles`, C13) fights the battles one by one: :func:`start_battle`
pushes a :class:`~roses.games.richard3.state.BattleFrame` on the decision stack
(:mod:`roses.engine.steps`); the battle's steps (:data:`STEPS`: ``treason``, ``turn``,
``hits``, ``regroup``) each say who acts, the options, the prompt, the labels, the rule a
refused action meets and what each verb does (``on_<verb>``). The battle's next decision
replaces its frame (:func:`_decide`). When the battle and the victor's regroup are over this
module pops its frame and sets ``state["battle"] = None``; the Battle Phase frame below
resumes. :func:`view_part` and :func:`secrets_part` serve the views.

Battle state (``state["battle"]``, a small JSON dict)
    ``area``      the battle area (int)
    ``revealed``  block ids revealed to both players during this battle (never shrinks while
                  the battle lasts; core's secrets() and the AI read it)
    ``round``     1..4 (6.2)
    ``att``       attacking side now (0/1); it flips when control changes in round 1 (6.3)
    ``letter``    the initiative letter of the current group (6.2)
    ``acted``     block ids that had their battle turn this round
    ``used``      treachery rollers used this battle: "king", "pretender", "warwick" (6.9)
    ``defected``  block ids that defected during this battle (cannot be rolled back, 6.9)
    ``rc``        border crossings by retreat this round (or by regroup), one entry
                  ``side * N_BORDERS + border`` per block that crossed (6.6, 6.7)
    ``pend``      hits still to apply while the owner picks among tied blocks (6.4)
    ``last``      the last roll, for the view: {"what" (fire/charge/treachery), "block", "dice",
                  "fp", "hits", "target", "damage": [[key, hits taken, eliminated], ...],
                  charges also "reply", "reply_fp", "reply_hits"; treachery "defected"}

Unjoined Reserves are never named in the battle dict: they are the blocks in the area whose
``state["reserve"]`` flag is not 0 (core sets it, 6.3; defectors get it here, 6.9). So the
battle dict holds only ids both players know.

Action verbs (blocks by key, areas by name)
    ``fire`` key, ``pass`` key, ``retreat`` [key, area], ``charge`` [heir key, target key],
    ``treachery`` [roller key, target key]      a block's battle turn (6.2, 6.5, 6.6, 6.9)
    ``hit`` key                                  the tied block that takes the hits (6.4)
    ``treason`` target key / ``keep_treason``    Treason card roll before round 1, or keep it
    ``regroup`` [key, area] / ``end_regroup``    the victor's regroup (6.7)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from roses.engine import rng, steps
from roses.engine.contract import Action, State, mark_reveal
from roses.engine.errors import IllegalAction
from roses.engine.log import BATTLE, public
from roses.engine.steps import Frame, Step
from roses.games.richard3 import common as C
from roses.games.richard3 import supply
from roses.games.richard3.base import RichardStep, check_rescue
from roses.games.richard3.data import (
    ADJ,
    AREA_ID,
    AREA_NAMES,
    B_FIRE,
    B_INIT,
    B_LOYALTY,
    B_SIDE,
    B_STEPS,
    B_TYPE,
    BLOCK_ID,
    BLOCK_KEY,
    BLOCK_NAME,
    BLOCKS_OF,
    BOMBARD,
    BORDER_LIMIT,
    DEAD,
    ENTERABLE,
    HEIR,
    HEIRS,
    N_AREAS,
    N_BLOCKS,
    N_BORDERS,
    POOL,
    REBEL,
    REBEL_BLOCK,
    ROLES,
    WARWICK,
    ZONE_AREAS,
)
from roses.games.richard3.state import BattleData, BattleFrame, BattlesFrame

LETTERS = ("A", "B", "C", "D")
_ROLLER_NAME = {C.KING: "the King", C.PRETENDER: "the Pretender", C.WARWICK_ROLL: "Warwick",
                C.TREASON: "Treason"}


# ======================================================================= small helpers
def _owner(state: State, b: int) -> int:
    s = B_SIDE[b]
    return 1 - state["king"] if s == REBEL else s


def _letter(b: int, rnd: int) -> str:
    """Initiative letter (3.12, 6.2): the Bombard is A3 in round 1 and D3 afterwards. A Bombard
    that came as a Reserve never acts in round 1, so it never gets A3."""
    if B_TYPE[b] == BOMBARD:
        return "A" if rnd == 1 else "D"
    return B_INIT[b]


def _combat(b: int, rnd: int, fp: int) -> str:
    """A fire's combat rating for the log, ``B3 (hits on 3 or less)`` (3.1, 6.4): the letter is
    when the block fires, the number the highest die that hits, never a target."""
    return f"{_letter(b, rnd)}{fp} (hits on {fp} or less)"


def _name(b: int) -> str:
    return f"{BLOCK_NAME[b]} ({ROLES[B_SIDE[b]][0] if B_SIDE[b] != REBEL else 'R'})"


def _split(state: State, area: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """(active York, active Lancaster, reserve York, reserve Lancaster) blocks in area."""
    res = state["reserve"]
    king = state["king"]
    act: tuple[list[int], list[int]] = ([], [])
    rsv: tuple[list[int], list[int]] = ([], [])
    for b in _present(state, area):
        s = B_SIDE[b]
        if s == REBEL:
            s = 1 - king
        (rsv if res[b] else act)[s].append(b)
    return act[0], act[1], rsv[0], rsv[1]


def _active_blocks(state: State, area: int, side: int) -> tuple[int, ...]:
    """Blocks of side in the battle that are not (or no longer) in Reserve."""
    return _fighting(state, area)[side]


#: ``_SPAN[side]``: (first, last + 1) of the ids of the blocks printed for side, which are
#: numbered together (one run of :func:`common.id_runs`, checked here), so that their entries
#: are a slice of a per-block list.
_RUNS = tuple(C.id_runs(sorted(BLOCKS_OF[s])) for s in (0, 1))
if any(len(runs) != 1 for runs in _RUNS):
    raise ValueError("a side's blocks are not numbered together")
_SPAN = tuple(runs[0] for runs in _RUNS)


def _enemy_areas(state: State, side: int) -> set[int]:
    """Areas holding at least one block of the enemy of side (enemy or contested for side)."""
    loc = state["loc"]
    lo, hi = _SPAN[1 - side]
    out = set(loc[lo:hi])
    if 1 - state["king"] != side:  # the Rebel belongs to the Pretender (3.26)
        out.add(loc[REBEL_BLOCK])
    return out


def _firepower(state: State, bt: BattleData, b: int, side: int, present: Sequence[int]) -> int:
    """Firepower (3.12) plus the defence bonus for defenders only (2.2-2.6, 6.4, C94)."""
    fp = B_FIRE[b]
    if side != bt["att"]:
        fp += C.defence_bonus(state, b, bt["area"], present)
    return fp


def _senior_heir(state: State, side: int, present: Sequence[int]) -> int:
    """The senior heir of side among the present (non-Reserve) blocks (6.5, 2.2), or -1."""
    ps = set(present)
    for h in HEIRS[side]:
        if h in ps:
            return h
    return -1


def _rollers(state: State, bt: BattleData, b: int) -> list[str]:
    """Treachery rolls block b may still make in this battle (6.9): King, Pretender, Warwick."""
    used = bt["used"]
    out = []
    if b == state["king_block"] and C.KING not in used:
        out.append(C.KING)
    elif b == C.pretender_block(state) and C.PRETENDER not in used:
        out.append(C.PRETENDER)
    if (b == WARWICK[0] or b == WARWICK[1]) and C.WARWICK_ROLL not in used:
        out.append(C.WARWICK_ROLL)
    return out


def _treachery_targets(state: State, bt: BattleData, enemies: Sequence[int], roller: str) -> list[int]:
    """Non-Reserve enemy blocks with a loyalty number that did not defect in this battle (6.9)."""
    dfc = bt["defected"]
    return [t for t in enemies if t not in dfc and C.treachery_dice(state, t, roller) > 0]


def _retreat_options(state: State, bt: BattleData, b: int, side: int, regroup: bool,
                     theirs: set[int]) -> list[int]:
    """Areas block b may retreat (6.6) or regroup (6.7) to.

    Land: adjacent friendly or vacant areas, never an enemy exile area (2.7), within the border
    limits counted per battle round for retreats and per regroup (rulings); a retreat may not
    cross a border the enemy used to enter the battle unless both crossed it and the retreating
    side is Player 2 (6.6). Piracy attackers (C132, ruling A4): only by sea, to a friendly or
    vacant coastal area of a sea zone they crossed to attack.
    """
    area = bt["area"]
    ent_ok = ENTERABLE[side]
    mask = state["pirate"][b]
    out: list[int] = []
    if mask:
        seen: set[int] = set()
        for z in range(3):
            if mask >> z & 1:
                for q in ZONE_AREAS[z]:
                    if q != area and q not in seen and ent_ok[q] and q not in theirs:
                        seen.add(q)
                        out.append(q)
        out.sort()
        return out
    rc = bt["rc"]
    base = side * N_BORDERS
    if regroup:
        banned: list[int] = []
    else:
        banned = state["ent"][1 - side][area]
        if banned and side != state["p1"]:
            own = state["ent"][side][area]
            banned = [x for x in banned if x not in own]
    for q, bid in ADJ[area]:
        if not ent_ok[q] or q in theirs or bid in banned or rc and rc.count(base + bid) >= BORDER_LIMIT[bid]:
            continue
        out.append(q)
    return out


def _area_id(name: Any) -> int:
    return AREA_ID.get(name, -1) if isinstance(name, str) else -1


def _block_id(key: Any) -> int:
    return BLOCK_ID.get(key, -1) if isinstance(key, str) else -1


# ======================================================================= start
def start_battle(state: State, area: int) -> None:
    """Begin the battle in a contested area (6.1): reveal the non-Reserve blocks of both sides,
    offer a pending Treason roll (C135), then fight round 1."""
    att = state["atk"][area]
    if att < 0:  # not expected: every contested area was attacked this turn
        att = state["p1"]
        state["atk"][area] = att
    y_act, l_act, y_res, l_res = _split(state, area)
    acts = (y_act, l_act)
    bt: BattleData = {
        "area": area, "revealed": sorted(y_act + l_act), "round": 1, "att": att,
        "letter": "A", "acted": [], "used": [], "defected": [], "rc": [], "pend": 0, "last": None,
    }
    state["battle"] = bt
    frame: BattleFrame = {"step": "turn", "side": att}
    steps.push(state, frame)
    mark_reveal(state)
    d = 1 - att
    rsv = (len(y_res), len(l_res))
    public(state, kind=BATTLE, text=f"Battle of {AREA_NAMES[area]} (6.1): {ROLES[att]} attacks, {ROLES[d]} defends.")
    for s in (d, att):
        shown = ", ".join(f"{BLOCK_NAME[b]} {state['steps'][b]} ({_letter(b, 1)}{B_FIRE[b]})"
                          for b in acts[s]) or "none"
        extra = f"; {rsv[s]} block(s) in Reserve (6.3)" if rsv[s] else ""
        public(state, kind=BATTLE, text=f"{ROLES[s]} reveals: {shown}{extra}.")
    tr = state.get("treason", -1)
    if tr in (0, 1) and _treachery_targets(state, bt, acts[1 - tr], C.TREASON):
        _decide(state, "treason", tr)
        return
    _advance(state)


# ======================================================================= flow
def _advance(state: State) -> None:
    """Run the battle on until a player must decide, or end it (6.2, 6.3, 6.6, 6.7)."""
    bt = state["battle"]
    area = bt["area"]
    while True:
        if state["result"] is not None:
            _close(state, quiet=True)
            return
        y_act, l_act, y_res, l_res = _split(state, area)
        acts = (y_act, l_act)
        rsvs = (y_res, l_res)
        present = (len(y_act) + len(y_res), len(l_act) + len(l_res))
        if not present[0] or not present[1]:
            victor = 0 if present[0] else 1 if present[1] else -1
            _finish(state, victor)
            return
        rnd = bt["round"]
        deployed = False
        for s in (1 - bt["att"], bt["att"]):
            if not acts[s] and rsvs[s]:
                _deploy(state, bt, s, rsvs[s])
                deployed = True
        if deployed:
            continue
        found = False
        acted = bt["acted"]
        att = bt["att"]
        # the blocks yet to act, per side, by letter (one pass over each side's blocks)
        waiting: tuple[dict[str, list[int]], dict[str, list[int]]] = ({}, {})
        for s in (0, 1):
            by_letter = waiting[s]
            for b in acts[s]:
                if b not in acted:
                    letter = _letter(b, rnd)
                    group = by_letter.get(letter)
                    if group is None:
                        by_letter[letter] = [b]
                    else:
                        group.append(b)
        for letter in LETTERS:
            for s in (1 - att, att):
                group = waiting[s].get(letter)
                if not group:
                    continue
                if rnd == 4 and s == att:
                    # 6.2, 6.6: attacking blocks must retreat in round 4; those that cannot are
                    # eliminated (C85, C99). Options only shrink within the group.
                    theirs = _enemy_areas(state, s)
                    stuck = [b for b in group if not _retreat_options(state, bt, b, s, False, theirs)]
                    if stuck:
                        for b in stuck:
                            public(state, kind=BATTLE, text=f"{_name(b)} cannot retreat and is eliminated (6.6).")
                            _eliminate(state, b)
                            if state["result"] is not None:
                                break
                        found = True  # re-scan from the top
                        break
                _decide(state, "turn", s)
                bt["letter"] = letter
                return
            if found:
                break
        if found:
            continue
        # every block has had its battle turn: the round is over
        if rnd == 4:
            _end_round4(state, bt)
            return
        _new_round(state, bt)


def _deploy(state: State, bt: BattleData, s: int, rsv: list[int]) -> None:
    """All of a side's fighting blocks are gone: its Reserves deploy at once (6.3, C89). They
    cannot fire this round but can be hit. In round 1, if it is the Defender, control changes:
    the Defender becomes the Attacker (C90)."""
    res = state["reserve"]
    for b in rsv:
        res[b] = 0
        if b not in bt["acted"]:
            bt["acted"].append(b)
        if b not in bt["revealed"]:
            bt["revealed"].append(b)
    mark_reveal(state)
    names = ", ".join(f"{BLOCK_NAME[b]} {state['steps'][b]}" for b in rsv)
    public(state, kind=BATTLE, text=f"{ROLES[s]}'s Reserves deploy at once (6.3): {names}. They cannot fire before the next round.")
    if bt["round"] == 1 and s != bt["att"]:
        bt["att"] = s
        state["atk"][bt["area"]] = s
        public(state, kind=BATTLE, text=f"Control changes (6.3): {ROLES[s]} is now the Attacker and must retreat in round 4.")


def _new_round(state: State, bt: BattleData) -> None:
    """Start the next round: Reserves (and defectors) join (6.3, 6.9); retreat counts reset (6.6)."""
    bt["round"] += 1
    bt["acted"] = []
    bt["rc"] = []
    area = bt["area"]
    res = state["reserve"]
    joined: tuple[list[int], list[int]] = ([], [])
    for b in _present(state, area):
        if res[b]:
            res[b] = 0
            joined[_owner(state, b)].append(b)
            if b not in bt["revealed"]:
                bt["revealed"].append(b)
    public(state, kind=BATTLE, text=f"Round {bt['round']}.")
    if joined[0] or joined[1]:
        mark_reveal(state)
        for s in (0, 1):
            if joined[s]:
                names = ", ".join(f"{BLOCK_NAME[b]} {state['steps'][b]} ({_letter(b, bt['round'])}{B_FIRE[b]})"
                                  for b in joined[s])
                public(state, kind=BATTLE, text=f"{ROLES[s]}'s Reserves join the battle: {names}.")


def _end_round4(state: State, bt: BattleData) -> None:
    """After round 4 the Attacker is gone (6.2). Defensive fallback: any attacking block still
    there (it cannot have had a turn) is eliminated, as it could not retreat (6.6)."""
    area = bt["area"]
    att = bt["att"]
    for b in C.blocks_in(state, area, att):
        public(state, kind=BATTLE, text=f"{_name(b)} cannot retreat and is eliminated (6.6).")
        _eliminate(state, b)
        if state["result"] is not None:
            _close(state, quiet=True)
            return
    _finish(state, 1 - att if C.blocks_in(state, area, 1 - att) else -1)


def _finish(state: State, victor: int) -> None:
    """The battle is over: the victor may regroup (6.7)."""
    bt = state["battle"]
    area = bt["area"]
    if victor < 0:
        public(state, kind=BATTLE, text=f"The battle of {AREA_NAMES[area]} ends with no block left.")
        _close(state)
        return
    public(state, kind=BATTLE, text=f"{ROLES[victor]} wins the battle of {AREA_NAMES[area]}.")
    _decide(state, "regroup", victor)
    bt["rc"] = []
    bt["pend"] = 0
    if not _regroup_actions(state, bt):
        _close(state)


def _close(state: State, quiet: bool = False) -> None:
    """Stand the blocks up again (6.1): the battle is over."""
    bt = state["battle"]
    if bt is None:
        return
    area = bt["area"]
    loc, res = state["loc"], state["reserve"]
    for b in range(N_BLOCKS):
        if loc[b] == area:
            res[b] = 0
    for b in bt["revealed"]:
        C.learn(state, b)  # both sides remember the blocks they saw in the battle
    state["battle"] = None
    if state["stack"] and state["stack"][-1]["step"] in STEP_NAMES:
        steps.pop(state)
    if not quiet:
        public(state, kind=BATTLE, text=f"The battle of {AREA_NAMES[area]} is over; its blocks stand up again.")


def _eliminate(state: State, b: int) -> None:
    heir = B_TYPE[b] == HEIR
    C.eliminate(state, b)
    if heir:
        public(state, kind=BATTLE, text=f"{BLOCK_NAME[b]} ({ROLES[B_SIDE[b]]} heir) is killed (6.82).")


def _damage(state: State, b: int, n: int) -> None:
    """Apply n hits to b (3.11); eliminate it at 0 (6.8)."""
    steps = state["steps"]
    bt = state["battle"]
    if bt is not None and bt["last"] is not None:
        bt["last"].setdefault("damage", []).append([BLOCK_KEY[b], min(n, steps[b]), steps[b] <= n])
    if steps[b] <= n:
        public(state, kind=BATTLE, text=f"{_name(b)} takes {steps[b]} hit(s) and is eliminated.")
        _eliminate(state, b)
    else:
        steps[b] -= n
        public(state, kind=BATTLE, text=f"{_name(b)} takes {n} hit(s), now {steps[b]}.")


def _roll(state: State, n: int) -> list[int]:
    return [rng.roll(state) for _ in range(n)]


# ======================================================================= interface
def _fr(state: State) -> Frame:
    """The battle's frame: the top of the decision stack while a battle is fought."""
    frame: Frame = state["stack"][-1]
    return frame


def _decide(state: State, step: str, side: int) -> None:
    """The battle's next decision: ``step`` (treason, turn, hits, regroup) of ``side``, in place
    of the battle's frame on top."""
    frame: BattleFrame = {"step": step, "side": side}
    steps.replace(state, frame)


def active(state: State) -> list[str]:
    """The role deciding in the battle now (none when no battle is being fought)."""
    bt = state["battle"]
    if bt is None or state["result"] is not None:
        return []
    return [ROLES[_fr(state)["side"]]]


def legal_actions(state: State, role: str) -> list[Action]:
    """The battle actions of ``role`` now (the options of the battle step on top)."""
    if state["battle"] is None or state["result"] is not None or role not in active(state):
        return []
    frame = _fr(state)
    return BY_NAME[frame["step"]].options(state, frame, role)


def apply(state: State, role: str, verb: str, arg: Any) -> None:
    """Apply one battle action; raise IllegalAction (state untouched) if it is not legal now
    (the game goes through the steps; tests drive a battle alone with this)."""
    if state["battle"] is None or state["result"] is not None or role not in active(state):
        raise IllegalAction(_why(state, role, verb))
    frame = _fr(state)
    step = BY_NAME[frame["step"]]
    if not step.is_legal(state, frame, role, verb, arg):
        raise IllegalAction(_why(state, role, verb))
    step.handle(state, frame, role, verb, arg)


def label_part(state: State, role: str, verb: str, arg: Any) -> str:
    """Button text for a battle action (the label of the battle step that handles ``verb``)."""
    frame = _fr(state)
    for step in STEPS:
        if verb in step.verbs:
            text = step.option_label(state, frame, role, verb, arg)
            if text is not None:
                return text
    return verb if arg is None else f"{verb} {arg}"


def _group(state: State, bt: BattleData, s: int) -> list[int]:
    acted = bt["acted"]
    rnd = bt["round"]
    letter = bt["letter"]
    return [b for b in _active_blocks(state, bt["area"], s) if b not in acted and _letter(b, rnd) == letter]


#: The blocks in the area asked last (:func:`_present`): (area, a copy of ``loc``, the blocks).
_last_present: tuple[int, list[int], tuple[int, ...]] = (-1, [], ())
#: The fighting blocks found last (:func:`_fighting`): (area, king, a copy of ``reserve``,
#: the blocks in the area then, the result).
_last_fighting: tuple[int, int, list[int], tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = (
    -1, -1, [], (), ((), ()))


def _present(state: State, area: int) -> tuple[int, ...]:
    """The blocks in ``area``, by id. A battle's steps ask for them several times between two
    moves, so the last answer is kept and given again while ``loc`` is the same."""
    global _last_present
    loc = state["loc"]
    last = _last_present
    if last[0] == area and last[1] == loc:
        return last[2]
    out = tuple(C.blocks_in(state, area))  # found by C searches of loc
    _last_present = (area, loc[:], out)
    return out


def _fighting(state: State, area: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Non-Reserve blocks of York and of Lancaster in the battle area, by id (kept, like
    :func:`_present`, while the blocks there, their Reserve flags and the King's side are
    the same)."""
    global _last_fighting
    present = _present(state, area)
    res = state["reserve"]
    king = state["king"]
    last = _last_fighting
    if last[3] is present and last[0] == area and last[1] == king and last[2] == res:
        return last[4]
    rebel_side = 1 - king
    sides: tuple[list[int], list[int]] = ([], [])
    for b in present:
        if not res[b]:
            sd = B_SIDE[b]
            sides[rebel_side if sd == REBEL else sd].append(b)
    out = (tuple(sides[0]), tuple(sides[1]))
    _last_fighting = (area, king, res[:], present, out)
    return out


def _turn_actions(state: State, bt: BattleData) -> list[Action]:
    """Battle turns of the current group (6.2): Fire, Pass, Retreat (from round 2), Charge (6.5),
    Treachery (6.9). Attacking blocks in round 4 may only retreat (6.2, ruling A7)."""
    s = _fr(state)["side"]
    rnd = bt["round"]
    fighting = _fighting(state, bt["area"])
    mine = fighting[s]
    acted = bt["acted"]
    letter = bt["letter"]
    group = [b for b in mine if b not in acted and _letter(b, rnd) == letter]
    if not group:
        return []
    theirs = _enemy_areas(state, s)
    out: list[Action] = []
    if rnd == 4 and s == bt["att"]:
        for b in group:
            k = BLOCK_KEY[b]
            for q in _retreat_options(state, bt, b, s, False, theirs):
                out.append(("retreat", [k, AREA_NAMES[q]]))
        return out
    enemies = fighting[1 - s]
    heir = _senior_heir(state, s, mine)
    for b in group:
        k = BLOCK_KEY[b]
        out.append(("fire", k))
        if b == heir:
            for t in enemies:
                out.append(("charge", [k, BLOCK_KEY[t]]))
        for roller in _rollers(state, bt, b):
            for t in _treachery_targets(state, bt, enemies, roller):
                out.append(("treachery", [k, BLOCK_KEY[t]]))
        if rnd > 1:
            for q in _retreat_options(state, bt, b, s, False, theirs):
                out.append(("retreat", [k, AREA_NAMES[q]]))
        out.append(("pass", k))
    return out


def _tied(state: State, bt: BattleData, s: int) -> list[int]:
    """Blocks of side s sharing the highest current strength among those that can be hit."""
    steps = state["steps"]
    targets = _active_blocks(state, bt["area"], s)
    if not targets:
        return []
    mx = max(steps[b] for b in targets)
    return [b for b in targets if steps[b] == mx]


def _regroup_actions(state: State, bt: BattleData) -> list[Action]:
    s = _fr(state)["side"]
    theirs = _enemy_areas(state, s)
    out: list[Action] = []
    for b in C.blocks_in(state, bt["area"], s):
        k = BLOCK_KEY[b]
        for q in _retreat_options(state, bt, b, s, True, theirs):
            out.append(("regroup", [k, AREA_NAMES[q]]))
    return out


def _why(state: State, role: str, verb: str) -> str:
    """Why a battle action is refused: not ``role``'s turn, or the rule of the step on top."""
    bt = state["battle"]
    if bt is None:
        return "There is no battle now."
    frame = _fr(state)
    if role != ROLES[frame["side"]]:
        return f"It is not {role}'s turn in the battle."
    step = BY_NAME.get(frame["step"])
    reason = step.reason if step is not None else "that is not a choice of this battle (6.0)."
    return f"{role} cannot {verb} now: {reason}"


# ======================================================================= battle turns
def _fire(state: State, bt: BattleData, b: int) -> None:
    """Fire (6.4): one die per step, each die <= firepower hits; all hits go to the enemy's
    strongest block, surplus to the next strongest; the owner breaks ties (C92-C94)."""
    s = _owner(state, b)
    bt["acted"].append(b)
    mine = _active_blocks(state, bt["area"], s)
    fp = _firepower(state, bt, b, s, mine)
    dice = _roll(state, state["steps"][b])
    hits = sum(1 for d in dice if d <= fp)
    bt["last"] = {"what": "fire", "block": BLOCK_KEY[b], "dice": dice, "fp": fp, "hits": hits, "target": None}
    public(state, kind=BATTLE, text=f"{_name(b)} fires, {_combat(b, bt['round'], fp)}: "
                  f"{' '.join(map(str, dice))}, {hits} hit(s).")
    if hits:
        _allocate(state, bt, 1 - s, hits)


def _allocate(state: State, bt: BattleData, ts: int, n: int) -> bool:
    """Apply n hits to side ts (6.4). Returns False if the owner must choose among tied blocks
    first (step "hits"); True when every hit is applied or lost. Unjoined Reserves cannot be hit
    (6.3); hits left when no block can take them are lost (so Reserves that deploy because this
    fire destroyed the last fighting block take no hit from it, ruling)."""
    steps = state["steps"]
    while n > 0 and state["result"] is None:
        targets = _active_blocks(state, bt["area"], ts)
        if not targets:
            return True
        mx = max(steps[t] for t in targets)
        tied = [t for t in targets if steps[t] == mx]
        if len(tied) > 1 and n < mx * len(tied):
            _decide(state, "hits", ts)
            bt["pend"] = n
            return False
        t = tied[0]
        take = min(n, steps[t])
        n -= take
        _damage(state, t, take)
    return True


def _charge(state: State, bt: BattleData, b: int, t: int) -> None:
    """Heir Charge (6.5, C95): the senior present heir fires at a named enemy block; surplus hits
    are lost; a surviving target fires back once at the charger at once (its own turn stays)."""
    s = _owner(state, b)
    area = bt["area"]
    bt["acted"].append(b)
    mine = _active_blocks(state, area, s)
    fp = _firepower(state, bt, b, s, mine)
    dice = _roll(state, state["steps"][b])
    hits = sum(1 for d in dice if d <= fp)
    last: dict[str, Any] = {"what": "charge", "block": BLOCK_KEY[b], "dice": dice, "fp": fp, "hits": hits,
                            "target": BLOCK_KEY[t]}
    bt["last"] = last
    public(state, kind=BATTLE, text=f"{_name(b)} charges {_name(t)}, {_combat(b, bt['round'], fp)}: "
                  f"{' '.join(map(str, dice))}, {hits} hit(s).")
    if hits:
        take = min(hits, state["steps"][t])
        if hits > take:
            public(state, kind=BATTLE, text=f"{hits - take} surplus hit(s) are lost (6.5).")
        _damage(state, t, take)
    if state["result"] is not None or state["loc"][t] != area:
        return
    # the surviving target's bonus fire at the charger
    theirs = _active_blocks(state, area, 1 - s)
    fp2 = _firepower(state, bt, t, 1 - s, theirs)
    dice2 = _roll(state, state["steps"][t])
    hits2 = sum(1 for d in dice2 if d <= fp2)
    last.update({"reply": dice2, "reply_fp": fp2, "reply_hits": hits2})
    public(state, kind=BATTLE, text=f"{_name(t)} fires back at the charger (6.5): {' '.join(map(str, dice2))}, {hits2} hit(s).")
    if hits2:
        _damage(state, b, min(hits2, state["steps"][b]))


def _treachery(state: State, bt: BattleData, t: int, roller: str, b: int) -> None:
    """Treachery roll (6.9, 6.91, C107-C111; Treason card C135): one die per loyalty point; if all
    are even the target is swapped for its other version at the same strength, into the roller's
    Reserve, fighting from the next round."""
    n = C.treachery_dice(state, t, roller)
    if roller != C.TREASON:
        bt["used"].append(roller)
    dice = _roll(state, n)
    ok = all(d % 2 == 0 for d in dice)
    who = _ROLLER_NAME[roller] + (f" ({_name(b)})" if b >= 0 else f" ({ROLES[1 - _owner(state, t)]})")
    bt["last"] = {"what": "treachery", "block": BLOCK_KEY[b] if b >= 0 else None, "dice": dice,
                  "fp": None, "hits": 0, "target": BLOCK_KEY[t], "defected": ok}
    public(state, kind=BATTLE, text=f"Treachery roll by {who} on {_name(t)}: {' '.join(map(str, dice))}: "
                  + ("all even, the block defects (6.9)." if ok else "it stays loyal."))
    if not ok:
        return
    new = C.defect(state, t)
    state["reserve"][new] = 1
    bt["defected"].append(new)
    if new not in bt["revealed"]:
        bt["revealed"].append(new)
    if t in bt["acted"]:
        bt["acted"].remove(t)
    public(state, kind=BATTLE, text=f"{_name(new)} joins {ROLES[_owner(state, new)]}'s Reserve at strength {state['steps'][new]}.")


def _retreat(state: State, bt: BattleData, b: int, q: int, regroup: bool) -> None:
    """Move b out of the battle area to q (6.6 retreat / 6.7 regroup), counting the border."""
    s = _owner(state, b)
    area = bt["area"]
    bid = -1
    if not state["pirate"][b]:
        for nb, x in ADJ[area]:
            if nb == q:
                bid = x
                break
        bt["rc"].append(s * N_BORDERS + bid)
    state["loc"][b] = q
    state["reserve"][b] = 0
    if not regroup:
        bt["acted"].append(b)
    how = "by sea " if bid < 0 else ""
    if b in bt["revealed"]:
        what = _name(b)
    else:  # an unjoined Reserve of the victor: never named (4.2; RULINGS.md, log policy)
        what = f"A {ROLES[s]} block"
    public(state, kind=BATTLE, text=f"{what} {'regroups' if regroup else 'retreats'} {how}to {AREA_NAMES[q]}"
                  f" ({'6.7' if regroup else '6.6'}).")


# ======================================================================= view, secrets, invariants
def view_part(state: State, role: str) -> dict[str, Any]:
    """What role may know of the battle: revealed participants with steps and ratings; enemy
    Reserves only as a count; own Reserves in full (4.2; RULINGS.md, log policy)."""
    if state["battle"] is None:
        return {}
    return view_parts(state, (role,))[0]


def view_parts(state: State, roles: Sequence[str], prompts: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The :func:`view_part` of each of ``roles``, the blocks in the battle worked out once.
    ``prompts``, when given, are the roles' prompts (:func:`_prompt`), already made."""
    bt = state["battle"]
    area = bt["area"]
    rnd = bt["round"]
    att = bt["att"]
    revealed = bt["revealed"]
    acted, defected = bt["acted"], bt["defected"]
    steps, res = state["steps"], state["reserve"]
    present = _fighting(state, area)
    # (owner, shown to every role, the block's entry) of each block in the area, by id
    entries: list[tuple[int, bool, dict[str, Any]]] = []
    for b in _present(state, area):
        s = _owner(state, b)
        fp = B_FIRE[b]
        if s != att and not res[b]:
            fp += C.defence_bonus(state, b, area, present[s])
        d: dict[str, Any] = {
            "key": BLOCK_KEY[b], "name": BLOCK_NAME[b], "side": ROLES[s], "steps": steps[b],
            "max": B_STEPS[b], "rating": f"{_letter(b, rnd)}{B_FIRE[b]}", "firepower": fp,
            "role": "attacker" if s == att else "defender",
        }
        # flags only when true (absent = false/0), like the core's block dicts
        if B_LOYALTY[b]:
            d["loyalty"] = B_LOYALTY[b]
        if B_TYPE[b] == HEIR:
            d["heir"] = True
        if res[b]:
            d["reserve"] = True
        if b in acted:
            d["acted"] = True
        if b in defected:
            d["defected"] = True
        entries.append((s, b in revealed, d))
    fr = _fr(state)
    step = fr["step"]
    acting = ROLES[fr["side"]]
    last = _copy_last(bt["last"])
    used = list(bt["used"])
    parts = []
    for i, role in enumerate(roles):
        side = C.side_of(role)
        blocks: list[dict[str, Any]] = []
        hidden = [0, 0]
        for s, shown, d in entries:
            if shown or s == side:
                blocks.append(d)
            else:
                hidden[s] += 1
        parts.append({
            "area": AREA_NAMES[area], "round": rnd, "attacker": ROLES[att], "defender": ROLES[1 - att],
            "step": step, "turn": acting, "letter": bt["letter"] if step == "turn" else None,
            "blocks": blocks, "hidden_reserves": {ROLES[0]: hidden[0], ROLES[1]: hidden[1]},
            "last": last, "pending_hits": bt["pend"] if step == "hits" else 0,
            "treachery_used": used,
            "prompt": prompts[i] if prompts is not None else BY_NAME[step].prompt(state, fr, role),
        })
    return parts


def _copy_last(last: dict[str, Any] | None) -> dict[str, Any] | None:
    """A copy of the last-roll record (views must not share mutable parts with the state)."""
    if last is None:
        return None
    out = dict(last)
    for k, v in last.items():
        if isinstance(v, list):
            out[k] = [list(x) if isinstance(x, list) else x for x in v]
    return out


def secrets_part(state: State, role: str) -> set[str]:
    """Keys of the enemy's unjoined, unrevealed Reserves in the current battle."""
    bt = state["battle"]
    if bt is None:
        return set()
    side = C.side_of(role)
    area = bt["area"]
    loc, res = state["loc"], state["reserve"]
    revealed = bt["revealed"]
    return {BLOCK_KEY[b] for b in range(N_BLOCKS)
            if loc[b] == area and res[b] and b not in revealed and _owner(state, b) != side}


def check_invariants_part(state: State) -> list[str]:
    """Battle invariants (for fuzzing)."""
    bt = state["battle"]
    if bt is None:
        return []
    p: list[str] = []
    area = bt["area"]
    if not 0 <= area < N_AREAS:
        return [f"battle area {area} out of range"]
    if not 1 <= bt["round"] <= 4:
        p.append(f"battle round {bt['round']}")
    if bt["att"] not in (0, 1) or _fr(state)["side"] not in (0, 1):
        p.append("battle sides out of range")
    if state["atk"][area] != bt["att"]:
        p.append("atk of the battle area differs from the battle's attacker")
    y_act, l_act, y_res, l_res = _split(state, area)
    loc, steps = state["loc"], state["steps"]
    for b in y_act + l_act + y_res + l_res:
        if steps[b] <= 0 or steps[b] > B_STEPS[b]:
            p.append(f"{BLOCK_KEY[b]} has {steps[b]} steps in battle")
    for b in y_act + l_act:
        if b not in bt["revealed"]:
            p.append(f"{BLOCK_KEY[b]} fights unrevealed")
    step = _fr(state)["step"]
    if step in ("turn", "hits", "treason") and (not (y_act or y_res) or not (l_act or l_res)):
        p.append("battle goes on with one side absent")
    if step == "turn" and state["result"] is None and not _group(state, bt, _fr(state)["side"]):
        p.append("battle turn with an empty group")
    if step == "hits" and (bt["pend"] <= 0 or len(_tied(state, bt, _fr(state)["side"])) < 2):
        p.append("hit choice without a tie")
    if step == "regroup":
        enemy = y_act + y_res if _fr(state)["side"] == 1 else l_act + l_res
        if enemy:
            p.append("regroup while the enemy is still in the area")
    if step == "treason" and state.get("treason", -1) != _fr(state)["side"]:
        p.append("Treason step without the Treason roll")
    for b in bt["defected"]:
        if loc[b] >= N_AREAS and loc[b] not in (POOL, DEAD):  # eliminated after defecting
            p.append(f"defector {BLOCK_KEY[b]} at special location {loc[b]}")
    return p


# ======================================================================= the battle steps
def _nm(k: Any) -> str:
    b = _block_id(k)
    return BLOCK_NAME[b] if b >= 0 else str(k)


class _BattleStep(Step):
    """A decision of the battle on top (its frame is a :class:`BattleFrame`): its ``reason``
    is the rule a refused action meets; ``waiting`` what the other side is told."""

    phase = "battle"
    always_decides = True
    reason: ClassVar[str] = ""
    waiting: ClassVar[str] = ""
    #: The label of each verb: ``{block}`` the (first) block's name, ``{other}`` the second
    #: block's, ``{to}`` the area named second.
    labels: ClassVar[dict[str, str]] = {}

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        text = self.labels.get(verb)
        if text is None:
            return None
        if isinstance(arg, (list, tuple)):
            return text.format(block=_nm(arg[0]), other=_nm(arg[1]), to=arg[1])
        return text.format(block=_nm(arg))

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [ROLES[frame["side"]]]

    def refusal(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str:
        return _why(state, role, verb)

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        bt = state["battle"]
        acting = ROLES[frame["side"]]
        area = AREA_NAMES[bt["area"]]
        if role != acting:
            return self.waiting.format(area=area, round=bt["round"], acting=acting)
        return self.ask(state, frame, bt, area, None)

    def prompt_and_options(self, state: State, frame: Frame, role: str) -> tuple[str, list[Action]]:
        options = self.options(state, frame, role)
        bt = state["battle"]
        if role != ROLES[frame["side"]]:
            return self.prompt(state, frame, role), options
        return self.ask(state, frame, bt, AREA_NAMES[bt["area"]], options), options

    def ask(self, state: State, frame: Frame, bt: BattleData, area: str, options: list[Action] | None) -> str:
        """What the acting side is asked (``options``: its options, if already made)."""
        return "Battle."

    def go_on(self, state: State) -> None:
        """After a battle action: the battle runs on (unless a hit choice waits)."""
        if _fr(state)["step"] == "hits" and state["result"] is None:
            return
        _advance(state)


class TurnStep(_BattleStep):
    """A block of the group whose turn it is fires, passes, retreats, charges or rolls for
    treachery (6.2, 6.4-6.6, 6.9)."""

    name = "turn"
    rule = "6.2"
    reason = ("blocks act in combat-rating order, A before B before C before D, defenders first "
              "within a letter (6.2); the block whose turn it is may fire, pass, retreat, charge "
              "(the senior heir, 6.5) or try treachery (6.9), and only that block.")
    waiting = "Battle of {area}, round {round}: {acting} takes battle turns."
    labels = {"fire": "{block}: fire", "pass": "{block}: pass", "retreat": "{block}: retreat to {to}",
              "charge": "{block}: charge {other}", "treachery": "{block}: treachery roll on {other}"}

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return _turn_actions(state, state["battle"])

    def is_legal(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> bool:
        # a pair sent as a tuple is the list of the options
        return super().is_legal(state, frame, role, verb, list(arg) if isinstance(arg, tuple) else arg)

    def ask(self, state: State, frame: Frame, bt: BattleData, area: str, options: list[Action] | None) -> str:
        if bt["round"] == 4 and frame["side"] == bt["att"]:
            return f"Battle of {area}, round 4: your attacking {bt['letter']} blocks must retreat (6.2)."
        offered = {v for v, _ in (_turn_actions(state, bt) if options is None else options)}
        verbs = ", ".join(v for v in ("fire", "charge", "treachery", "retreat", "pass") if v in offered)
        return (f"Battle of {area}, round {bt['round']}: choose a battle turn for one of your "
                f"{bt['letter']} blocks ({verbs}).")


    def on_fire(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _fire(state, state["battle"], _block_id(arg))
        self.go_on(state)

    def on_pass(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        b = _block_id(arg)
        state["battle"]["acted"].append(b)
        public(state, kind=BATTLE, text=f"{_name(b)} passes.")
        self.go_on(state)

    def on_retreat(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _retreat(state, state["battle"], _block_id(arg[0]), _area_id(arg[1]), False)
        self.go_on(state)

    def on_charge(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _charge(state, state["battle"], _block_id(arg[0]), _block_id(arg[1]))
        self.go_on(state)

    def on_treachery(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        bt = state["battle"]
        b = _block_id(arg[0])
        bt["acted"].append(b)
        # a block is at most one of King, Pretender, Warwick (Warwick is never an heir)
        _treachery(state, bt, _block_id(arg[1]), _rollers(state, bt, b)[0], b)
        self.go_on(state)


class HitsStep(_BattleStep):
    """The owner picks which of its tied strongest blocks takes the hits (6.4)."""

    name = "hits"
    rule = "6.4"
    reason = ("hits go to the strongest of your blocks in the battle; among equally strong ones "
              "you choose which one takes the next hit (6.4).")
    waiting = "Battle of {area}: {acting} chooses which block takes the hits."
    labels = {"hit": "{block} takes the hits"}

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("hit", BLOCK_KEY[b]) for b in _tied(state, state["battle"], frame["side"])]

    def ask(self, state: State, frame: Frame, bt: BattleData, area: str, options: list[Action] | None) -> str:
        return f"Battle of {area}: {bt['pend']} hit(s): choose which of your strongest blocks takes them (6.4)."


    def on_hit(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        bt = state["battle"]
        n = bt["pend"]
        b = _block_id(arg)
        take = min(n, state["steps"][b])
        bt["pend"] = 0
        _decide(state, "turn", frame["side"])
        _damage(state, b, take)
        if state["result"] is None and n > take:
            _allocate(state, bt, _owner(state, b), n - take)
        self.go_on(state)


class RegroupStep(_BattleStep):
    """The victor regroups (6.7)."""

    name = "regroup"
    rule = "6.7"
    reason = ("the victor's blocks regroup only into adjacent friendly or vacant areas, within "
              "the border limits (6.7).")
    waiting = "{acting} won the battle of {area} and may regroup."
    labels = {"regroup": "{block}: regroup to {to}", "end_regroup": "End the regroup"}

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        acts = _regroup_actions(state, state["battle"])
        acts.append(("end_regroup", None))
        return acts

    def ask(self, state: State, frame: Frame, bt: BattleData, area: str, options: list[Action] | None) -> str:
        return f"You won the battle of {area}: regroup blocks to adjacent friendly or vacant areas, or end (6.7)."


    def on_regroup(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        bt = state["battle"]
        _retreat(state, bt, _block_id(arg[0]), _area_id(arg[1]), True)
        if state["battle"] is not None and not _regroup_actions(state, bt):
            _close(state)

    def on_end_regroup(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _close(state)


class TreasonStep(_BattleStep):
    """The holder of the Treason card rolls for treachery before round 1, or keeps it (C135)."""

    name = "treason"
    rule = "6.9"
    reason = ("the Treason card's roll targets an enemy block with a loyalty number in this "
              "battle (6.9, card text); or keep the card.")
    waiting = "Battle of {area}: {acting} may make a Treason roll."
    labels = {"treason": "Treason roll on {block}", "keep_treason": "No Treason roll in this battle"}

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        bt = state["battle"]
        s = frame["side"]
        enemies = _active_blocks(state, bt["area"], 1 - s)
        acts: list[Action] = [("treason", BLOCK_KEY[t]) for t in _treachery_targets(state, bt, enemies, C.TREASON)]
        acts.append(("keep_treason", None))
        return acts

    def ask(self, state: State, frame: Frame, bt: BattleData, area: str, options: list[Action] | None) -> str:
        return f"Battle of {area}: Treason: choose an enemy block for a Treachery roll, or keep the roll."


    def on_treason(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        bt = state["battle"]
        state["treason"] = -1
        _treachery(state, bt, _block_id(arg), C.TREASON, -1)
        if state["result"] is None:
            _decide(state, "turn", bt["att"])
        self.go_on(state)

    def on_keep_treason(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _decide(state, "turn", frame["side"])
        public(state, kind=BATTLE, text=f"{ROLES[frame['side']]} makes no Treason roll in this battle.")
        self.go_on(state)


def is_battle_step(step: Step) -> bool:
    """Whether ``step`` is one of a battle's (its prompt is in the battle's part of a view)."""
    return isinstance(step, _BattleStep)


STEPS: tuple[_BattleStep, ...] = (TreasonStep(), TurnStep(), HitsStep(), RegroupStep())
STEP_NAMES = frozenset(step.name for step in STEPS)
BY_NAME: dict[str, _BattleStep] = {step.name: step for step in STEPS}


# ======================================================================= the Battle Phase (6.x)
def start_battle_phase(state: State) -> None:
    """The Battle Phase: the battles are fought one by one, Player 1 choosing the order (C13)."""
    frame: BattlesFrame = {"step": "battles", "fighting": False}
    state["stack"] = [frame]
    state["battles"] = C.contested_areas(state)
    if not state["battles"]:
        supply.start_supply(state)
        return
    public(state, kind=BATTLE, text="Battle Phase.")
    if len(state["battles"]) == 1:
        _choose_battle(state, state["stack"][-1], state["battles"][0])


def _choose_battle(state: State, frame: Frame, a: int) -> None:
    """Fight the battle in area a (C13): :func:`start_battle` pushes the battle's steps on top
    of the Battle Phase frame, which resumes (``fighting``: see :class:`Battles`) when the
    battle is over."""
    state["battles"].remove(a)
    public(state, kind=BATTLE, text=f"Battle in {AREA_NAMES[a]}.")
    frame["fighting"] = True
    start_battle(state, a)
    if state["battle"] is not None or state["result"] is not None:
        return
    _after_battle(state, frame)


def _after_battle(state: State, frame: Frame) -> None:
    frame["fighting"] = False
    check_rescue(state)
    if state["result"] is not None:
        return
    occ = C.occupancy(state)
    state["battles"] = [a for a in state["battles"] if occ[0][a] and occ[1][a]]
    if not state["battles"]:
        supply.start_supply(state)
    elif len(state["battles"]) == 1:
        _choose_battle(state, frame, state["battles"][0])


class Battles(RichardStep):
    """The Battle Phase (6.x): Player 1 picks the next battle (C13); a single one is fought at
    once; after a battle pushed on top ends, the phase goes on (:func:`_after_battle`)."""

    name = "battles"
    phase = "battle"
    rule = "6.1"
    what = "the choice of the next battle"
    doing = {"battle": "choose a battle"}
    labels = {"battle": "Fight the battle in {area}"}

    def actors(self, state: State, frame: Frame) -> list[str]:
        if frame["fighting"] or len(state["battles"]) < 2:
            return []
        return [ROLES[state["p1"]]]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("battle", AREA_NAMES[a]) for a in state["battles"]]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Choose the next battle." if role in self.actors(state, frame) else "Player 1 chooses the next battle."

    def run(self, state: State, frame: Frame) -> None:
        if frame["fighting"]:
            _after_battle(state, frame)
        elif not state["battles"]:
            supply.start_supply(state)
        else:
            _choose_battle(state, frame, state["battles"][0])

    def on_battle(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _choose_battle(state, frame, _area_id(arg))


PHASE_STEPS = (Battles(),)
