"""Kingmaker for bots: what a position is worth (the contract's ``evaluate``, roses.ai).

The campaign is won by the player who controls the last royal heir alive, crowned, or by a
vote of Parliament for his crowned King (§Victory Conditions). So the evaluation counts, for each
player, a *score* made of these terms (:func:`terms`), and a player's value is his score
less the best of the other players' scores, squashed into (-1, 1):

``claim``      an heir held, one senior in his house (the only one who may be crowned, §Coronation Phase),
               one crowned (§Victory Conditions): the steps to the crown;
``heirs``      further heirs held (denied to the others), worth less than a rival heir dead:
               each stands between the faction and victory, so a bot keeps its senior heir
               and executes the others it holds (§Capture of Noble Counters);
``fallen``     for a faction holding an heir: every royal heir dead (§Victory Conditions: each other
               heir must die before the last one wins; the others gain nothing by it);
``coronation`` the route to a coronation of the senior heir held: the cathedral nearest to
               him (§Coronation Phase), archbishop or two bishops among the faction's nobles, both at
               hand (the coronation phase follows combat in the same turn);
``troops``     the faction's troops on the board (nobles, titles, offices, bishops,
               mercenaries: noble_strength), against all troops in play;
``offices``    titles, offices and bishops held (votes in Parliament, troops, Chancery);
``places``     towns, cities and castles the faction owns, ships it controls;
``hand``       Crown cards in hand (worth less than played: playing them adds troops);
``risk``       nobles (and heirs) in the open where an enemy stack at most one square away
               is stronger: what a battle may cost next turn;
``reach``      how near the faction's forces are to taking the heirs it could take (held by no
               one: by standing with them or a siege, §Capture of Royal Heirs, §Siege; held by
               an enemy: by a battle), the troops converging on each against what its capture
               needs, in travel steps (a sea passage counts as :data:`SEA_LEG` steps);
``parliament`` the faction's share of the Commons votes (a little for all, fully for the
               controller of a crowned King) and, for him, his King where Parliament may meet
               with a Writ in hand (§Victory Conditions, §Calling Parliament);
``alliances``  an alliance with a player who holds no heir (he cannot win before us);
               one with a rival claimant is worth less than none.

Everything is read from the state that a determinisation gives (roses.ai), so only what the
role may know (its own hand; other hands re-sampled) reaches the value.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Mapping

from roses.engine.contract import DRAW, State
from roses.games.kingmaker import cards as K
from roses.games.kingmaker.common import (
    Z_AWARD,
    Z_HAND,
    Z_NOBLE,
    W,
    allied,
    heir_controller,
    heir_loc,
    king_controller,
    kings,
    live_heirs,
    noble_strength,
    owner_of_card,
    player_of_role,
    senior_heir,
    ship_controller,
)
from roses.games.kingmaker.parliament import tally
from roses.games.kingmaker.queries import inside_nobles, parliament_places, summoner_figure, writs

#: Weights of the terms (a win is 1.0).
CLAIM_HELD, CLAIM_SENIOR, CLAIM_CROWNED = 0.12, 0.08, 0.16
EXTRA_HEIR, EXTRA_HEIR_CROWNED = 0.03, 0.0
RIVAL = 0.07
CORONATION_BISHOPS, CORONATION_NEAR, CORONATION_READY = 0.03, 0.06, 0.08
TROOPS = 0.16
OFFICE = 0.006
PLACE, SHIP = 0.003, 0.004
HAND = 0.003
RISK = 0.08
REACH = 0.8
ALLY = 0.02
#: How far (in land steps) the reach of a stack is worth counting.
REACH_STEPS = 24
#: Steps a sea passage between two ports counts for in the reach (a ship is needed).
SEA_LEG = 10
PARL_SHARE, PARL_PLACE, PARL_WRIT, COMMONS = 0.3, 0.02, 0.02, 0.1


def _players(state: State) -> Iterable[int]:
    return range(len(state["roles"]))


def _faction_nobles(state: State) -> dict[int, list[int]]:
    """Nobles in play by faction (captives excluded)."""
    cz, ch, ncap = state["cz"], state["ch"], state["ncap"]
    out: dict[int, list[int]] = {p: [] for p in _players(state)}
    for n in W(state).nobles:
        if cz[n] == Z_NOBLE and ncap[n] < 0 and ch[n] in out:
            out[ch[n]].append(n)
    return out


def _awards_by_noble(state: State) -> dict[int, list[int]]:
    cz, ch = state["cz"], state["ch"]
    out: dict[int, list[int]] = {}
    for c, z in enumerate(cz):
        if z == Z_AWARD:
            out.setdefault(ch[c], []).append(c)
    return out


def scores(state: State) -> dict[int, dict[str, float]]:
    """The named terms of every player's score (module docs)."""
    w = W(state)
    players = list(_players(state))
    nobles = _faction_nobles(state)
    amap = _awards_by_noble(state)
    strength = {n: noble_strength(state, n, amap=amap) for p in players for n in nobles[p]}
    on_board = {p: [n for n in nobles[p] if state["nsq"][n] is not None] for p in players}
    troops = {p: sum(strength[n] for n in nobles[p]) for p in players}
    all_troops = sum(troops.values()) or 1
    alive = live_heirs(state)
    held: dict[int, list[int]] = {p: [] for p in players}
    holder: dict[int, int] = {}
    for h in alive:
        q = heir_controller(state, h)
        holder[h] = q
        if q in held:
            held[q].append(h)
    seniors = {senior_heir(state, "lancaster"), senior_heir(state, "york")} - {-1}
    bf = w.beaufort
    bf_owner = owner_of_card(state, bf) if state["beaufort_crowned"] and state["cz"][bf] == Z_NOBLE else -1
    # Stacks in the open: (square, player) -> strength (for risk and reach).
    stacks: dict[tuple[str, int], int] = {}
    for p in players:
        for n in on_board[p]:
            if state["nin"][n] is None:
                key = (state["nsq"][n], p)
                stacks[key] = stacks.get(key, 0) + strength[n]
    everywhere: dict[tuple[str, int], int] = {}  # stacks in the open or inside a place
    for p in players:
        for n in on_board[p]:
            key = (state["nsq"][n], p)
            everywhere[key] = everywhere.get(key, 0) + strength[n]
    targets = _targets(state, everywhere, holder)
    votes = tally(state, {"sq": None})  # Commons votes of every faction now (§Who Votes)
    total_commons = sum(c for c, _ in votes) or 1
    by_sq: dict[str, list[tuple[int, int]]] = {}
    for (sq, q), v in sorted(stacks.items()):
        by_sq.setdefault(sq, []).append((q, v))
    ships: dict[int, int] = {}
    for sh in range(len(w.ships)):
        if state["spos"][sh] is not None:
            q = ship_controller(state, sh)
            ships[q] = ships.get(q, 0) + 1
    out: dict[int, dict[str, float]] = {}
    for p in players:
        t: dict[str, float] = {}
        mine = held[p]
        crowned = any(state["hcrown"][h] for h in mine) or bf_owner == p
        claim = 0.0
        if mine or bf_owner == p:
            claim += CLAIM_HELD
            if any(h in seniors for h in mine) or bf_owner == p:
                claim += CLAIM_SENIOR
            if crowned:
                claim += CLAIM_CROWNED
        t["claim"] = claim
        t["heirs"] = max(0, len(mine) - 1) * (EXTRA_HEIR_CROWNED if crowned else EXTRA_HEIR)
        t["fallen"] = RIVAL * (len(w.heirs) - len(alive)) if (mine or bf_owner == p) else 0.0
        t["coronation"] = _coronation(state, p, mine, seniors, nobles[p], amap) if not crowned else 0.0
        t["troops"] = TROOPS * troops[p] / all_troops
        offices = 0
        for n in nobles[p]:
            offices += sum(1 for c in amap.get(n, ()) if w.cards[c].kind in (K.TITLE, K.OFFICE, K.BISHOP))
        t["offices"] = OFFICE * offices
        places = sum(1 for o in state["pown"].values() if o == p)
        t["places"] = PLACE * min(places, 20) + SHIP * ships.get(p, 0)
        t["hand"] = HAND * sum(1 for c, z in enumerate(state["cz"]) if z == Z_HAND and state["ch"][c] == p)
        t["risk"] = -_risk(state, p, on_board[p], strength, stacks, mine, by_sq)
        t["reach"] = _reach(state, p, everywhere, targets, bool(mine), seniors)
        t["parliament"] = _parliament(state, p, votes, total_commons)
        t["alliances"] = sum((ALLY if not held[q] else -ALLY) for q in players if q != p and allied(state, p, q))
        out[p] = t
    return out


def _coronation(state: State, p: int, mine: list[int], seniors: set[int], nobles: list[int],
                amap: dict[int, list[int]]) -> float:
    """How far the faction is on the way to crowning its senior heir (§Coronation Phase)."""
    w = W(state)
    b = w.board
    crowned_houses = {w.heirs[h].house for h in live_heirs(state) if state["hcrown"][h]}
    cands = [h for h in mine if h in seniors and w.heirs[h].house not in crowned_houses]
    if not cands:
        return 0.0
    bishops_at: dict[tuple[str | None, str | None], int] = {}
    total = 0
    for n in nobles:
        worth = sum(2 if w.cards[c].archbishop else 1 for c in amap.get(n, ()) if w.cards[c].kind == K.BISHOP)
        if worth:
            loc = (state["nsq"][n], state["nin"][n])
            bishops_at[loc] = bishops_at.get(loc, 0) + worth
            total += worth
    value = CORONATION_BISHOPS * min(total, 2)
    best = 0.0
    for h in cands:
        sq, inside, ship = heir_loc(state, h)
        if sq is None:
            continue
        if inside is not None and b.places[inside].cathedral and bishops_at.get((sq, inside), 0) >= 2:
            return value + CORONATION_NEAR + CORONATION_READY
        dist = walk_distances(state, sq)
        d = min((dist[b.places[pl].square] for pl in _cathedrals(state) if b.places[pl].square in dist), default=None)
        if d is not None:
            near = CORONATION_NEAR / (1 + d) if total >= 2 else CORONATION_NEAR / (3 + d)
            best = max(best, near)
    return value + best


def _cathedrals(state: State) -> list[str]:
    w = W(state)
    key = "eval_cathedrals"
    found = w.cache.get(key)
    if found is None:
        found = sorted(pl for pl, d in w.board.places.items() if d.cathedral)
        w.cache[key] = found
    out: list[str] = found
    return out


def _risk(state: State, p: int, mine: list[int], strength: dict[int, int], stacks: dict[tuple[str, int], int],
          heirs: list[int], by_sq: dict[str, list[tuple[int, int]]]) -> float:
    """Troops (and heirs) of ``p`` in the open next to a stronger enemy stack."""
    b = W(state).board
    at_risk = 0.0
    total = sum(strength[n] for n in mine) or 1
    seen: set[str] = set()

    for n in mine:
        sq = state["nsq"][n]
        if state["nin"][n] is not None or sq in seen:
            continue
        seen.add(sq)
        own = stacks.get((sq, p), 0)
        near = (sq, *b.neighbours.get(sq, ()))
        threat = 0
        for s in near:
            for q, v in by_sq.get(s, ()):
                if v > threat and q != p and not allied(state, p, q):
                    threat = v
        if threat > own:
            share = own / total
            escorted = sum(1 for h in heirs if state["hesc"][h] >= 0 and state["nsq"][state["hesc"][h]] == sq)
            at_risk += share + 0.5 * escorted
    return RISK * min(at_risk, 2.0)


def walk_distances(state: State, start: str) -> Mapping[str, int]:
    """Squares a noble can walk to from ``start``, with the steps: land steps and the named
    crossings (``Board.walk_distances``, §Refuges)."""
    return W(state).board.walk_distances(start)


def _travel(state: State, start: str) -> dict[str, int]:
    """Steps from ``start`` to every square a noble can get to: land steps (rivers crossed,
    board.land_distances; the crossing to Anglesey, :func:`walk_distances`), and between any
    two ports :data:`SEA_LEG` steps (a ship's
    passage, §Sea Transportation), so that nobles abroad or on an island are drawn to a port
    rather than left with no way to their goal. Cached per board."""
    w = W(state)
    key = ("eval_travel", start)
    found = w.cache.get(key)
    if found is not None:
        out: dict[str, int] = found
        return out
    b = w.board
    ports = w.cache.get("eval_port_squares")
    if ports is None:
        ports = sorted({b.places[pid].square for pid in b.ports})
        w.cache["eval_port_squares"] = ports
    dist: dict[str, int] = {start: 0}
    heap = [(0, start)]
    port_set = set(ports)
    while heap:
        d, sq = heapq.heappop(heap)
        if d > dist.get(sq, 1 << 30):
            continue
        nexts = [(t, d + 1) for t, _ in b.land_steps.get(sq, ())] + [(t, d + 1) for t in b.crossing_steps(sq)]
        if sq in port_set:
            nexts += [(t, d + SEA_LEG) for t in ports]
        for t, nd in nexts:
            if nd < dist.get(t, 1 << 30):
                dist[t] = nd
                heapq.heappush(heap, (nd, t))
    w.cache[key] = dist
    return dist


def _targets(state: State, stacks: dict[tuple[str, int], int], holder: dict[int, int]
             ) -> list[tuple[int, int, str, int, dict[int, int]]]:
    """The heirs on land, once for all players: ``(heir, holder, square, troops of the
    holder's stack there, what a siege of the place he is in must beat)`` with the siege
    defence as the garrison plus the strongest other faction inside (§Siege, ruling K39),
    by attacker (key -1: any attacker with no noble inside)."""
    w = W(state)
    out: list[tuple[int, int, str, int, dict[int, int]]] = []
    for h, q in sorted(holder.items()):
        sq, inside, ship = heir_loc(state, h)
        if sq is None or ship >= 0:
            continue
        siege: dict[int, int] = {}
        if inside is not None:
            by: dict[int, int] = {}
            for m in inside_nobles(state, inside):
                o = state["ch"][m]
                if state["ncap"][m] < 0:
                    by[o] = by.get(o, 0) + noble_strength(state, m)
            garrison = w.board.places[inside].garrison
            rogue = state["rogue"]
            for a in [-1, *by]:
                siege[a] = 100 if rogue and rogue["place"] == inside else (
                    garrison + max((v for o, v in by.items() if o != a), default=0))
        out.append((h, q, sq, stacks.get((sq, q), 0) if q >= 0 else 0, siege))
    return out


def _reach(state: State, p: int, stacks: dict[tuple[str, int], int], targets: list[tuple[int, int, str, int,
           dict[int, int]]], claim: bool, seniors: set[int]) -> float:
    """How near ``p``'s forces are to taking the heirs he could take: held by no one (captured
    by standing with them, §Capture of Royal Heirs; inside a place, by a siege as strong as its
    defence, §Siege) or by an enemy stack (by a battle). An heir's *cover* is the troops of
    ``p``'s stacks, each weighed by its nearness (1 on the heir's square, 0 at
    :data:`REACH_STEPS` land steps), against what the capture needs (at most 1), squared: so stacks
    converge on a target until together they can take it, the last troops counting most. An heir taken is worth a claim to a
    faction without one (senior: more), and a rival to execute to one that holds an heir
    (§Victory Conditions); its reach is :data:`REACH` of that at most (taking it is worth more
    than standing next to it). The best target counts fully, the next ones half and a quarter."""
    mine: list[tuple[str, int]] = sorted((sq, v) for (sq, q), v in stacks.items() if q == p and v > 0)
    if not mine:
        return 0.0
    values: list[float] = []
    for h, q, sq, held_by, siege in targets:
        if q == p or (q >= 0 and allied(state, p, q)):
            continue
        need = held_by
        if siege:
            need = max(need, siege.get(p, siege[-1]))
        dist = _travel(state, sq)
        cover = 0.0
        for s, v in mine:
            d = dist.get(s)
            if d is None or d >= REACH_STEPS:
                continue
            near = (REACH_STEPS - d) / REACH_STEPS
            cover = max(cover, near) if need <= 0 else cover + near * min(v, need) / need
        if cover <= 0:
            continue
        worth = (RIVAL + EXTRA_HEIR) if claim else CLAIM_HELD + (CLAIM_SENIOR if h in seniors else 0.0)
        values.append(worth * min(cover, 1.0) ** 2)  # convex: completing a force counts most
    values.sort(reverse=True)
    return REACH * sum(v * f for v, f in zip(values, (1.0, 0.5, 0.25), strict=False))


def _parliament(state: State, p: int, votes: list[tuple[int, int]], total: int) -> float:
    """The route to a winning Parliament (§Victory Conditions: half the Commons votes plus one
    and most Lords votes for a crowned King under one's control; §Calling Parliament: the King
    in a town or city, a Writ to summon with). Every faction's share of the Commons votes
    counts a little (a claimant will need it); for the controller of a crowned King it counts
    fully, and his King in a place where Parliament may meet, with a Writ in hand, more."""
    share = votes[p][0] / total
    ks = [k for k in kings(state) if king_controller(state, k) == p]
    if not ks:
        return COMMONS * share
    value = PARL_SHARE * share
    fig = summoner_figure(state, p)
    if fig is not None and parliament_places(state, fig[0], fig[1]):
        value += PARL_PLACE
        if writs(state, p):
            value += PARL_WRIT
    return value


def _squash(x: float) -> float:
    return math.tanh(2.0 * x)


def evaluate_all(state: State, roles: list[str], horizon: int = 1) -> dict[str, float]:
    """Each role's value in (-1, 1): its score less the best other score (module docs); the
    result once the game is over (a draw, the round limit, is 0 for all)."""
    res = state["result"]
    if res is not None:
        winners = set(str(res).split(", "))
        return {r: (1.0 if r in winners else (0.0 if res == DRAW else -1.0)) for r in roles}
    s = scores(state)
    total = {p: sum(t.values()) for p, t in s.items()}
    out: dict[str, float] = {}
    for r in roles:
        if r not in state["roles"]:
            out[r] = 0.0
            continue
        p = player_of_role(state, r)
        others = [v for q, v in total.items() if q != p]
        out[r] = _squash(total[p] - (max(others) if others else 0.0))
    return out


def evaluate(state: State, role: str) -> float:
    return evaluate_all(state, [role])[role]


def evaluation_terms(state: State, role: str) -> dict[str, float]:
    """The named terms of ``role``'s score (for bots' rationales)."""
    if role not in state["roles"] or state["result"] is not None:
        return {}
    return dict(scores(state)[player_of_role(state, role)])


