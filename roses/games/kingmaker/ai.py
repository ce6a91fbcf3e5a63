"""Kingmaker for bots: determinisation (the contract's hook, roses.ai).

What a role does not know is re-sampled: the cards of the other players' hands, the Crown deck,
Chancery and the cards Treachery discarded face down (one pool, their slots kept); the other
players' Event hands and the Event deck (one pool); a Refuge card another player has in use is
swapped only with another unknown Refuge card (its use is public, its turns are not). The
generator is re-drawn from ``seed``; log lines hidden from the role are dropped. The ballots of
a Parliament vote not yet decided are re-drawn, and other seats' standing orders dropped, as
are the pending offers between two other seats (offers.py).
"""

from __future__ import annotations

import math
import pickle
import random
from collections.abc import Callable

from roses.engine.contract import Action, SearchHints, State
from roses.engine.log import readable_entries
from roses.games.kingmaker import ai_ferry, ai_sea, orders
from roses.games.kingmaker import cards as K
from roses.games.kingmaker import evaluation as E
from roses.games.kingmaker.combat import (
    AMBUSH,
    BATTLE,
    attack_power,
    attackers_at,
    defence,
    defenders_at,
)
from roses.games.kingmaker.common import (
    E_DECK,
    E_HAND,
    E_USE,
    Z_CHANC,
    Z_DECK,
    Z_HAND,
    Z_NOBLE,
    W,
    allied,
    heir_controller,
    heir_loc,
    heirs_of,
    king_controller,
    kings,
    live_heirs,
    noble_strength,
    owner_of_card,
    place_owner,
    player_of_role,
    role_of,
    senior_heir,
    sole_king,
    strength,
)
from roses.games.kingmaker.ops import place_active
from roses.games.kingmaker.parliament import tally
from roses.games.kingmaker.play import doomed_raiders, event_deck
from roses.games.kingmaker.queries import (
    MAINLAND,
    parliament_places,
    siege_defence,
    summoner_figure,
    writs,
)


def determinize(state: State, role: str, seed: int) -> State:
    p = player_of_role(state, role)
    r = random.Random(seed)
    out: State = pickle.loads(pickle.dumps({k: v for k, v in state.items() if k != "log"}, pickle.HIGHEST_PROTOCOL))
    out["log"] = readable_entries(state["log"], role)
    cz, ch = out["cz"], out["ch"]
    # ----- Crown cards: slots are (zone, holder) of every unknown card.
    tdisc = set(out.get("tdisc", ()))
    unknown = [c for c in range(len(cz)) if cz[c] in (Z_DECK, Z_CHANC) or (cz[c] == Z_HAND and ch[c] != p)
               or c in tdisc]
    if unknown:
        perm = unknown[:]
        r.shuffle(perm)
        mapping = dict(zip(unknown, perm, strict=True))
        slots = {c: (cz[c], ch[c]) for c in unknown}
        for old, new in mapping.items():
            cz[new], ch[new] = slots[old]
        for pile in ("cdeck", "chancery", "cdisc"):
            out[pile] = [mapping.get(c, c) for c in out[pile]]
        out["tdisc"] = [mapping.get(c, c) for c in out.get("tdisc", ())]
        for frame in out["stack"]:
            if frame.get("step") == "treachery":
                frame["slots"] = [mapping.get(c, c) if c >= 0 else c for c in frame["slots"]]
    # ----- Event cards.
    deck = event_deck(out)
    ez, eh = out["ez"], out["eh"]
    pool = [e for e in range(len(ez)) if ez[e] == E_DECK or (ez[e] == E_HAND and eh[e] != p)]
    in_use = [e for e in range(len(ez)) if ez[e] == E_USE and eh[e] != p and deck.cards[e].kind == "refuge"]
    emap: dict[int, int] = {}
    refuge_pool = [e for e in pool if deck.cards[e].kind == "refuge"] + in_use
    shuffled = refuge_pool[:]
    r.shuffle(shuffled)
    emap.update(zip(refuge_pool, shuffled, strict=True))
    rest = [e for e in pool if e not in emap]
    shuffled_rest = rest[:]
    r.shuffle(shuffled_rest)
    emap.update(zip(rest, shuffled_rest, strict=True))
    eslots = {e: (ez[e], eh[e]) for e in emap}
    for old, new in emap.items():
        ez[new], eh[new] = eslots[old]
    out["edeck"] = [emap.get(e, e) for e in out["edeck"]]
    for ref in out["refuges"]:
        ref["e"] = emap.get(ref["e"], ref["e"])
    # ----- Parliament's ballots not yet published and the other seats' standing orders
    # (orders.py) are hidden: ballots re-drawn, orders dropped.
    for frame in out["stack"]:
        if frame.get("step") == "vote":
            choices = [*frame["choices"], "abstain"] if frame["motion"] == "kings" else ["yes", "no", "abstain"]
            for k in sorted(frame["ballots"]):
                if int(k) != p:
                    frame["ballots"][k] = r.choice(choices)
    # Another player's move begun but not made (a noble or ship selected, not yet moved) is
    # his alone: in the new world he has selected nothing yet.
    for frame in out["stack"]:
        if frame.get("step") == "move" and frame["p"] != p:
            frame["sel"] = frame["ship"] = None
    if "standing" in out:
        out["standing"] = orders.determinized(state, role)
    if "offers" in out:  # offers.py: the terms of other seats' pending offers are theirs only
        out["offers"] = [o for o in out["offers"] if p in (o["from"], o["to"])]
    out["rng"] = r.getrandbits(64)
    out["rigged"] = []
    return out


# ----- search hints (Rules.search_hints, roses.engine.contract.SearchHints) -----------------------
#: Dealing verbs a bot uses (an alliance proposed or ended); its other offers are for people.
BOT_DEALS = frozenset(("ally", "end_alliance", "back"))


def search_choices(state: State, role: str, actions: list[Action]) -> list[Action]:
    """The actions a search bot chooses among. It never backs out of a noble or ship it chose
    to move (it chooses what it wants in the first place), marches on its objective (_march),
    summons Parliament when it controls a
    crowned King or none is crowned, votes and attends as its own interest says (_ballot,
    _attendance), opens the dealing menu only in its Crown phase (once a turn, so it proposes to a player at most once a round), and there only
    proposes an alliance to a player who holds no heir, or ends one with a player who now holds
    one (the alliance term of the evaluation, evaluation.py)."""
    stack = state.get("stack")
    if not stack:
        return actions
    step = stack[-1]["step"]
    if step == "move" and (stack[-1]["sel"] is not None or stack[-1]["ship"] is not None):
        return destinations(state, role, _out_of_refuge(state, role, [a for a in actions if a[0] != "back"]))
    if step == "move":
        doomed = _doomed_selects(state, role, actions)
        if doomed:
            return doomed
        ferry = _ferry(state, role, actions, ai_ferry.ferry_moves)
        return ferry or _march(state, role, [a for a in actions if a[0] != "deal"])
    if step == "deal":
        ferry = _ferry(state, role, actions, ai_ferry.ferry_deals)
        if ferry:
            return ferry
        return [a for a in actions if a[0] in BOT_DEALS and _deal_helps(state, role, a)]
    if step == "parliament":
        # §Victory Conditions: summon Parliament while holding a crowned King (a vote may win);
        # with no King crowned, the Chancellor summons too (§Distributing Cards: the summoner
        # proposes first for every Chancery card, and alone for the bishops a coronation needs).
        # With another's King crowned it passes (a vote between two Kings may give him the
        # sole crown, and the next motion the game).
        p = player_of_role(state, role)
        crowned = kings(state)
        summon = any(king_controller(state, k) == p for k in crowned) or not crowned
        return [a for a in actions if (a[0] == "summon") == summon][:1] or actions
    if step == "captive":
        return _captive(state, role, actions)
    if step == "vote":
        return _ballot(state, role, actions)
    if step == "attend":
        return _attendance(state, role, actions)
    if step == "combat":
        return _assault(state, role, actions)
    if step == "battle" and ("fight", None) in actions and _plans_attack(state, role, stack[-1]):
        return [("fight", None)]  # the attack its plan called for: no noble left out, not called off
    if step == "session":
        return _summons(state, role, actions)
    if step == "propose":
        return _proposal(state, role, actions)
    if step != "crown":
        return [a for a in actions if a[0] != "deal"]
    return actions


def _doomed_selects(state: State, role: str, actions: list[Action]) -> list[Action]:
    """The nobles of the bot who must leave a refuge this turn or be killed at its end, with
    the heirs they escort (E1 §Refuges, ruling K62: play.doomed_raiders) and who may still
    move: they move first. [] without one."""
    doomed = doomed_raiders(state, player_of_role(state, role))
    if not doomed:
        return []
    w = W(state)
    return [a for a in actions if a[0] == "select" and w.cid(str(a[1])) in doomed]


def _out_of_refuge(state: State, role: str, actions: list[Action]) -> list[Action]:
    """For a noble chosen to move who must leave his refuge this turn (:func:`_doomed_selects`):
    only the moves that take him out of its area, when there are any."""
    sel = state["stack"][-1]["sel"]
    if sel is None:
        return actions
    w = W(state)
    b = w.board
    n = w.cid(str(sel))
    if n not in doomed_raiders(state, player_of_role(state, role)):
        return actions
    here = b.squares[state["nsq"][n]].area

    def area(dest: str) -> str:
        return b.squares[b.places[dest].square if dest in b.places else dest].area

    out = [a for a in actions if a[0] == "to" and area(str(a[1])) != here]
    return out or actions


def _ferry(state: State, role: str, actions: list[Action],
           moves: Callable[[State, int, str, list[Action]], list[Action]]) -> list[Action]:
    """The ferry of a sole King off a land where Parliament may not meet, or of another heir off
    the mainland (ai_ferry), towards the faction's objective: ``moves`` (ai_ferry.ferry_moves
    or ferry_deals), [] without one."""
    p = player_of_role(state, role)
    if ai_ferry.heir_to_ferry(state, p) is None:
        return []  # the usual case, without working out the plan for it
    aim = objective(state, p)
    return moves(state, p, aim, actions) if aim is not None else []


def _captive(state: State, role: str, actions: list[Action]) -> list[Action]:
    """§Capture of Noble Counters: the captor of Beaufort executes him when Beaufort alone
    keeps his last Yorkist King from victory (ruling K79, :func:`beaufort_stands_in_the_way`
    once he is out of the prison); otherwise the search chooses."""
    w = W(state)
    frame = state["stack"][-1]
    n = frame["queue"][0] if frame.get("queue") else -1
    if n != w.beaufort:
        return actions
    if holds_last_yorkist_king(state, player_of_role(state, role)):
        return [a for a in actions if a[0] == "execute"] or actions
    return actions


def _summons(state: State, role: str, actions: list[Action]) -> list[Action]:
    """The summonses of a Parliament the bot called (§Calling Parliament: a Writ summons
    another player's noble, who attends and votes; the session opens once one is summoned):
    the motion of victory needs more Lords votes for than against (ruling K31), and a bishop
    from Chancery the Lords' votes (§Distributing Cards), where a summoned noble votes against
    the summoner's proposals; so it summons one noble with the fewest Lords votes (his own
    and his bishops') and opens the session."""
    if ("open", None) in actions:
        return [("open", None)]
    w = W(state)
    amap = E._awards_by_noble(state)

    def lords(a: Action) -> tuple[int, str]:
        n = w.cid(str(a[1]))
        bishops = sum(w.cards[c].lords for c in amap.get(n, ()) if w.cards[c].kind == K.BISHOP)
        return (w.cards[n].lords + bishops, str(a[1]))

    summons = sorted((a for a in actions if a[0] == "writ"), key=lords)
    return summons[:1] or actions


def _proposal(state: State, role: str, actions: list[Action]) -> list[Action]:
    """The bot proposing a recipient for a Chancery card (§Distributing Cards) names one of its
    own nobles, the strongest (ties by name), so the card (a bishop for a coronation, §Coronation Phase; a
    title or office, its troops and votes) goes to its faction if the vote passes; with none of
    its own to name, the search chooses."""
    p = player_of_role(state, role)
    w = W(state)
    own = [a for a in actions if a[0] == "propose" and state["ch"][w.cid(str(a[1]))] == p]
    if not own:
        return actions
    return [min(own, key=lambda a: (-noble_strength(state, w.cid(str(a[1]))), str(a[1])))]


def _plans_attack(state: State, role: str, frame: dict[str, object]) -> bool:
    """Whether the combat of ``frame`` (a ``battle`` step) is the attack of the plan of the
    bot's faction (on the plan's place, or a battle on the plan's square, :func:`_assault`)
    with :data:`BATTLE_MARGIN` times the defence."""
    p = player_of_role(state, role)
    if frame.get("att") != p:
        return False
    got = plan(state, p)
    if got is None:
        return False
    aim, place = got
    if place is not None:
        ours = frame.get("kind") in ("siege", "storm") and frame.get("place") == place
    else:
        ours = frame.get("kind") == BATTLE and frame.get("sq") == aim and frame.get("place") is None
    margin = 1.0 if frame.get("kind") == "siege" else BATTLE_MARGIN  # §Siege: a siege always succeeds but on Bad Weather
    return ours and attack_power(state, frame) >= margin * defence(state, frame)


def _assault(state: State, role: str, actions: list[Action]) -> list[Action]:
    """The combat phase with a plan: a place (the cathedral, the place an heir is in, where
    Parliament is to meet) another holds is besieged once the faction's attackers there match
    its defence (§Siege: a siege always succeeds but on Bad Weather), besieged or stormed once
    they have :data:`BATTLE_MARGIN` times it (E1 storming: a failed storm costs nobles), the
    search choosing between the two; an enemy stack escorting the heir of the plan is attacked once
    the faction's attackers there have :data:`BATTLE_MARGIN` times its strength, and not before."""
    p = player_of_role(state, role)
    rest = [a for a in actions if a[0] != "deal"]
    got = plan(state, p)
    if got is None:
        return rest
    aim, place = got
    if place is not None:
        attack = [a for a in actions if a[0] in ("siege", "storm") and a[1] == place]
        power = strength(state, attackers_at(state, p, W(state).board.places[place].square), attack=True)
        need = siege_defence(state, place, p)
        if attack and power >= BATTLE_MARGIN * need:
            return attack
        # §Siege: a siege always succeeds but on Bad Weather (E1/E2: resolved the next turn),
        # so with the garrison matched the bot besieges; a storm (a battle, lost nobles if
        # it fails) waits for the margin.
        besiege = [a for a in attack if a[0] == "siege"]
        if besiege and power >= need:
            return besiege
        return rest
    # An heir in the open held by an enemy stack (§Capture of Royal Heirs: taken by defeating
    # it, §Battle): the faction gathers BATTLE_MARGIN times its strength there before it
    # attacks, then attacks.
    holders = {role_of(state, q) for h in live_heirs(state)
               if (q := heir_controller(state, h)) >= 0 and q != p and not allied(state, p, q)
               and heir_loc(state, h)[:2] == (aim, None)}
    bf = W(state).beaufort
    if beaufort_stands_in_the_way(state, p) and (state["nsq"][bf], state["nin"][bf]) == (aim, None):
        holders.add(role_of(state, owner_of_card(state, bf)))  # ruling K79: Beaufort's stack
    if not holders:
        return rest
    ours = strength(state, attackers_at(state, p, aim), attack=True)
    ready: list[Action] = []
    for r in sorted(holders):
        theirs = strength(state, defenders_at(state, player_of_role(state, r), aim))
        fight = [a for a in rest if a[0] in (BATTLE, AMBUSH) and a[1] == [aim, r]]
        if ours >= BATTLE_MARGIN * theirs:
            ready += fight
        else:
            rest = [a for a in rest if a not in fight]
    return ready or rest


def _march(state: State, role: str, actions: list[Action]) -> list[Action]:
    """The movement phase with an objective (:func:`objective`): the nobles not yet on its
    square who can get there by land march on it before the bot may end its movement (the search still chooses who goes
    first, and other moves: ships, cards, escorts); nobles already there stay."""
    p = player_of_role(state, role)
    got = plan(state, p)
    if got is None:
        return actions
    aim, place = got
    w = W(state)
    if place is not None and place_owner(state, place) == p and (
            w.board.places[place].cathedral or w.board.places[place].parliament):
        # §Coronation Phase: the heir is crowned inside the cathedral; §Calling Parliament:
        # the King stands inside the fortified town or city: the nobles there go in.
        enter = [a for a in actions if a[0] == "enter" and a[1][1] == place]
        if enter:
            return enter
    if place is not None and place_owner(state, place) != p and _loose_heir_inside(state, place):
        # §Capture of Royal Heirs, §Siege: an heir no one holds inside another's place is taken
        # with the place by a siege; a noble let in as a guest takes no one, and his troops
        # inside are missing from the siege. The faction's guests there come out, none goes in.
        out = [a for a in actions if a[0] == "leave" and state["nin"][w.cid(str(a[1]))] == place]
        if out:
            return out
        actions = [a for a in actions if not (a[0] == "enter" and a[1][1] == place)]
    sea = ai_sea.sea_moves(state, p, aim, actions)
    if sea:  # §Sea Transportation: embark, sail the passengers to a landing, fetch waiting nobles
        return sea
    land = E.walk_distances(state, aim)
    kept = [a for a in actions if not (a[0] == "select" and state["nsq"][w.cid(str(a[1]))] == aim)]
    if ai_sea.waiting(state, p, aim) and ai_sea.can_land(state, p, aim):  # nobles waiting in their pickup port stay there for the ship
        kept = [a for a in kept if not (a[0] == "select" and _waits_in_port(state, p, w.cid(str(a[1])), aim))]
    if any(a[0] == "select" and state["nsq"][w.cid(str(a[1]))] in land for a in kept):
        kept = [a for a in kept if a[0] != "end"]
    return kept or actions


def _loose_heir_inside(state: State, place: str) -> bool:
    """Whether a live heir no one holds is inside ``place``."""
    return any(state["hesc"][h] < 0 and state["hin"][h] == place for h in live_heirs(state))


def _waits_in_port(state: State, p: int, n: int, aim: str) -> bool:
    sq = state["nsq"][n]
    if sq is None or sq in E.walk_distances(state, aim):
        return False
    return ai_sea.noble_goal(state, p, n, aim) == sq


def _ballot(state: State, role: str, actions: list[Action]) -> list[Action]:
    """A bot's vote (§Voting on Cards Distributed, §Victory Conditions): for its own King as the
    one and only King and against another's; in a vote between two Kings for its own, else
    abstaining; for a card going to its own noble and against one going to another
    faction's; abstaining on the other motions. The vote is simultaneous, so the search
    would see no difference between the ballots before all are cast."""
    p = player_of_role(state, role)
    frame = state["stack"][-1]
    session = state["stack"][-2] if len(state["stack"]) > 1 else {}
    motion = frame["motion"]
    choice = "abstain"
    if motion == "victory":
        choice = "yes" if session.get("victor") == p else "no"
    elif motion == "kings":
        w = W(state)
        for name in frame["choices"]:
            k = -2 if name == "beaufort" else w.heir_codec.id(name)
            if king_controller(state, k) == p:
                choice = name
    elif motion in ("award", "bishop") and session.get("recipient") is not None:
        choice = "yes" if state["ch"][session["recipient"]] == p else "no"
    picked = [a for a in actions if a == ("vote", choice)]
    return picked or actions


def _attendance(state: State, role: str, actions: list[Action]) -> list[Action]:
    """Nobles attend a Parliament where the one and only King will be voted on (Lords votes
    need attendance, §Counting Votes): to carry the vote for its own King, or to vote down
    another's when his controller's own Commons votes reach the majority the motion needs
    (§Victory Conditions: half the total plus one; the other bots vote against it, so without
    that majority it fails without them, and their nobles keep to their plan instead of
    going to Parliament and home again); otherwise the bot is done."""
    k = sole_king(state)
    q = king_controller(state, k) if k is not None else -1
    if q >= 0 and (q == player_of_role(state, role) or commons_majority(state, q)):
        attend = [a for a in actions if a[0] == "attend"]
        if attend:
            return attend
    return [a for a in actions if a[0] == "done"] or actions


def commons_majority(state: State, q: int) -> bool:
    """Whether ``q``'s Commons votes alone are half the total plus one (§Victory Conditions,
    ruling K31), counted as Parliament counts them (parliament.tally)."""
    session = next((f for f in reversed(state.get("stack") or []) if f.get("step") == "session"), {"sq": None})
    votes = tally(state, session)
    total = sum(c for c, _ in votes)
    return votes[q][0] >= total // 2 + 1


def _deal_helps(state: State, role: str, action: Action) -> bool:
    verb, arg = action
    if verb == "back":
        return True
    q = player_of_role(state, str(arg))
    return bool(heirs_of(state, q)) == (verb == "end_alliance")


#: Destinations of a noble or ship a search bot weighs (the nearest to its goals).
KEEP_DESTINATIONS = 10


def follow_actions(state: State, role: str, actions: list[Action]) -> list[Action]:
    """The actions the heuristic bot's follow-up search tries after a move: where the noble
    or ship it chose goes (the destinations nearest its goals), and fighting a combat it
    opened; nothing else (a decision is worth its own result: the evaluation already counts
    what a position promises). The move itself is still chosen among all actions."""
    stack = state.get("stack")
    if not stack:
        return []
    frame = stack[-1]
    if frame["step"] == "move" and (frame["sel"] is not None or frame["ship"] is not None):
        return destinations(state, role, [a for a in actions if a[0] == "to"])
    if frame["step"] == "battle":
        return [a for a in actions if a[0] == "fight"]
    return []


def destinations(state: State, role: str, actions: list[Action]) -> list[Action]:
    """The ``to`` actions of the noble or ship chosen, nearest first to the mover's goals, at
    most :data:`KEEP_DESTINATIONS`; other actions are kept. A noble of a faction with an
    objective (:func:`objective`) keeps only the destinations nearest to it; otherwise (and for
    a ship) the goals are the heirs it does not hold, a cathedral for the senior heir it
    escorts, else the enemy's nobles."""
    tos = [a for a in actions if a[0] == "to"]
    if not tos:
        return actions
    w = W(state)
    b = w.board
    p = player_of_role(state, role)
    goals: set[str] = set()
    for h in range(len(w.heirs)):
        if state["hdead"][h]:
            continue
        q = heir_controller(state, h)
        if q != p and (q < 0 or not allied(state, p, q)):
            sq = heir_loc(state, h)[0]
            if sq is not None:
                goals.add(sq)
    frame = state["stack"][-1]
    fetch = None
    if ai_ferry.heir_to_ferry(state, p) is not None:  # cheap: the usual case ends here
        target = objective(state, p)
        fetch = ai_ferry.fetch_destinations(state, p, target, frame, tos) if target is not None else None
    if fetch:  # a bearer (or his ship) fetched to a stranded heir (ai_ferry.fetch_plan)
        keep_fetch = {str(a[1]) for a in fetch}
        return [a for a in actions if a[0] != "to" or str(a[1]) in keep_fetch]
    aim = None
    if frame["ship"] is not None:  # a ship of a faction with an objective: the sea plan (ai_sea)
        target = objective(state, p)
        if target is not None and ai_sea.can_land(state, p, target):
            s = w.ship_codec.id(frame["ship"])
            keep_to = {str(a[1]) for a in ai_sea.rank_ship_destinations(state, p, s, target, tos)}
            return [a for a in actions if a[0] != "to" or str(a[1]) in keep_to]
    if frame["sel"] is not None:
        n = w.cid(frame["sel"])
        if any(state["hesc"][h] == n for h in heirs_of(state, p)):
            goals.update(b.places[pl].square for pl in sorted(b.places) if b.places[pl].cathedral)
        aim = objective(state, p)
        if aim is not None:  # the faction's one objective: every noble marches on it together
            goals = {aim}
    if not goals:  # no heir to take: the enemy's nobles
        goals = {sq for n in w.nobles if state["cz"][n] == Z_NOBLE and state["ch"][n] != p
                 and (sq := state["nsq"][n]) is not None}
    # Towards the objective by land; a noble cut off from it by sea goes to a port
    # (evaluation._travel counts sea passages).
    if aim is not None:
        land = E.walk_distances(state, aim)
        here = state["nsq"][w.cid(frame["sel"])]
        port = ai_sea.noble_goal(state, p, w.cid(frame["sel"]), aim) if here not in land else None
        if here in land:
            goal_dist = [land]
        elif port is not None and ai_sea.can_land(state, p, aim):  # to his port, for the ship
            goal_dist = [E.walk_distances(state, port)]
        else:
            goal_dist = [E._travel(state, aim)]
    else:
        goal_dist = [E.walk_distances(state, g) for g in sorted(goals)]

    def far(a: Action) -> tuple[int, str]:
        dest = str(a[1])
        sq = b.places[dest].square if dest in b.places else dest
        return (min((d.get(sq, 99) for d in goal_dist), default=99), dest)

    ranked = sorted(tos, key=far)
    if aim is not None:  # the plan: only the steps that bring the noble nearest to the objective
        least = far(ranked[0])[0]
        ranked = [a for a in ranked if far(a)[0] == least]
    keep = {str(a[1]) for a in ranked[:KEEP_DESTINATIONS]}
    return [a for a in actions if a[0] != "to" or str(a[1]) in keep]


#: A battle against an enemy stack is sought with this much more strength than it has (the
#: Combat Results card reads ratios from 1-1 to 5-1, §Battle: the larger the ratio, the surer).
BATTLE_MARGIN = 1.5


def objective(state: State, p: int) -> str | None:
    """The square of the faction's plan (:func:`plan`), None without one."""
    got = plan(state, p)
    return got[0] if got else None


#: Extra steps a cathedral held by another costs in the choice of one (a siege to take it first).
CATHEDRAL_SIEGE_STEPS = 3


def plan(state: State, p: int) -> tuple[str, str | None] | None:
    """The square every noble of ``p`` marches on (a plan, so that the faction gathers one
    force instead of spreading over all goals): with the senior heir of an uncrowned house
    and an archbishop or two bishops among its nobles, the cathedral nearest to that heir
    (§Coronation Phase); else the heir it can take at the least cost: held by no one (in a
    place: a siege must match the garrison and any nobles inside, §Siege; in the open: any
    noble, §Capture of Royal Heirs) or by an enemy (a battle with :data:`BATTLE_MARGIN` times
    his stack, §Battle), within the faction's whole strength on the board, nearest to its
    troops (strength-weighted travel steps, evaluation._travel), a senior heir counting
    double for a faction without one. None when the faction has no noble on the board or no
    heir is within the strength of its nobles who can march to him by land, or cross the sea
    to him by ship (ai_sea). Returned as ``(square, place)``: the place the plan must enter or
    take (the cathedral; the place the heir is in), None for an heir in the open. A cathedral
    another faction holds costs :data:`CATHEDRAL_SIEGE_STEPS` more steps, and one whose
    defence (§Siege) exceeds the faction's strength is none. A crowned heir counts double
    (§Victory Conditions: a King under one's control opens the Parliament route; a rival King
    dead leaves one's own the sole King). Before all these, the controller of the sole King with
    half the Commons votes plus one and a Writ in hand takes him where Parliament may meet
    (:func:`parliament_seat`), and so does one with no heir to take. The controller of the sole King short of that majority
    weighs the towns and cities he could take beside the heirs (:func:`_commons_targets`)."""
    w = W(state)
    amap = E._awards_by_noble(state)
    nobles = [n for n in E._faction_nobles(state)[p] if state["nsq"][n] is not None and state["nship"][n] < 0]
    if not nobles:  # all at sea: a King aboard is taken where Parliament may meet (ai_sea lands him)
        return parliament_seat(state, p, 0)
    strength = {n: noble_strength(state, n, amap=amap) for n in nobles}
    total = sum(strength.values())
    if total <= 0:
        return None
    mine = heirs_of(state, p)
    seniors = {senior_heir(state, "lancaster"), senior_heir(state, "york")} - {-1}
    crowned = {w.heirs[h].house for h in range(len(w.heirs)) if state["hcrown"][h] and not state["hdead"][h]}
    if state["beaufort_crowned"]:
        crowned.add("lancaster")
    bishops = sum(2 if w.cards[c].archbishop else 1 for n in nobles for c in amap.get(n, ())
                  if w.cards[c].kind == K.BISHOP)
    # §Victory Conditions, §Calling Parliament: the sole King's controller with half the
    # Commons votes plus one and a Writ in hand brings his King where Parliament may meet, all
    # his force with him (a vote there may win; the gathered force guards him). Without a Writ
    # no Parliament can be summoned (§Calling Parliament, step 2): his force, the King with it,
    # goes after the other heirs instead (the last royal heir crowned wins too), and turns back
    # to the seat once a Writ comes.
    seat = parliament_seat(state, p, total)
    if seat is not None and commons_share_wins(state, p) and writs(state, p):
        return seat
    rival = _beaufort_target(state, p, strength)
    if rival is not None:
        return rival
    for h in mine:
        if h in seniors and w.heirs[h].house not in crowned and bishops >= 2:
            cath = _cathedral_for(state, p, h, total)
            if cath is not None:
                return cath
    if bishops < 2 and any(h in seniors and w.heirs[h].house not in crowned for h in mine):
        chancery = chancellor_seat(state, p, total)  # bishops from Chancery (§Distributing Cards)
        if chancery is not None:
            return chancery
    everywhere: dict[tuple[str, int], int] = {}
    for q, ns in E._faction_nobles(state).items():
        for n in ns:
            if state["nsq"][n] is not None:
                key = (state["nsq"][n], q)
                everywhere[key] = everywhere.get(key, 0) + noble_strength(state, n, amap=amap)
    holder = {h: heir_controller(state, h) for h in live_heirs(state)}
    best: tuple[float, str, str | None] | None = None
    for h, q, sq, held_by, siege in E._targets(state, everywhere, holder):
        if q == p or (q >= 0 and allied(state, p, q)):
            continue
        need = math.ceil(held_by * BATTLE_MARGIN)
        if siege:
            need = max(need, siege.get(p, siege[-1]))
        land = E.walk_distances(state, sq)
        marching = sum(v for n, v in strength.items() if state["nsq"][n] in land)
        if (marching <= 0 or need > marching) and ai_sea.can_land(state, p, sq):
            marching = total  # the others cross by ship (ai_sea, §Sea Transportation)
        if marching <= 0 or need > marching:
            continue  # beyond the strength that can get there
        dist = E._travel(state, sq)
        steps = sum(strength[n] * dist.get(state["nsq"][n], 99) for n in nobles) / total
        worth = 2.0 if (not mine and h in seniors) else 1.0
        if state["hcrown"][h]:  # a King: the Parliament route opens (§Victory Conditions), to
            worth *= 2.0  # a faction with none by taking him, to a rival King's by his death
        cost = (1.0 + steps) / worth
        if best is None or (cost, sq) < best[:2]:
            best = (cost, sq, heir_loc(state, h)[1])
    if seat is not None:  # his King, short of the Commons majority: the towns and cities to take
        for cost, sq, pl in _commons_targets(state, p, strength):
            if best is None or (cost, sq) < best[:2]:
                best = (cost, sq, pl)
    if best is None:
        return seat  # nothing to take: the King (if any) to where Parliament may meet, guarded
    return best[1], best[2]


def holds_last_yorkist_king(state: State, p: int) -> bool:
    """Whether ``p`` controls the last royal heir alive and he is a crowned Yorkist."""
    alive = live_heirs(state)
    if len(alive) != 1:
        return False
    h = alive[0]
    return heir_controller(state, h) == p and bool(state["hcrown"][h]) and W(state).heirs[h].house == "york"


def beaufort_stands_in_the_way(state: State, p: int) -> bool:
    """Whether ``p`` controls the last royal heir alive, a crowned Yorkist, while Beaufort (not
    his) is in play on land, out of anyone's prison: §Victory Conditions, ruling K79, a last
    Yorkist King wins only once Beaufort is out of play."""
    if state["beaufort_crowned"] or not holds_last_yorkist_king(state, p):
        return False
    bf = W(state).beaufort
    return (state["cz"][bf] == Z_NOBLE and state["nsq"][bf] is not None and state["nship"][bf] < 0
            and owner_of_card(state, bf) not in (p, -1) and state["ncap"][bf] < 0)


def _beaufort_target(state: State, p: int, forces: dict[int, int]) -> tuple[str, str | None] | None:
    """The plan of :func:`beaufort_stands_in_the_way`: Beaufort's square (and the place he is
    in), to defeat his stack with :data:`BATTLE_MARGIN` times its strength (§Battle) or take
    his place by a siege matching its defence (§Siege), then execute him
    (§Capture of Noble Counters); None when the faction's nobles who can march there by land
    fall short."""
    if not beaufort_stands_in_the_way(state, p):
        return None
    bf = W(state).beaufort
    sq, inside = state["nsq"][bf], state["nin"][bf]
    if inside is not None:
        need = siege_defence(state, inside, p)
    else:
        need = math.ceil(BATTLE_MARGIN * strength(state, defenders_at(state, owner_of_card(state, bf), sq)))
    land = E.walk_distances(state, sq)
    marching = sum(v for n, v in forces.items() if state["nsq"][n] in land)
    if marching <= 0 or need > marching:
        return None
    return sq, inside


#: What a town or city the sole King's controller may take is worth in the choice of a plan, against
#: an heir's 1.0 (a city, 4 Commons votes; a town 3/4 of it; one no faction holds 3/4 again: it
#: adds to the total as well as to the faction's share).
COMMONS_TOWN_WORTH = 1.0
NEUTRAL_TOWN = 0.75


def _commons_targets(state: State, p: int, strength: dict[int, int]) -> list[tuple[float, str, str]]:
    """For the controller of the sole King whose Commons votes fall short of half the total
    plus one (§Victory Conditions, ruling K31): each town or city that counts in Commons
    (§Who Votes: a controlled city 4, a town 3; not Calais or Dublin) another faction holds or no one
    does, active and not besieged by another, whose siege defence (§Siege) the faction's nobles
    who can march there by land match, with its cost as :func:`plan` reckons an heir's (the
    strength-weighted land steps of the faction's nobles to it, over its worth:
    :data:`COMMONS_TOWN_WORTH` for a city, 3/4 of it for a town, :data:`NEUTRAL_TOWN` times that
    for one no faction holds). ``(cost, square, place)``, none once the majority is his."""
    if commons_share_wins(state, p):
        return []
    w = W(state)
    b = w.board
    total = sum(strength.values())
    out: list[tuple[float, str, str]] = []
    for pl in _commons_places(state):
        d = b.places[pl]
        o = place_owner(state, pl)
        if o == p or not place_active(state, pl) or state["siege"].get(pl, p) != p:
            continue
        land = E.walk_distances(state, d.square)
        marching = sum(v for n, v in strength.items() if state["nsq"][n] in land)
        if marching <= 0 or siege_defence(state, pl, p) > marching:
            continue
        steps = sum(v * land.get(state["nsq"][n], 99) for n, v in strength.items()) / total
        worth = COMMONS_TOWN_WORTH * (1.0 if d.commons == "city" else 0.75) * (1.0 if o >= 0 else NEUTRAL_TOWN)
        out.append(((1.0 + steps) / worth, d.square, pl))
    return out


def _commons_places(state: State) -> list[str]:
    """Towns and cities whose control counts in Commons (board data, §Who Votes), cached per board."""
    w = W(state)
    found = w.cache.get("ai_commons_places")
    if found is None:
        found = sorted(pl for pl, d in w.board.places.items() if d.commons is not None)
        w.cache["ai_commons_places"] = found
    out: list[str] = found
    return out


def _cathedral_for(state: State, p: int, h: int, total: int) -> tuple[str, str] | None:
    """The cathedral nearest to heir ``h`` (travel steps), one another faction holds costing
    :data:`CATHEDRAL_SIEGE_STEPS` more and one whose siege defence exceeds ``total`` none:
    ``(square, place)``, None when there is none."""
    b = W(state).board
    sq = heir_loc(state, h)[0]
    if sq is None:
        return None
    dist = E._travel(state, sq)
    cath: list[tuple[int, str, str]] = []
    for pl in E._cathedrals(state):
        d = dist.get(b.places[pl].square, 999)
        if d >= 999 or not place_active(state, pl):
            continue
        if place_owner(state, pl) != p:
            if siege_defence(state, pl, p) > total:
                continue
            d += CATHEDRAL_SIEGE_STEPS
        cath.append((d, b.places[pl].square, pl))
    if not cath:
        return None
    best = min(cath)
    return best[1], best[2]


def commons_share_wins(state: State, p: int) -> bool:
    """Whether ``p``'s Commons votes now are half the total plus one (§Victory Conditions,
    ruling K31), counted as Parliament counts them outside a session (parliament.tally)."""
    votes = tally(state, {"sq": None})
    total = sum(c for c, _ in votes)
    return total > 0 and votes[p][0] >= total // 2 + 1


def parliament_seat(state: State, p: int, power: int) -> tuple[str, str | None] | None:
    """Where the sole King ``p`` controls should stand for a Parliament (§Calling Parliament:
    in a town or city, not a castle, nor Calais or Dublin, not besieged; inside it when it is
    fortified): where he is if Parliament may meet there; else the nearest such place to him
    that ``p`` owns (entered), or an unfortified one (in the open of its square), or
    one whose siege defence ``power`` matches (:data:`CATHEDRAL_SIEGE_STEPS` more steps: a
    siege first); nearest by land, a sea passage counting :data:`evaluation.SEA_LEG` steps (a King
    in Ireland, Calais or on an island crosses by ship, ai_sea; one at sea is reckoned from the
    nearest mainland port his ship may enter, :func:`_seat_from_sea`). ``(square, place)``, the
    place None for an unfortified one; None when ``p`` controls no sole King."""
    k = sole_king(state)
    if k is None or king_controller(state, k) != p:
        return None
    w = W(state)
    if k == -2:
        sq, inside, ship = state["nsq"][w.beaufort], state["nin"][w.beaufort], state["nship"][w.beaufort]
    else:
        sq, inside, ship = heir_loc(state, k)
    if ship >= 0:
        return _seat_from_sea(state, p, ship, power)
    if sq is None:
        return None
    return _seat_from(state, p, sq, inside, power)


def _seat_from_sea(state: State, p: int, s: int, power: int) -> tuple[str, str | None] | None:
    """Where Parliament may meet for a King of ``p`` aboard ship ``s`` (§Sea Transportation:
    nobles land only when their ship enters a port; §Calling Parliament: a town or city of
    the mainland): reckoned as :func:`parliament_seat` does from the square of the nearest
    mainland port the ship may enter (its faction's own, or unfortified; ties by id), so that
    the ship sails its passengers towards that seat (ai_sea) instead of staying at sea. None
    when it may enter no such port."""
    b = W(state).board
    pos = state["spos"][s]
    if pos is None:
        return None
    dist = {pos: 0} if pos in b.places else b.port_distances(pos)
    best: tuple[int, str] | None = None
    for port, d in dist.items():
        pl = b.places[port]
        if pl.area not in MAINLAND or not place_active(state, port):
            continue
        if pl.fortified and place_owner(state, port) != p:
            continue
        if best is None or (d, port) < best:
            best = (d, port)
    if best is None:
        return None
    return _seat_from(state, p, b.places[best[1]].square, None, power)


def chancellor_seat(state: State, p: int, power: int) -> tuple[str, str | None] | None:
    """Where ``p``'s Chancellor should stand to summon Parliament (§Calling Parliament: with two
    Kings or none, the Chancellor's player holding a Parliament card and a Writ summons it to a
    town or city where the Chancellor stands), as :func:`parliament_seat` reckons the King's;
    None when ``p`` may not summon so (no sole King aside, a Parliament card, a Writ, his
    Chancellor free and ashore). The summoner proposes first for every Chancery card and
    alone for a bishop (§Distributing Cards), so a faction with an heir to crown and no
    bishops goes there."""
    if sole_king(state) is not None or not writs(state, p):
        return None
    fig = summoner_figure(state, p)
    n = W(state).chancellor
    if fig is None or fig[0] is None or state["nship"][state["ch"][n]] >= 0:
        return None
    return _seat_from(state, p, fig[0], fig[1], power)


def _seat_from(state: State, p: int, sq: str, inside: str | None, power: int) -> tuple[str, str | None] | None:
    """The nearest place where Parliament may meet for a figure of ``p`` at (sq, inside): see
    :func:`parliament_seat`."""
    b = W(state).board
    if parliament_places(state, sq, inside):
        return sq, inside
    travel = E._travel(state, sq)  # by land, or by ship from an island, Ireland or Calais (ai_sea)
    best: tuple[int, str, str] | None = None
    for pl in _parliament_towns(state):
        where = b.places[pl].square
        d = travel.get(where)
        if d is None or not place_active(state, pl) or pl in state["siege"]:
            continue
        if place_owner(state, pl) != p and b.places[pl].fortified:
            if siege_defence(state, pl, p) > power:
                continue
            d += CATHEDRAL_SIEGE_STEPS
        if best is None or (d, where, pl) < best:
            best = (d, where, pl)
    if best is None:
        return None
    pl = best[2]
    return best[1], (pl if b.places[pl].fortified else None)


def _parliament_towns(state: State) -> list[str]:
    """Towns and cities where Parliament may meet (board data, §Calling Parliament), cached per board."""
    w = W(state)
    found = w.cache.get("ai_parliament_towns")
    if found is None:
        found = sorted(pl for pl, d in w.board.places.items() if d.parliament)
        w.cache["ai_parliament_towns"] = found
    out: list[str] = found
    return out


SEARCH_HINTS = SearchHints(follow_worlds=1, follow_filter=follow_actions, best_on_line=True,
                           choices=search_choices)
