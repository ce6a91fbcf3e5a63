"""Kingmaker Parliament (§Parliament Phase; E1 ship vote §Sea Transportation; King's Pardon §Crown Card Key).

The Parliament phase (``parliament`` step) lets the controller of the sole King, or with two
Kings or none the Chancellor's player holding a Parliament card, summon Parliament to a town or
city (not a castle, Calais or Dublin, not under siege: ruling K11) where his King or Chancellor
stands. A session (``session`` step) then runs the agenda:

1. summonses: one Writ card per noble of another player (the King's controller needs only Writs,
   ruling K10); the summoned move there at once;
2. voluntary attendance (every player at once, ``attend`` noble / ``done``);
3. with two crowned Kings, the vote of support (§Voting on Cards Distributed);
4. the motion that the sole King's controller's King be the one and only King: with a Commons
   majority (half the total + 1) and most Lords votes he wins (§Victory Conditions, ruling K31);
5. E1: the vote to restore lost Admiral's/Warden's ships (§Sea Transportation);
6. Chancery: each card in turn is proposed by the summoner, then (after a refusal) by the largest
   Commons holder, then the second-largest Lords holder (§Distributing Cards, ruling K12); the recipient's
   player may decline; titles and offices need both Houses, bishops the Lords only; King's Pardons
   are voted back to the discard or kept in Chancery;
7. the King's peace in the square and the free move home (§King's peace, §Ending Parliament).

Votes (``vote`` step): every player with votes answers at once ``yes``/``no``/``abstain``
(default: abstain); nothing is shown until all have answered. A tie is a refusal (§Voting on Cards Distributed).

Verbs: ``summon`` place / ``pass`` (phase); ``writ`` noble / ``open`` (summons); ``attend``
noble / ``done``; ``propose`` noble / ``pass`` (proposal); ``accept`` / ``decline`` (recipient,
default: accept); ``vote`` yes|no|abstain; ``home`` [noble, place] / ``done`` (free move home).
"""

from __future__ import annotations

from typing import Any

from roses.engine import log
from roses.engine.contract import Action, State
from roses.engine.steps import Frame, pop, push
from roses.games.kingmaker import cards as K
from roses.games.kingmaker import ops
from roses.games.kingmaker.common import (
    Z_ASIDE,
    Z_ASSET,
    Z_AWARD,
    Z_CHANC,
    Z_NOBLE,
    W,
    awards,
    card_name,
    faction_nobles,
    heir_controller,
    heir_loc,
    king_controller,
    owner_of_card,
    place_name,
    place_owner,
    player_of_role,
    role_of,
    senior_heir,
    sole_king,
)
from roses.games.kingmaker.ops import place_active
from roses.games.kingmaker.queries import (
    HENRY,
    award_reason,
    besieged_inside,
    event_cards_held,
    landing_port,
    needs_ship,
    noble_named,
    offered,
    parliament_cards,
    parliament_places,
    parliament_ship,
    parliament_ships,
    recipients,
    summoner_figure,
    tolerant,
    writs,
)
from roses.games.kingmaker.wording import Labelled

# ============================================================================ who may summon


def summonable(state: State, p: int, sq: str) -> list[int]:
    """Other players' nobles a Writ may summon (§Calling Parliament): not at sea, captive, under siege, not
    already there; on an island or in Calais only with a ship to carry him to a mainland port
    (§Calling Parliament); never from Scotland, Ireland or the Continent (ruling K41)."""
    w = W(state)
    b = w.board
    out = []
    rogue = state["rogue"]
    for n in w.nobles:
        if state["cz"][n] != Z_NOBLE or state["ch"][n] == p or state["ncap"][n] >= 0:
            continue
        if rogue and rogue["employer"] == state["ch"][n]:
            continue  # E2 French Treachery: the employer may not attend
        nsq = state["nsq"][n]
        if nsq is None or nsq == sq or besieged_inside(state, n):
            continue
        area = b.areas[b.squares[nsq].area]
        if area.id in ("continent", "ireland", "scotland"):
            continue
        if needs_ship(state, n) and (parliament_ship(state, n) < 0 or landing_port(state, n, sq) is None):
            continue
        out.append(n)
    return out


class Writs:
    """The reasons the summonses and the attendance are refused (§Calling Parliament; ruling
    K41), for the session and the voluntary attendance."""

    def why_not_open(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        if frame.get("summoned"):
            return None
        return "Parliament opens once at least one noble of another player is summoned by a Writ (§Calling Parliament)"

    @tolerant
    def why_not_writ(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return _writ_reason(state, frame, role, "writ", arg)

    @tolerant
    def why_not_attend(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return _writ_reason(state, frame, role, "attend", arg)


def _writ_reason(state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
    w = W(state)
    n = noble_named(state, arg)
    if n < 0 or state["cz"][n] != Z_NOBLE:
        return f"{arg!r} is not a noble in play"
    name = card_name(w, n)
    p = player_of_role(state, role)
    if verb == "writ" and state["ch"][n] == frame["p"]:
        return "a Writ summons another player's noble, not one's own (§Calling Parliament)"
    if verb == "writ" and not writs(state, frame["p"]):
        return "you hold no Writ of summons (§Calling Parliament)"
    if verb == "attend" and state["ch"][n] != p:
        return f"{name} is not of your faction"
    if state["nsq"][n] == frame["sq"]:
        return f"{name} is already in Parliament's square"
    if needs_ship(state, n):
        return (f"{name} is on an island or in Calais: he comes only if an empty ship of his faction, large "
                "enough for his troops, is there to carry him (§Calling Parliament)")
    return f"{name} cannot come: he is at sea, a captive, under siege, or outside England and Wales (§Calling Parliament; ruling K41)"


class ParliamentPhase(Labelled):
    """§Parliament Phase: the Parliament phase of the current player."""

    name = "parliament"
    phase = "parliament"
    rule = "§Calling Parliament"
    labels = {"pass": "pass", "summon": "summon Parliament to {}"}

    @tolerant
    def why_not_summon(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        """§Calling Parliament; ruling K11."""
        w = W(state)
        p = frame["p"]
        fig = summoner_figure(state, p)
        if fig is None:
            return ("only the player controlling the sole King, or the Chancellor's player holding a Parliament "
                    "card when there are two Kings or none, may summon Parliament (§Calling Parliament)")
        if not writs(state, p):
            return "a Writ of summons must be presented to another player's noble (§Calling Parliament)"
        if isinstance(arg, str) and arg in w.board.places and arg not in parliament_places(state, *fig):
            return (f"Parliament may not meet at {place_name(w, arg)}: it meets in a town or city (not a castle, "
                    "Calais or Dublin, not under siege) where the King or Chancellor stands (§Calling Parliament; ruling K11)")
        return None

    def _places(self, state: State, frame: Frame, cards: bool = True) -> list[str]:
        """Where the phase's player may summon Parliament; ``cards`` False: as far as the other
        players know (his King or Chancellor, the places, the nobles a Writ could reach),
        whatever Event cards he holds."""
        p = frame["p"]
        if state["defeatism"].get(str(p), 0) > 0 or (state["rogue"] and state["rogue"]["employer"] == p):
            return []
        fig = summoner_figure(state, p, cards)
        if fig is None or (cards and not writs(state, p)):
            return []
        sq, inside = fig
        places = parliament_places(state, sq, inside)
        if not places or sq is None or not summonable(state, p, sq):
            return []
        return places

    def actors(self, state: State, frame: Frame) -> list[str]:
        """Ruling K91: the player is asked whenever he could summon as far as the others know
        and holds an Event card, so that being asked does not tell them he holds a Writ; without
        the cards he may only pass."""
        p = frame["p"]
        if self._places(state, frame, cards=False) and event_cards_held(state, p):
            return [role_of(state, p)]
        return []

    def run(self, state: State, frame: Frame) -> None:
        pop(state)

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("summon", pl) for pl in self._places(state, frame)] + [("pass", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Parliament phase: summon Parliament, or pass."

    def on_pass(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)

    def on_summon(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        p = frame["p"]
        pop(state)
        if sole_king(state) is None:
            ops.discard_event(state, parliament_cards(state, p)[0])  # the card is played (Event Key)
        open_session(state, p, arg, writs_needed=True)


def open_session(state: State, p: int, place: str, writs_needed: bool, henry_out: bool = False) -> None:
    w = W(state)
    sq = w.board.places[place].square
    log.public(state, f"{role_of(state, p)} summons Parliament to {place_name(w, place)}.", log.POLITICAL)
    state["new_awards"] = []
    push(state, {"step": "session", "p": p, "place": place, "sq": sq, "stage": "summons" if writs_needed else "attend",
                 "queue": [], "card": -1, "proposers": [], "pi": 0, "henry_out": henry_out, "summoned": 0})


# ============================================================================ the public screen
#: The decision of a session shown on the Parliament screen, by the step on top.
SCREEN_STAGES = {"attend": "attendance", "vote": "vote", "propose": "proposal",
                 "accept": "acceptance"}


def session_view(state: State) -> dict[str, Any] | None:
    """The public Parliament screen while a session is on the stack (None otherwise): where it
    sits and who summoned it, the decision being made (``stage``: summons, attendance, vote,
    proposal, acceptance, or agenda between them), the Chancery card debated (drawn face up,
    §Distributing Cards), the motion put to the vote with its choices (the vote between two Kings, §Voting on Cards Distributed), the
    votes of each player in both Houses (§Who Votes: the tally the vote was opened with, else
    the tally now), who may vote and who has answered. The ballots themselves are never in
    it: the result and its figures are published in the minutes when every voter has answered
    (§Voting on Cards Distributed; ``Vote`` shows nothing before)."""
    stack = state["stack"]
    session: Frame | None = None
    vote: Frame | None = None
    for f in reversed(stack):
        if f["step"] == "session":
            session = f
            break
        if f["step"] == "vote" and vote is None:
            vote = f
    if session is None:
        return None
    w = W(state)
    roles = state["roles"]
    top = stack[-1]["step"]
    if top == "session":
        stage = "summons" if session["stage"] == "summons" else "agenda"
    else:
        stage = SCREEN_STAGES.get(top, "agenda")
    votes = vote["votes"] if vote is not None else [list(v) for v in tally(state, session)]
    c = session.get("card", -1)
    out: dict[str, Any] = {
        "place": session["place"], "square": session["sq"], "summoner": role_of(state, session["p"]),
        "stage": stage, "card": w.cards[c].id if c >= 0 and state["cz"][c] == Z_ASIDE else None,
        "motion": None, "text": None, "choices": [], "voters": [], "voted": [],
        "tally": {roles[p]: [int(v[0]), int(v[1])] for p, v in enumerate(votes)},
    }
    if vote is not None:
        out.update(motion=vote["motion"], text=vote["text"], choices=list(vote["choices"]),
                   voters=[roles[p] for p in vote["voters"]],
                   voted=[roles[p] for p in vote["voters"] if str(p) in vote["ballots"]])
    return out


def own_ballot(state: State, p: int) -> str | None:
    """Player ``p``'s own ballot in the vote open now (his view only), or None."""
    for f in reversed(state["stack"]):
        if f["step"] == "vote":
            b: str | None = f["ballots"].get(str(p))
            return b
        if f["step"] == "session":
            return None
    return None


# ============================================================================ votes
def attending(state: State, n: int, sq: str) -> bool:
    return state["cz"][n] == Z_NOBLE and state["ncap"][n] < 0 and state["nsq"][n] == sq and state["nship"][n] < 0


def tally(state: State, session: Frame) -> list[tuple[int, int]]:
    """(Commons, Lords) of every player now (§Who Votes, rulings K13, K42)."""
    w = W(state)
    cards = w.cards
    n_players = len(state["roles"])
    sq = session["sq"]
    new = set(state["new_awards"])
    commons = [0] * n_players
    lords = [0] * n_players
    # King or Chancellor: 20 Commons (ruling K13: the sole King's controller, else the Chancellor's).
    k = sole_king(state)
    holder = -1
    if k is not None:
        holder = king_controller(state, k)
        if session.get("henry_out") and k == w.heir_codec.id(HENRY):
            holder = -2
    else:
        holder = owner_of_card(state, w.chancellor) if state["cz"][w.chancellor] == Z_AWARD else -1
        if w.chancellor in new:
            holder = -1
    # Senior Yorkist / Lancastrian: 10 in Commons (on the board), 10 in Lords (attending);
    # §King's peace: a player holding both houses' senior heirs counts one house only (the better).
    seniors: dict[int, list[tuple[int, int]]] = {}
    for house in ("lancaster", "york"):
        h = senior_heir(state, house)
        if h < 0:
            continue
        ctl = heir_controller(state, h)
        if ctl < 0:
            continue
        hs, _, hship = heir_loc(state, h)
        seniors.setdefault(ctl, []).append((10, 10 if hs == sq and hship < 0 else 0))
    for ctl, got in seniors.items():
        c10, l10 = max(got, key=lambda v: v[1])
        commons[ctl] += c10
        lords[ctl] += l10
    for p in range(n_players):
        for n in faction_nobles(state, p):
            if state["nsq"][n] is None and state["nship"][n] < 0:
                continue
            if n not in new:
                commons[p] += cards[n].commons
                if attending(state, n, sq):
                    lords[p] += cards[n].lords
            for c in awards(state, n):
                if c in new:
                    continue
                card = cards[c]
                if card.kind in (K.OFFICE, K.TITLE):
                    commons[p] += card.commons
                elif card.kind == K.BISHOP and attending(state, n, sq):
                    lords[p] += card.lords
    # Places: a carded town gives its card's votes, any other controlled city 4 / town 3
    # (ruling K42: once per place); Calais and Dublin give none (board: commons None).
    carded: set[str] = set()
    for c, card in enumerate(cards):
        if card.kind in (K.TOWN, K.ROYAL_CASTLE) and state["cz"][c] in (Z_ASSET, Z_AWARD) and c not in new:
            o = owner_of_card(state, c)
            if o >= 0 and place_owner(state, card.place) == o:
                commons[o] += card.commons
                carded.add(card.place)
    for pl, place in w.board.places.items():
        if place.commons is None or pl in carded or not place_active(state, pl):
            continue
        o = place_owner(state, pl)
        if o >= 0:
            commons[o] += 4 if place.commons == "city" else 3
    if holder == -2:  # Henry incapacitated (Parliament must be summoned, ruling K14)
        best = max(range(n_players), key=lambda q: (commons[q] + lords[q], -q))
        commons[best] += 20
    elif holder >= 0:
        commons[holder] += 20
    return list(zip(commons, lords, strict=True))


class Vote(Labelled):
    """All players with votes answer at once; the result is stored in the session frame."""

    name = "vote"
    phase = "parliament"
    rule = "§Voting on Cards Distributed"
    labels = {"vote": "vote {}"}

    def why_not_vote(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        if frame["motion"] == "kings":
            return "the vote between the Kings names one of them, or abstains (§Voting on Cards Distributed): " + ", ".join(
                [*frame["choices"], "abstain"])
        return "a ballot is yes, no or abstain (§Voting on Cards Distributed)"

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The published default: vote abstain (when it is an option)."""
        return offered(self.options(state, frame, role), ("vote", "abstain"))

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, p) for p in frame["voters"] if str(p) not in frame["ballots"]]

    def run(self, state: State, frame: Frame) -> None:
        pop(state)
        session = state["stack"][-1]
        session["result"] = decide(state, session, frame)

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        if frame["motion"] == "kings":
            return [("vote", k) for k in frame["choices"]] + [("vote", "abstain")]
        return [("vote", "yes"), ("vote", "no"), ("vote", "abstain")]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return f"Parliament votes: {frame['text']} (default: abstain)"

    def on_vote(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["ballots"][str(player_of_role(state, role))] = arg


def push_vote(state: State, session: Frame, motion: str, text: str, choices: list[str] | None = None) -> None:
    votes = tally(state, session)
    voters = [p for p, (c, lo) in enumerate(votes) if c or lo]
    session["result"] = None
    push(state, {"step": "vote", "motion": motion, "text": text, "voters": voters, "ballots": {},
                 "choices": choices or [], "votes": [list(v) for v in votes]})


def decide(state: State, session: Frame, frame: Frame) -> Any:
    votes = frame["votes"]
    ballots = {int(k): v for k, v in frame["ballots"].items()}
    motion = frame["motion"]
    if motion == "kings":
        score: dict[str, list[int]] = {k: [0, 0] for k in frame["choices"]}
        for p, choice in ballots.items():
            if choice in score:
                score[choice][0] += votes[p][0]
                score[choice][1] += votes[p][1]
        a, b = frame["choices"]
        winner = None
        if score[a][0] > score[b][0] and score[a][1] > score[b][1]:
            winner = a
        elif score[b][0] > score[a][0] and score[b][1] > score[a][1]:
            winner = b
        log.public(state, f"The vote between the Kings: {a} {score[a][0]}/{score[a][1]}, {b} {score[b][0]}/"
                   f"{score[b][1]} (Commons/Lords).", log.POLITICAL)
        return winner
    yes_c = sum(votes[p][0] for p, v in ballots.items() if v == "yes")
    no_c = sum(votes[p][0] for p, v in ballots.items() if v == "no")
    yes_l = sum(votes[p][1] for p, v in ballots.items() if v == "yes")
    no_l = sum(votes[p][1] for p, v in ballots.items() if v == "no")
    log.public(state, f"{frame['text']} Commons {yes_c} for, {no_c} against; Lords {yes_l} for, {no_l} against.",
               log.POLITICAL)
    if motion == "victory":
        total = sum(v[0] for v in votes)
        return yes_c >= total // 2 + 1 and yes_l > no_l
    if motion == "ships":
        return yes_c > no_c
    if motion == "bishop":
        return yes_l > no_l
    return yes_c > no_c and yes_l > no_l


# ============================================================================ the session


class Session(Writs, Labelled):
    """The agenda of a Parliament (module docstring); automatic between decisions."""

    name = "session"
    phase = "parliament"
    rule = "§Calling Parliament"
    labels = {"open": "open", "writ": "send a Writ of summons to {}"}


    def actors(self, state: State, frame: Frame) -> list[str]:
        if frame["stage"] == "summons":
            return [role_of(state, frame["p"])]
        return []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        w = W(state)
        out: list[Action] = []
        if writs(state, frame["p"]):
            out = [("writ", w.cards[n].id) for n in summonable(state, frame["p"], frame["sq"])]
        if frame["summoned"]:
            out.append(("open", None))
        return out

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Parliament: present Writs to the nobles you summon, then open the session."

    def on_writ(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        n = w.cid(arg)
        ops.discard_event(state, writs(state, frame["p"])[0])
        go_to_parliament(state, n, frame)
        frame["summoned"] += 1
        log.public(state, f"{card_name(w, n)} is summoned to Parliament.", log.POLITICAL)

    def on_open(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["stage"] = "attend"

    def run(self, state: State, frame: Frame) -> None:
        stage = frame["stage"]
        w = W(state)
        if stage == "attend":
            frame["stage"] = "kings"
            push(state, {"step": "attend", "sq": frame["sq"], "place": frame["place"],
                         "done": [False] * len(state["roles"])})
            return
        if stage == "kings":
            frame["stage"] = "kings_done"
            crowned = [h for h in range(len(w.heirs)) if state["hcrown"][h] and not state["hdead"][h]]
            if state["beaufort_crowned"]:
                crowned.append(-2)
            if len(crowned) == 2:
                names = [w.heirs[h].id if h >= 0 else "beaufort" for h in crowned]
                push_vote(state, frame, "kings", "Which King does Parliament support?", names)
            else:
                frame["result"] = None
            return
        if stage == "kings_done":
            if frame.get("result"):
                r = frame["result"]
                state["supported"] = -2 if r == "beaufort" else w.heir_codec.id(r)
                log.public(state, "Parliament supports " + ("Beaufort" if r == "beaufort" else
                                                            w.heirs[w.heir_codec.id(r)].name) + " as sole King.",
                           log.POLITICAL)
            frame["stage"] = "victory"
            return
        if stage == "victory":
            frame["stage"] = "victory_done"
            k = sole_king(state)
            if k is not None and king_controller(state, k) >= 0:
                name = "Beaufort" if k == -2 else w.heirs[k].name
                frame["victor"] = king_controller(state, k)
                push_vote(state, frame, "victory", f"That {name} of {role_of(state, frame['victor'])} be the one "
                          "and only King of England?")
            else:
                frame["result"] = None
            return
        if stage == "victory_done":
            if frame.get("result"):
                q = frame["victor"]
                state["result"] = role_of(state, q)
                state["end"] = "parliament"
                log.public(state, f"{role_of(state, q)} wins: Parliament supports his King as the one and only "
                           "King of England.", log.RESULT)
                return
            frame["stage"] = "ships"
            return
        if stage == "ships":
            frame["stage"] = "ships_done"
            if state["level"] >= 1 and state.get("lost_ships"):
                push_vote(state, frame, "ships", "That the lost ships of the Admiral and the Warden be restored?")
            else:
                frame["result"] = None
            return
        if stage == "ships_done":
            if frame.get("result"):
                for s in state.pop("lost_ships", []):
                    c = w.ships[s].office
                    if state["cz"][c] == Z_AWARD:
                        ops.ship_to_port(state, s)
                    else:
                        state.setdefault("lost_ships", []).append(s)
                log.public(state, "The lost ships return to their home ports.", log.POLITICAL)
            frame["stage"] = "chancery"
            frame["queue"] = list(state["chancery"])
            return
        if stage == "chancery":
            self._next_card(state, frame)
            return
        if stage == "card_vote_done":
            self._after_vote(state, frame)
            return
        if stage == "end":
            pop(state)
            state["peace"].append([frame["sq"], frame["p"]])  # §King's peace: until the summoner's next turn
            state["new_awards"] = []
            push(state, {"step": "disperse", "sq": frame["sq"], "done": [False] * len(state["roles"])})
            log.public(state, "Parliament is dissolved; a King's peace holds in its square.", log.POLITICAL)
            return
        raise RuntimeError(f"parliament stage {stage}")

    def _next_card(self, state: State, frame: Frame) -> None:
        w = W(state)
        while frame["queue"]:
            c = frame["queue"].pop(0)
            if state["cz"][c] != Z_CHANC:
                continue
            state["chancery"].remove(c)
            state["cz"][c] = Z_ASIDE  # aside while debated (public now: drawn from Chancery face up)
            frame["card"] = c
            card = w.cards[c]
            log.public(state, f"From Chancery: {card.name}.", log.POLITICAL)
            if card.kind == K.PARDON:
                frame["stage"] = "card_vote_done"
                frame["pending"] = "pardon"
                push_vote(state, frame, "pardon", "That the King's Pardon go to the Crown discard?")
                return
            frame["proposers"] = proposers(state, frame, card.kind == K.BISHOP)
            frame["pi"] = 0
            frame["pending"] = "propose"
            frame["stage"] = "card_vote_done"
            push(state, {"step": "propose", "p": frame["proposers"][0], "card": c})
            return
        frame["stage"] = "end"

    def _after_vote(self, state: State, frame: Frame) -> None:
        w = W(state)
        c = frame["card"]
        card = w.cards[c]
        pending = frame["pending"]
        if pending == "pardon":
            if frame.get("result"):
                ops.discard_crown(state, c)
            else:
                state["cz"][c] = Z_CHANC
                state["chancery"].append(c)
            frame["stage"] = "chancery"
            return
        if pending == "proposed":
            if frame.get("result"):
                n = frame["recipient"]
                state["cz"][c], state["ch"][c] = Z_AWARD, n
                state["new_awards"].append(c)
                log.public(state, f"{card.name} goes to {card_name(w, n)}.", log.POLITICAL)
                for s in w.office_ships.get(c, ()):
                    if state["spos"][s] is None and s not in state.get("lost_ships", []):
                        ops.ship_to_port(state, s)
                frame["stage"] = "chancery"
                return
            frame["pi"] += 1
        elif pending == "passed":
            frame["pi"] += 1
        if frame["pi"] < len(frame["proposers"]):
            frame["pending"] = "propose"
            push(state, {"step": "propose", "p": frame["proposers"][frame["pi"]], "card": c})
            return
        if card.kind == K.BISHOP:
            state["cz"][c] = Z_CHANC
            state["chancery"].append(c)
        else:
            ops.discard_crown(state, c)
        log.public(state, f"{card.name} is not allocated.", log.POLITICAL)
        frame["stage"] = "chancery"


def proposers(state: State, frame: Frame, bishop: bool) -> list[int]:
    """§Distributing Cards (ruling K12): the summoner, then the largest Commons holder, then the holder
    of the second-largest Lords vote (ties: the earlier in turn order); bishops only the
    summoner."""
    p = frame["p"]
    if bishop:
        return [p]
    votes = tally(state, frame)
    order = state["order"]
    by_commons = sorted(range(len(votes)), key=lambda q: (-votes[q][0], order.index(q)))
    by_lords = sorted(range(len(votes)), key=lambda q: (-votes[q][1], order.index(q)))
    out = [p, by_commons[0]]
    if len(by_lords) > 1:
        out.append(by_lords[1])
    return out


def go_to_parliament(state: State, n: int, session: Frame) -> None:
    """Summoned or attending nobles move at once, ignoring movement limits (§Calling Parliament), inside
    the place if friendly, else in the open of its square."""
    place = session["place"]
    inside = place if place_owner(state, place) == state["ch"][n] else None
    if needs_ship(state, n):
        # §Calling Parliament: an empty ship of his faction carries him to the mainland and ends its move
        # in a friendly or unfortified port there.
        ships, port = parliament_ships(state, n), landing_port(state, n, session["sq"])
        if ships and port is not None:
            w = W(state)
            for s in ships:
                state["spos"][s] = port
                state["smv"][s] = state["tno"]
                log.public(state, f"The {w.ships[s].name} carries {card_name(w, n)} to {place_name(w, port)} "
                           "on his way to Parliament.", log.MOVE)
    ops.put_noble(state, n, session["sq"], inside)


class Propose(Labelled):
    """A proposer names a recipient for the Chancery card, or passes."""

    name = "propose"
    phase = "parliament"
    rule = "§Distributing Cards, §Voting on Cards Distributed"
    always_decides = True
    labels = {"propose": "propose {}", "pass": "pass"}

    @tolerant
    def why_not_propose(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        """§Distributing Cards, §Voting on Cards Distributed."""
        w = W(state)
        n = noble_named(state, arg)
        if n < 0 or state["cz"][n] != Z_NOBLE:
            return f"{arg!r} is not a noble in play"
        if n in frame.get("tried", ()):
            return f"{card_name(w, n)} has declined it (§Voting on Cards Distributed): propose another"
        if n in recipients(state, frame["card"]):
            return None
        if state["nsq"][n] is None and state["nship"][n] < 0:
            return f"{card_name(w, n)} is not on the board"
        return award_reason(state, frame["card"], n, setup=True)

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The published default: pass (when it is an option)."""
        return offered(self.options(state, frame, role), ("pass", None))

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["p"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        w = W(state)
        tried = frame.get("tried", [])
        return [("propose", w.cards[n].id) for n in recipients(state, frame["card"]) if n not in tried] + [("pass", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return f"Parliament: propose a recipient for {W(state).cards[frame['card']].name}, or pass (default: pass)."

    def on_pass(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)
        state["stack"][-1]["pending"] = "passed"

    def on_propose(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        n = w.cid(arg)
        owner = state["ch"][n]
        log.public(state, f"{role} proposes {card_name(w, n)} for {w.cards[frame['card']].name}.", log.POLITICAL)
        if owner == frame["p"]:
            _to_vote(state, frame, n)
        else:
            frame["step"] = "accept"
            frame["n"] = n


def _to_vote(state: State, frame: Frame, n: int) -> None:
    w = W(state)
    pop(state)
    session = state["stack"][-1]
    session["pending"] = "proposed"
    session["recipient"] = n
    card = w.cards[frame["card"]]
    push_vote(state, session, "bishop" if card.kind == K.BISHOP else "award",
              f"That {card_name(w, n)} receive {card.name}?")


class Accept(Labelled):
    """§Voting on Cards Distributed: the proposed recipient's player may decline; the proposer then names another."""

    name = "accept"
    phase = "parliament"
    rule = "§Voting on Cards Distributed"
    always_decides = True
    labels = {"accept": "accept", "decline": "decline"}

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The published default: accept (when it is an option)."""
        return offered(self.options(state, frame, role), ("accept", None))

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, state["ch"][frame["n"]])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("accept", None), ("decline", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        w = W(state)
        return f"{card_name(w, frame['n'])} is proposed for {w.cards[frame['card']].name}: accept? (default: yes)"

    def on_accept(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _to_vote(state, frame, frame["n"])

    def on_decline(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame.setdefault("tried", []).append(frame["n"])
        frame["step"] = "propose"
        log.public(state, f"{role} declines.", log.POLITICAL)


class EveryPlayer(Labelled):
    """A Parliament step every player decides at once, each until he is ``done`` (the
    default); the step ends when all are."""

    phase = "parliament"
    labels = {"done": "done"}

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The published default: done (when it is an option)."""
        return offered(self.options(state, frame, role), ("done", None))

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, p) for p, d in enumerate(frame["done"]) if not d]

    def on_done(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["done"][player_of_role(state, role)] = True
        if all(frame["done"]):
            pop(state)


class Attend(Writs, EveryPlayer):
    """Voluntary attendance (§Calling Parliament): every player at once sends nobles, or is done."""

    name = "attend"
    rule = "§Calling Parliament"
    labels = {**EveryPlayer.labels, "attend": "{} attends Parliament"}


    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        w = W(state)
        p = player_of_role(state, role)
        return [("attend", w.cards[n].id) for n in summonable(state, -1, frame["sq"]) if state["ch"][n] == p] + [
            ("done", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Parliament: send nobles to attend (Lords votes need attendance), or be done (default: done)."

    def on_attend(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        n = w.cid(arg)
        go_to_parliament(state, n, frame)
        log.public(state, f"{card_name(w, n)} attends Parliament.", log.POLITICAL)


def home_places(state: State, n: int) -> list[str]:
    """Ending Parliament: noble ``n``'s homes, the castles printed on his card and the towns
    and cities of the town cards awarded to him (ruling K77)."""
    w = W(state)
    out = [c for c in w.home.get(n, ()) if place_active(state, c)]
    for c in awards(state, n):
        pl = w.cards[c].place
        if w.cards[c].kind == K.TOWN and pl in w.board.places and place_active(state, pl) and pl not in out:
            out.append(pl)
    return out


class Disperse(EveryPlayer):
    """Ending Parliament (and the note to its steps): every noble in play may move home free,
    to a castle on his card or a town or city of his, or stay (ruling K77)."""

    name = "disperse"
    rule = "§Ending Parliament"
    labels = {**EveryPlayer.labels, "home": "{} goes home to {}"}

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        w = W(state)
        p = player_of_role(state, role)
        out: list[Action] = []
        for n in faction_nobles(state, p):
            sq = state["nsq"][n]
            if (state["ncap"][n] >= 0 or sq is None or state["nship"][n] >= 0 or besieged_inside(state, n)
                    or n in frame.get("gone", ())):
                continue  # one free move home each
            for c in home_places(state, n):
                if w.board.places[c].square != sq:
                    out.append(("home", [w.cards[n].id, c]))
        return out + [("done", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "After Parliament: send nobles home to a castle on their card or a town of theirs, or stay (default: stay)."

    def on_home(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        n = w.cid(arg[0])
        place = arg[1]
        inside = place if place_owner(state, place) == state["ch"][n] else None
        ops.put_noble(state, n, w.board.places[place].square, inside)
        frame.setdefault("gone", []).append(n)
        log.public(state, f"{card_name(w, n)} goes home to {place_name(w, place)}.", log.POLITICAL)
        ops.capture_heirs(state, state["ch"][n], state["nsq"][n], inside)


def parliament_summoned(state: State, p: int) -> None:
    """Event "Parliament must be summoned" (ruling K14): ignored when a sole King other than
    Henry VI is in play; otherwise Parliament meets now where the drawer chooses; with Henry
    sole King his 20 Commons votes go to the player with the most other votes."""
    w = W(state)
    k = sole_king(state)
    henry = w.heir_codec.id(HENRY)
    if k is not None and k != henry:
        log.public(state, "There is a sole King: the card is ignored.", log.EVENT)
        return
    places = [pl for pl, place in w.board.places.items() if place.parliament and place_active(state, pl)
              and pl not in state["siege"]]
    if not places:
        return
    push(state, {"step": "parl_place", "p": p, "places": sorted(places), "henry_out": k == henry})


class ParlPlace(Labelled):
    """The drawer of "Parliament must be summoned" chooses where it meets (default: the first)."""

    name = "parl_place"
    phase = "chance"
    always_decides = True
    rule = "§Calling Parliament"
    labels = {"meet": "Parliament meets at {}"}

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The first option (the published default)."""
        opts = self.options(state, frame, role)
        return opts[0] if opts else None

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["p"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("meet", pl) for pl in frame["places"]]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Parliament must be summoned: choose where it meets."

    def on_meet(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)
        open_session(state, frame["p"], arg, writs_needed=False, henry_out=frame["henry_out"])
